#line 2 "casts_bits.py"
SMELT_INLINE void casts(int i, __global uint *u, __global long *l, __global char *c, __global float *f) {
    u[i] = ((u[i] << 3) ^ (u[i] >> 1)) | 7;
    l[i] = smelt_sub_i64(smelt_add_i64((long)smelt_f2i_f32_i32(f[i]), (long)u[i]), ~l[i]);
    c[i] = (char)smelt_add_i32((int)c[i], 1);
    f[i] = (((float)i) / 3.0f) + (f[i] * 0.5f) + sqrt(f[i]);
    if (smelt_isnan_f32(f[i]) || (((int)c[i]) == 0)) {
        f[i] = 0.0f;
    }
}
