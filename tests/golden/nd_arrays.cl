#line 7 "nd_arrays.py"
SMELT_INLINE double at(__global double *m, long r, long c) {
    return m[(long)(r) * 5L + (c)];
}

SMELT_INLINE void stencil(long i, __global double *u, __global double *v) {
    long j = 0;
    long j_it = 0;
#line 12 "nd_arrays.py"
    for (j_it = 1; j_it < 4; ++j_it) {
#line 12 "nd_arrays.py"
        j = j_it;
        v[(long)(i) * 5L + (j)] = at(u, i, smelt_sub_i64(j, 1)) + u[(long)(i) * 5L + (smelt_add_i64(j, 1))] - (2.0 * u[(long)(i) * 5L + (j)]);
    }
}

#line 16 "nd_arrays.py"
SMELT_INLINE void planes(long i, __global float *t, __global double *out) {
    double s = 0;
    long j = 0;
    long j_it = 0;
    long k = 0;
    long k_it = 0;
#line 17 "nd_arrays.py"
    s = 0.0;
    for (j_it = 0; j_it < 3; ++j_it) {
#line 18 "nd_arrays.py"
        j = j_it;
        for (k_it = 0; k_it < 4; ++k_it) {
#line 19 "nd_arrays.py"
            k = k_it;
            s = s + ((double)t[((long)(i) * 3L + (j)) * 4L + (k)]);
        }
    }
#line 21 "nd_arrays.py"
    out[i] = s + 2.0;
}
