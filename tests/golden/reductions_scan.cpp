#line 3 "reductions_scan.py"
SMELT_INLINE double sq(int32_t i, double *x) {
    return x[i] * x[i];
}

#line 8 "reductions_scan.py"
SMELT_INLINE int32_t input_expr(int32_t i, int32_t *ary) {
    return ary[i];
}

#line 13 "reductions_scan.py"
SMELT_INLINE void output_expr(int32_t i, int32_t item, int32_t prev_item, int32_t last_item, int32_t *ary, int32_t *out) {
    out[i] = smelt_add_i32(smelt_sub_i32(item, prev_item), smelt_mul_i32(last_item, 0));
}
