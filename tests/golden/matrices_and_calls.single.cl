#line 2 "matrices_and_calls.py"
SMELT_INLINE float dist2(float a, float b) {
    return (a * a) + (b * b);
}

SMELT_INLINE float scaled(float v, float f) {
#line 8 "matrices_and_calls.py"
    return v * f;
}

#line 6 "matrices_and_calls.py"
SMELT_INLINE long scaled_v2(int v, long f) {
#line 8 "matrices_and_calls.py"
    return smelt_mul_i64((long)v, f);
}

#line 12 "matrices_and_calls.py"
SMELT_INLINE void kernel_(int i, __global float *x, __global float *y) {
    float m[2][3] = {0};
    int c = 0;
    int d = 0;
    long r = 0;
    long r_it = 0;
    long k = 0;
    long k_it = 0;
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
            m[r][k] = (x[i] * ((float)r)) + ((float)k);
        }
    }
#line 18 "matrices_and_calls.py"
    c = smelt_mod_i32(i, 3);
    d = smelt_abs_i32(smelt_sub_i32(c, 5));
    y[i] = dist2(m[1][2], y[i]) + scaled(x[i], 2.0f) + ((float)scaled_v2(d, 3)) + ((float)smelt_min_i32(smelt_min_i32(c, d), 7)) + smelt_max_f32(x[i], 0.5f);
}
