#line 6 "axpb.py"
SMELT_INLINE void axpb(int i, __global float *x, __global float *y, __global float *a, __global float *b) {
    y[i] = (a[i] * sin(x[i])) + b[i];
}
