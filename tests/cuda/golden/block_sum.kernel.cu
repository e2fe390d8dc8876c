

#line 6 "kernels.py"
SMELT_INLINE void block_sum(double *x, double *partial, int32_t n) {
    __shared__ double buf[64];
    int32_t lid = 0;
    int32_t i = 0;
    int64_t s = 0;
#line 9 "kernels.py"
    lid = (int32_t)threadIdx.x;
    i = smelt_add_i32(smelt_mul_i32((int32_t)blockIdx.x, (int32_t)blockDim.x), lid);
    buf[lid] = (i < n) ? x[i] : 0.0;
    __syncthreads();
    s = 32;
    while (s > 0) {
        if (((int64_t)lid) < s) {
            buf[lid] = buf[lid] + buf[smelt_add_i64((int64_t)lid, s)];
        }
#line 17 "kernels.py"
        __syncthreads();
        s = smelt_floordiv_i64(s, 2);
    }
#line 19 "kernels.py"
    if (lid == 0) {
        partial[(int32_t)blockIdx.x] = buf[0];
    }
}
#line N "kernel.cu"

/* Launch wrapper of block_sum: local-memory parameters arrive as byte offsets into dynamic shared memory. */
extern "C" __global__ void smelt_kernel_block_sum(double *smelt_p0 /* x */, double *smelt_p1 /* partial */, const int32_t smelt_p2 /* n */) {
    block_sum(smelt_p0, smelt_p1, smelt_p2);
}
