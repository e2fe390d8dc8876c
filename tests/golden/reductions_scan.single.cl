#line 3 "reductions_scan.py"
SMELT_INLINE float sq(int i, __global float *x) {
    return x[i] * x[i];
}

#line 8 "reductions_scan.py"
SMELT_INLINE int input_expr(int i, __global int *ary) {
    return ary[i];
}

#line 13 "reductions_scan.py"
SMELT_INLINE void output_expr(int i, int item, int prev_item, int last_item, __global int *ary, __global int *out) {
    out[i] = smelt_add_i32(smelt_sub_i32(item, prev_item), smelt_mul_i32(last_item, 0));
}
