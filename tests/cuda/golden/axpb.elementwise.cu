#line N "kernel.cu"

/* Elementwise: axpb(i, ...) for i in [0, n). */
extern "C" __global__ void smelt_entry(const int64_t smelt_n, double *smelt_p0 /* x */, double *smelt_p1 /* y */, double *smelt_p2 /* a */, double *smelt_p3 /* b */) {
    const int64_t smelt_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (smelt_i >= smelt_n) return;
    axpb((int32_t)(smelt_i), smelt_p0, smelt_p1, smelt_p2, smelt_p3);
}
