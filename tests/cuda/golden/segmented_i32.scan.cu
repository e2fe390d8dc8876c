#line N "kernel.cu"

/* Scan: input ident, output store_all, segments seg_start, with reduce_ab: reduce-then-scan, three kernels. */
SMELT_INLINE int32_t smelt_shfl_up_acc(int32_t v, unsigned d) { return (int32_t)__shfl_up_sync(0xffffffffu, (int32_t)v, d); }
SMELT_INLINE int32_t smelt_shfl_down_acc(int32_t v, unsigned d) { return (int32_t)__shfl_down_sync(0xffffffffu, (int32_t)v, d); }
SMELT_INLINE int32_t smelt_shfl_idx_acc(int32_t v, int lane) { return (int32_t)__shfl_sync(0xffffffffu, (int32_t)v, lane); }
SMELT_INLINE int32_t smelt_combine_acc(int32_t a, int32_t b) { return (int32_t)reduce_ab(a, b); }
SMELT_INLINE int32_t smelt_neutral_acc(void) { return (int32_t)reduce_neutral(); }
SMELT_INLINE int32_t smelt_seg_fold(int32_t a, int32_t b, int fb) { return fb ? b : smelt_combine_acc(a, b); }

extern "C" __global__ void smelt_scan_upsweep(const int64_t smelt_n, int32_t *smelt_p0 /* x */, int32_t *smelt_p1 /* y */, int32_t *smelt_p2 /* yp */, int32_t *smelt_p3 /* last */, int32_t *smelt_p4 /* flags */, int32_t *smelt_agg_v, unsigned char *smelt_agg_f, const int64_t smelt_tiles_per_block) {
    __shared__ int32_t smelt_s_val[8][608];
    __shared__ unsigned char smelt_s_flag[8][608];
    __shared__ int32_t smelt_s_wv[8];
    __shared__ unsigned char smelt_s_wf[8];
    const int smelt_lane = (int)(threadIdx.x & 31u), smelt_warp = (int)(threadIdx.x >> 5);
    const int64_t smelt_lo = (int64_t)blockIdx.x * smelt_tiles_per_block * 4864;
    int64_t smelt_hi = smelt_lo + smelt_tiles_per_block * 4864;
    if (smelt_hi > smelt_n) smelt_hi = smelt_n;
    int32_t smelt_cv = smelt_neutral_acc();
    int smelt_cf = 0, smelt_has = 0;
    for (int64_t smelt_tile = smelt_lo; smelt_tile < smelt_hi; smelt_tile += 4864) {
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
        if (threadIdx.x == 0) {
            for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w) {
                smelt_cv = smelt_has ? smelt_seg_fold(smelt_cv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]) : smelt_s_wv[smelt_w];
                smelt_cf |= smelt_s_wf[smelt_w];
                smelt_has = 1;
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        smelt_agg_v[blockIdx.x] = smelt_cv;
        smelt_agg_f[blockIdx.x] = (unsigned char)smelt_cf;
    }
}

