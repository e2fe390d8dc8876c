#line 3 "python_arith.py"
SMELT_INLINE int arith(int i, __global int *a, __global int *b, __global int *q, __global int *r, __global double *x, __global double *y, __global double *fq, __global double *fr) {
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
