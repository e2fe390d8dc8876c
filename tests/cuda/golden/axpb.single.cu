#line 6 "axpb.py"
SMELT_INLINE void axpb(int32_t i, float *x, float *y, float *a, float *b) {
    y[i] = (a[i] * sinf(x[i])) + b[i];
}
