#line 2 "matrices_and_calls.py"
SMELT_INLINE double dist2(double a, double b) {
    return (a * a) + (b * b);
}

SMELT_INLINE double scaled(float v, double f) {
#line 8 "matrices_and_calls.py"
    return ((double)v) * f;
}

#line 6 "matrices_and_calls.py"
SMELT_INLINE int64_t scaled_v2(int32_t v, int64_t f) {
#line 8 "matrices_and_calls.py"
    return smelt_mul_i64((int64_t)v, f);
}

#line 12 "matrices_and_calls.py"
SMELT_INLINE void kernel_(int32_t i, float *x, double *y) {
    double m[2][3] = {};
    int32_t c = 0;
    int32_t d = 0;
    int64_t r = 0;
    int64_t r_it = 0;
    int64_t k = 0;
    int64_t k_it = 0;
#line 14 "matrices_and_calls.py"
    c = 0;
#line 14 "matrices_and_calls.py"
    d = 0;
    for (r_it = 0; r_it < 2; ++r_it) {
#line 15 "matrices_and_calls.py"
        r = r_it;
        for (k_it = 0; k_it < 3; ++k_it) {
#line 16 "matrices_and_calls.py"
            k = k_it;
            m[r][k] = (double)((x[i] * ((float)r)) + ((float)k));
        }
    }
#line 18 "matrices_and_calls.py"
    c = smelt_mod_i32(i, 3);
    d = smelt_abs_i32(smelt_sub_i32(c, 5));
    y[i] = dist2(m[1][2], y[i]) + scaled(x[i], 2.0) + ((double)scaled_v2(d, 3)) + ((double)smelt_min_i32(smelt_min_i32(c, d), 7)) + ((double)smelt_max_f32(x[i], 0.5f));
}
