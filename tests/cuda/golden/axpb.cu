#line 6 "axpb.py"
SMELT_INLINE void axpb(int32_t i, double *x, double *y, double *a, double *b) {
    y[i] = (a[i] * sin(x[i])) + b[i];
}
