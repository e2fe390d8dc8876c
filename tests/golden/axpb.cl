#line 6 "axpb.py"
SMELT_INLINE void axpb(int i, __global double *x, __global double *y, __global double *a, __global double *b) {
    y[i] = (a[i] * sin(x[i])) + b[i];
}
