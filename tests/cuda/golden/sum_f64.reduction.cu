#line N "kernel.cu"

/* Reduction of an array with reduce_ab: deterministic two-stage tree. */
SMELT_INLINE double smelt_shfl_up_acc(double v, unsigned d) { return (double)__shfl_up_sync(0xffffffffu, (double)v, d); }
SMELT_INLINE double smelt_shfl_down_acc(double v, unsigned d) { return (double)__shfl_down_sync(0xffffffffu, (double)v, d); }
SMELT_INLINE double smelt_shfl_idx_acc(double v, int lane) { return (double)__shfl_sync(0xffffffffu, (double)v, lane); }
SMELT_INLINE double smelt_combine_acc(double a, double b) { return (double)reduce_ab(a, b); }
SMELT_INLINE double smelt_neutral_acc(void) { return (double)reduce_neutral(); }
SMELT_INLINE double smelt_block_reduce(double v, const int valid, double *smelt_warp_acc) {
    const int lane = (int)(threadIdx.x & 31u), warp = (int)(threadIdx.x >> 5);
    int in_warp = valid - warp * 32;
    if (in_warp > 32) in_warp = 32;
    for (int d = 1; d < 32; d <<= 1) {
        const double other = smelt_shfl_down_acc(v, (unsigned)d);
        if ((lane & (2 * d - 1)) == 0 && lane + d < in_warp) v = smelt_combine_acc(v, other);
    }
    if (lane == 0 && in_warp > 0) smelt_warp_acc[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const int warps = (valid + 31) / 32;
        if (lane < warps) v = smelt_warp_acc[lane];
        for (int d = 1; d < 32; d <<= 1) {
            const double other = smelt_shfl_down_acc(v, (unsigned)d);
            if ((lane & (2 * d - 1)) == 0 && lane + d < warps) v = smelt_combine_acc(v, other);
        }
    }
    return v;
}

extern "C" __global__ void smelt_reduce_blocks(const int64_t smelt_n, double *smelt_p0 /* ary */, double *smelt_partials) {
    __shared__ double smelt_warp_acc[32];
    const int64_t smelt_stride = (int64_t)gridDim.x * blockDim.x;
    int64_t smelt_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    double smelt_acc = smelt_neutral_acc(); /* never combined in */
    if (smelt_i < smelt_n) {
        smelt_acc = smelt_p0[smelt_i];
        smelt_i += smelt_stride;
        for (; smelt_i + 3 * smelt_stride < smelt_n; smelt_i += 4 * smelt_stride) {
            const int64_t smelt_i1 = smelt_i + smelt_stride, smelt_i2 = smelt_i1 + smelt_stride, smelt_i3 = smelt_i2 + smelt_stride;
            const double smelt_a0 = smelt_p0[smelt_i];
            const double smelt_a1 = smelt_p0[smelt_i1];
            const double smelt_a2 = smelt_p0[smelt_i2];
            const double smelt_a3 = smelt_p0[smelt_i3];
            smelt_acc = smelt_combine_acc(smelt_combine_acc(smelt_combine_acc(smelt_combine_acc(smelt_acc, smelt_a0), smelt_a1), smelt_a2), smelt_a3);
        }
        for (; smelt_i < smelt_n; smelt_i += smelt_stride)
            smelt_acc = smelt_combine_acc(smelt_acc, smelt_p0[smelt_i]);
    }
    const int64_t smelt_rest = smelt_n - (int64_t)blockIdx.x * blockDim.x;
    const int smelt_valid = smelt_rest < (int64_t)blockDim.x ? (int)smelt_rest : (int)blockDim.x;
    smelt_acc = smelt_block_reduce(smelt_acc, smelt_valid, smelt_warp_acc);
    if (threadIdx.x == 0) smelt_partials[blockIdx.x] = smelt_acc;
}

extern "C" __global__ void smelt_reduce_final(const int64_t smelt_count, const double *smelt_partials, double *smelt_out) {
    __shared__ double smelt_warp_acc[32];
    if (smelt_count <= 0) {
        if (threadIdx.x == 0) *smelt_out = smelt_neutral_acc();
        return;
    }
    double smelt_acc = smelt_neutral_acc(); /* never combined in */
    int64_t smelt_k = threadIdx.x;
    if (smelt_k < smelt_count) {
        smelt_acc = smelt_partials[smelt_k];
        for (smelt_k += blockDim.x; smelt_k < smelt_count; smelt_k += blockDim.x)
            smelt_acc = smelt_combine_acc(smelt_acc, smelt_partials[smelt_k]);
    }
    const int smelt_valid = smelt_count < (int64_t)blockDim.x ? (int)smelt_count : (int)blockDim.x;
    smelt_acc = smelt_block_reduce(smelt_acc, smelt_valid, smelt_warp_acc);
    if (threadIdx.x == 0) *smelt_out = smelt_acc;
}
