#line N "kernel.cu"

/* Scan: input ident, output store_item_prev, segments seg_start, with reduce_ab: single pass, decoupled look-back. */
SMELT_INLINE int32_t smelt_shfl_up_acc(int32_t v, unsigned d) { return (int32_t)__shfl_up_sync(0xffffffffu, (int32_t)v, d); }
SMELT_INLINE int32_t smelt_shfl_down_acc(int32_t v, unsigned d) { return (int32_t)__shfl_down_sync(0xffffffffu, (int32_t)v, d); }
SMELT_INLINE int32_t smelt_shfl_idx_acc(int32_t v, int lane) { return (int32_t)__shfl_sync(0xffffffffu, (int32_t)v, lane); }
SMELT_INLINE int32_t smelt_combine_acc(int32_t a, int32_t b) { return (int32_t)reduce_ab(a, b); }
SMELT_INLINE int32_t smelt_neutral_acc(void) { return (int32_t)reduce_neutral(); }
SMELT_INLINE int32_t smelt_seg_fold(int32_t a, int32_t b, int fb) { return fb ? b : smelt_combine_acc(a, b); }

union smelt_bits_t { int32_t v; unsigned int u[1]; };
SMELT_INLINE void smelt_publish(volatile unsigned long long *smelt_status, int64_t smelt_tiles, int64_t smelt_t, unsigned long long smelt_st, int32_t smelt_v) {
    union smelt_bits_t c;
    c.u[0] = 0u;
    c.v = smelt_v;
    smelt_status[0 * smelt_tiles + smelt_t] = ((unsigned long long)c.u[0] << 32) | smelt_st;
    (void)smelt_tiles;
}
SMELT_INLINE int smelt_ready(const unsigned long long *w) {
    return (w[0] & 3ull) != 0ull;
}
SMELT_INLINE int32_t smelt_unpack(const unsigned long long *w) {
    union smelt_bits_t c;
    c.u[0] = (unsigned int)(w[0] >> 32);
    return c.v;
}
SMELT_INLINE void smelt_backoff(unsigned smelt_ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    if (gridDim.x >= 500u) __nanosleep(smelt_ns);
#endif
    (void)smelt_ns;
}
SMELT_INLINE int32_t smelt_look_back(volatile unsigned long long *smelt_status, int64_t smelt_tiles, int64_t smelt_t, int smelt_lane) {
    int32_t smelt_xv = smelt_neutral_acc();
    int smelt_first = 1;
    smelt_backoff(1500u);
    for (int64_t smelt_j0 = smelt_t - 1;; smelt_j0 -= 32 * 1) {
        unsigned long long smelt_w[1][1];
        for (;;) {
            int smelt_ok = 1;
#pragma unroll
            for (int smelt_q = 0; smelt_q < 1; ++smelt_q) {
                const int64_t smelt_j = smelt_j0 - 32 * smelt_q - smelt_lane;
#pragma unroll
                for (int smelt_h = 0; smelt_h < 1; ++smelt_h)
                    smelt_w[smelt_q][smelt_h] = smelt_j >= 0 ? smelt_status[smelt_h * smelt_tiles + smelt_j] : 2ull;
            }
#pragma unroll
            for (int smelt_q = 0; smelt_q < 1; ++smelt_q)
                smelt_ok &= smelt_ready(smelt_w[smelt_q]);
            if (__all_sync(0xffffffffu, smelt_ok)) break;
            smelt_backoff(700u);
        }
#pragma unroll
        for (int smelt_q = 0; smelt_q < 1; ++smelt_q) {
            int32_t smelt_v = smelt_unpack(smelt_w[smelt_q]);
            int smelt_f = (smelt_w[smelt_q][0] & 3ull) == 2ull;
            const unsigned smelt_tm = __ballot_sync(0xffffffffu, smelt_f);
            const int smelt_last = smelt_tm ? __ffs(smelt_tm) - 1 : 31;
            for (int smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {
                const int32_t smelt_ov = smelt_shfl_down_acc(smelt_v, smelt_d);
                const int smelt_of = __shfl_down_sync(0xffffffffu, smelt_f, smelt_d);
                if (smelt_lane + smelt_d <= smelt_last && !smelt_f) {
                    smelt_v = smelt_combine_acc(smelt_ov, smelt_v);
                    smelt_f = smelt_of;
                }
            }
            const int32_t smelt_gv = smelt_shfl_idx_acc(smelt_v, 0);
            smelt_xv = smelt_first ? smelt_gv : smelt_combine_acc(smelt_gv, smelt_xv);
            smelt_first = 0;
            if (smelt_tm) return smelt_xv;
        }
    }
}

extern "C" __global__ void smelt_scan_single(const int64_t smelt_n, int32_t *smelt_p0 /* x */, int32_t *smelt_p1 /* y */, int32_t *smelt_p2 /* yp */, int32_t *smelt_p3 /* last */, int32_t *smelt_p4 /* flags */, unsigned int *smelt_counter, volatile unsigned long long *smelt_status) {
    __shared__ int32_t smelt_s_val[8][608];
    __shared__ unsigned char smelt_s_flag[8][608];
    __shared__ int32_t smelt_s_wv[8];
    __shared__ unsigned char smelt_s_wf[8];
    const int smelt_lane = (int)(threadIdx.x & 31u), smelt_warp = (int)(threadIdx.x >> 5);
    __shared__ unsigned int smelt_s_t;
    __shared__ int32_t smelt_s_prefix;
    if (threadIdx.x == 0) smelt_s_t = smelt_n <= 4864 ? 0u : atomicAdd(smelt_counter, 1u);
    __syncthreads();
    const int64_t smelt_t = (int64_t)smelt_s_t;
    const int64_t smelt_tiles = (smelt_n + 4864 - 1) / 4864;
    const int64_t smelt_tile = smelt_t * 4864;
    int64_t smelt_hi = smelt_tile + 4864;
    if (smelt_hi > smelt_n) smelt_hi = smelt_n;
    {
        const int64_t smelt_wbase = smelt_tile + (int64_t)smelt_warp * 608;
#pragma unroll
        for (int smelt_k = 0; smelt_k < 19; ++smelt_k) {
            const int smelt_j = smelt_k * 32 + smelt_lane;
            const int64_t smelt_i = smelt_wbase + smelt_j;
            if (smelt_i < smelt_hi) {
                smelt_s_val[smelt_warp][smelt_j] = ident(smelt_i, smelt_p0);
                smelt_s_flag[smelt_warp][smelt_j] = (unsigned char)(smelt_i == 0 || (seg_start(smelt_i, smelt_p4)));
            }
        }
        __syncwarp();
        int64_t smelt_wvalid = smelt_hi - smelt_wbase;
        if (smelt_wvalid < 0) smelt_wvalid = 0;
        if (smelt_wvalid > 608) smelt_wvalid = 608;
        int smelt_cnt = (int)smelt_wvalid - smelt_lane * 19;
        if (smelt_cnt < 0) smelt_cnt = 0;
        if (smelt_cnt > 19) smelt_cnt = 19;
        const int smelt_lanes = (int)((smelt_wvalid + 19 - 1) / 19);
        int32_t smelt_lv = smelt_neutral_acc();
        int smelt_lf = 0;
#pragma unroll
        for (int smelt_k = 0; smelt_k < 19; ++smelt_k) {
            if (smelt_k < smelt_cnt) {
                const int32_t smelt_x = smelt_s_val[smelt_warp][smelt_lane * 19 + smelt_k];
                const int smelt_f = smelt_s_flag[smelt_warp][smelt_lane * 19 + smelt_k];
                smelt_lv = (smelt_k == 0 || smelt_f) ? smelt_x : smelt_combine_acc(smelt_lv, smelt_x);
                smelt_lf |= smelt_f;
            }
        }
        for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {
            const int32_t smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);
            const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);
            if (smelt_lane >= (int)smelt_d) {
                if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);
                smelt_lf |= smelt_of;
            }
        }
        if (smelt_lanes > 0) { /* warp-uniform */
            const int32_t smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);
            const int smelt_tf = __shfl_sync(0xffffffffu, smelt_lf, smelt_lanes - 1);
            if (smelt_lane == 0) {
                smelt_s_wv[smelt_warp] = smelt_tv;
                smelt_s_wf[smelt_warp] = (unsigned char)smelt_tf;
            }
        }
        __syncthreads();
        int64_t smelt_tvalid = smelt_hi - smelt_tile;
        const int smelt_warps = smelt_tvalid >= 4864 ? 8 : (int)((smelt_tvalid + 608 - 1) / 608);
        if (smelt_warp == 0) {
            int32_t smelt_av = smelt_s_wv[0];
            int smelt_af = smelt_s_wf[0];
            for (int smelt_w = 1; smelt_w < smelt_warps; ++smelt_w) {
                smelt_av = smelt_seg_fold(smelt_av, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
                smelt_af |= smelt_s_wf[smelt_w];
            }
            if (smelt_lane == 0)
                smelt_publish(smelt_status, smelt_tiles, smelt_t, smelt_af ? 2ull : 1ull, smelt_av);
            if (smelt_t > 0) {
                const int32_t smelt_xv = smelt_look_back(smelt_status, smelt_tiles, smelt_t, smelt_lane);
                if (smelt_lane == 0) {
                    if (!smelt_af)
                        smelt_publish(smelt_status, smelt_tiles, smelt_t, 2ull, smelt_combine_acc(smelt_xv, smelt_av));
                    smelt_s_prefix = smelt_xv;
                }
            }
        }
        __syncthreads();
        const int32_t smelt_cv = smelt_t > 0 ? smelt_s_prefix : smelt_neutral_acc();
        int32_t smelt_pv = smelt_cv;
        for (int smelt_w = 0; smelt_w < smelt_warp; ++smelt_w)
            smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
        const int32_t smelt_ev = smelt_shfl_up_acc(smelt_lv, 1);
        const int smelt_ef = __shfl_up_sync(0xffffffffu, smelt_lf, 1);
        int32_t smelt_run = smelt_lane == 0 ? smelt_pv : smelt_seg_fold(smelt_pv, smelt_ev, smelt_ef);
#pragma unroll
        for (int smelt_k = 0; smelt_k < 19; ++smelt_k) {
            if (smelt_k < smelt_cnt) {
                const int smelt_j = smelt_lane * 19 + smelt_k;
                smelt_run = smelt_seg_fold(smelt_run, smelt_s_val[smelt_warp][smelt_j], smelt_s_flag[smelt_warp][smelt_j]);
                smelt_s_val[smelt_warp][smelt_j] = smelt_run;
            }
        }
        __syncwarp();
#pragma unroll
        for (int smelt_k = 0; smelt_k < 19; ++smelt_k) {
            const int smelt_j = smelt_k * 32 + smelt_lane;
            const int64_t smelt_i = smelt_wbase + smelt_j;
            if (smelt_i < smelt_hi) {
                const int32_t smelt_item = smelt_s_val[smelt_warp][smelt_j];
                const int32_t smelt_prev = smelt_s_flag[smelt_warp][smelt_j] ? smelt_neutral_acc() : (smelt_j ? smelt_s_val[smelt_warp][smelt_j - 1] : smelt_pv);
                (void)smelt_item;
                (void)smelt_prev;
                store_item_prev(smelt_i, smelt_item, smelt_prev, smelt_p1, smelt_p2);
            }
        }
        __syncwarp();
    }
}
