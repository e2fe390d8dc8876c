#line 3 "python_arith.py"
SMELT_INLINE int32_t arith(int32_t i, int32_t *a, int32_t *b, int32_t *q, int32_t *r, double *x, double *y, double *fq, double *fr) {
    q[i] = smelt_floordiv_i32(a[i], b[i]);
    r[i] = smelt_mod_i32(a[i], b[i]);
    fq[i] = smelt_floordiv_f64(x[i], y[i]);
    fr[i] = smelt_mod_f64(x[i], y[i]) + (((double)a[i]) / ((double)b[i]));
    y[i] = (x[i] * x[i]) + (8.0 * x[i]);
    if ((0 <= a[i]) && (a[i] < b[i]) && (!(x[i] > 1.5))) {
        return 1;
    }
#line 11 "python_arith.py"
    return smelt_mul_i32(a[i], 2);
}
