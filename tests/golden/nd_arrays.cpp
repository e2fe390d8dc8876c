#line 7 "nd_arrays.py"
SMELT_INLINE double at(double *m, int64_t r, int64_t c) {
    return m[(int64_t)(r) * 5LL + (c)];
}

SMELT_INLINE void stencil(int64_t i, double *u, double *v) {
    int64_t j = 0;
    int64_t j_it = 0;
#line 12 "nd_arrays.py"
    for (j_it = 1; j_it < 4; ++j_it) {
#line 12 "nd_arrays.py"
        j = j_it;
        v[(int64_t)(i) * 5LL + (j)] = at(u, i, smelt_sub_i64(j, 1)) + u[(int64_t)(i) * 5LL + (smelt_add_i64(j, 1))] - (2.0 * u[(int64_t)(i) * 5LL + (j)]);
    }
}

#line 16 "nd_arrays.py"
SMELT_INLINE void planes(int64_t i, float *t, double *out) {
    double s = 0;
    int64_t j = 0;
    int64_t j_it = 0;
    int64_t k = 0;
    int64_t k_it = 0;
#line 17 "nd_arrays.py"
    s = 0.0;
    for (j_it = 0; j_it < 3; ++j_it) {
#line 18 "nd_arrays.py"
        j = j_it;
        for (k_it = 0; k_it < 4; ++k_it) {
#line 19 "nd_arrays.py"
            k = k_it;
            s = s + ((double)t[((int64_t)(i) * 3LL + (j)) * 4LL + (k)]);
        }
    }
#line 21 "nd_arrays.py"
    out[i] = s + 2.0;
}
