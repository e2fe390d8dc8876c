#line N "kernel.cu"

/* Elementwise: axpb(i, ...) for i in [0, n); distinct arrays: restrict, 4 items per thread. */
extern "C" __global__ void smelt_entry(const int64_t smelt_n, double *__restrict__ smelt_p0 /* x */, double *__restrict__ smelt_p1 /* y */, double *__restrict__ smelt_p2 /* a */, double *__restrict__ smelt_p3 /* b */) {
    const int64_t smelt_base = (int64_t)blockIdx.x * (4 * (int64_t)blockDim.x) + threadIdx.x;
    if (smelt_base + (4 - 1) * (int64_t)blockDim.x < smelt_n && smelt_n <= 2147483648) {
#pragma unroll
        for (int smelt_k = 0; smelt_k < 4; ++smelt_k) {
            const int64_t smelt_i = smelt_base + smelt_k * (int64_t)blockDim.x;
            const double smelt_v0 = smelt_p0[(int32_t)(smelt_i)];
            asm volatile("" :: "d"(smelt_v0));
            const double smelt_v2 = smelt_p2[(int32_t)(smelt_i)];
            asm volatile("" :: "d"(smelt_v2));
            const double smelt_v3 = smelt_p3[(int32_t)(smelt_i)];
            asm volatile("" :: "d"(smelt_v3));
        }
#pragma unroll
        for (int smelt_k = 0; smelt_k < 4; ++smelt_k) {
            const int64_t smelt_i = smelt_base + smelt_k * (int64_t)blockDim.x;
            axpb((int32_t)(smelt_i), smelt_p0, smelt_p1, smelt_p2, smelt_p3);
        }
    } else {
        for (int smelt_k = 0; smelt_k < 4; ++smelt_k) {
            const int64_t smelt_i = smelt_base + smelt_k * (int64_t)blockDim.x;
            if (smelt_i < smelt_n) axpb((int32_t)(smelt_i), smelt_p0, smelt_p1, smelt_p2, smelt_p3);
        }
    }
}
extern "C" __global__ void smelt_entry_each(const int64_t smelt_n, double *__restrict__ smelt_p0 /* x */, double *__restrict__ smelt_p1 /* y */, double *__restrict__ smelt_p2 /* a */, double *__restrict__ smelt_p3 /* b */) {
    const int64_t smelt_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (smelt_i >= smelt_n) return;
    axpb((int32_t)(smelt_i), smelt_p0, smelt_p1, smelt_p2, smelt_p3);
}