extern "C" __global__ void smelt_scan_spine(const int64_t smelt_count, const int32_t *smelt_agg_v, const unsigned char *smelt_agg_f, int32_t *smelt_carry_v, int32_t *smelt_last_out) {
    __shared__ int32_t smelt_s_wv[8];
    __shared__ unsigned char smelt_s_wf[8];
    const int smelt_lane = (int)(threadIdx.x & 31u), smelt_warp = (int)(threadIdx.x >> 5);
    const int64_t smelt_per = (smelt_count + blockDim.x - 1) / blockDim.x;
    const int64_t smelt_lo = (int64_t)threadIdx.x * smelt_per;
    int64_t smelt_hi = smelt_lo + smelt_per;
    if (smelt_hi > smelt_count) smelt_hi = smelt_count;
    int32_t smelt_lv = smelt_neutral_acc();
    int smelt_lf = 0;
    for (int64_t smelt_b = smelt_lo; smelt_b < smelt_hi; ++smelt_b) {
        const int smelt_f = smelt_agg_f[smelt_b];
        smelt_lv = (smelt_b == smelt_lo || smelt_f) ? smelt_agg_v[smelt_b] : smelt_combine_acc(smelt_lv, smelt_agg_v[smelt_b]);
        smelt_lf |= smelt_f;
    }
    for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {
        const int32_t smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);
        const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);
        if (smelt_lane >= (int)smelt_d) {
            if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);
            smelt_lf |= smelt_of;
        }
    }
    const int64_t smelt_threads = (smelt_count + smelt_per - 1) / smelt_per;
    int smelt_lanes = (int)(smelt_threads - (int64_t)smelt_warp * 32);
    if (smelt_lanes > 32) smelt_lanes = 32;
    if (smelt_lanes > 0) {
        const int32_t smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);
        const int smelt_tf = __shfl_sync(0xffffffffu, smelt_lf, smelt_lanes - 1);
        if (smelt_lane == 0) {
            smelt_s_wv[smelt_warp] = smelt_tv;
            smelt_s_wf[smelt_warp] = (unsigned char)smelt_tf;
        }
    }
    __syncthreads();
    const int smelt_warps = (int)((smelt_threads + 31) / 32);
    int32_t smelt_pv = smelt_neutral_acc(); /* never combined in: block 0 starts a segment */
    for (int smelt_w = 0; smelt_w < smelt_warp && smelt_w < smelt_warps; ++smelt_w)
        smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
    if (threadIdx.x == 0) {
        int32_t smelt_total = smelt_neutral_acc();
        for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w)
            smelt_total = smelt_seg_fold(smelt_total, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
        *smelt_last_out = smelt_total;
    }
    const int32_t smelt_ev = smelt_shfl_up_acc(smelt_lv, 1);
    const int smelt_ef = __shfl_up_sync(0xffffffffu, smelt_lf, 1);
    int32_t smelt_run = smelt_lane == 0 ? smelt_pv : smelt_seg_fold(smelt_pv, smelt_ev, smelt_ef);
    for (int64_t smelt_b = smelt_lo; smelt_b < smelt_hi; ++smelt_b) {
        smelt_carry_v[smelt_b] = smelt_run;
        smelt_run = smelt_seg_fold(smelt_run, smelt_agg_v[smelt_b], smelt_agg_f[smelt_b]);
    }
}

extern "C" __global__ void smelt_scan_downsweep(const int64_t smelt_n, int32_t *smelt_p0 /* x */, int32_t *smelt_p1 /* y */, int32_t *smelt_p2 /* yp */, int32_t *smelt_p3 /* last */, int32_t *smelt_p4 /* flags */, const int32_t *smelt_carry_v, const int32_t *smelt_last_p, const int64_t smelt_tiles_per_block) {
    __shared__ int32_t smelt_s_val[8][608];
    __shared__ unsigned char smelt_s_flag[8][608];
    __shared__ int32_t smelt_s_wv[8];
    __shared__ unsigned char smelt_s_wf[8];
    const int smelt_lane = (int)(threadIdx.x & 31u), smelt_warp = (int)(threadIdx.x >> 5);
    const int64_t smelt_lo = (int64_t)blockIdx.x * smelt_tiles_per_block * 4864;
    int64_t smelt_hi = smelt_lo + smelt_tiles_per_block * 4864;
    if (smelt_hi > smelt_n) smelt_hi = smelt_n;
    const int32_t smelt_last = *smelt_last_p;
    (void)smelt_last;
    int32_t smelt_cv = blockIdx.x ? smelt_carry_v[blockIdx.x] : smelt_neutral_acc();
    for (int64_t smelt_tile = smelt_lo; smelt_tile < smelt_hi; smelt_tile += 4864) {
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
        int32_t smelt_pv = smelt_cv;
        for (int smelt_w = 0; smelt_w < smelt_warp; ++smelt_w)
            smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
        for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w)
            smelt_cv = smelt_seg_fold(smelt_cv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
        __syncthreads();
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
                store_all(smelt_i, smelt_item, smelt_prev, smelt_last, smelt_p1, smelt_p2, smelt_p3);
            }
        }
        __syncwarp();
    }
}
