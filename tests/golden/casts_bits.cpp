#line 2 "casts_bits.py"
SMELT_INLINE void casts(int32_t i, uint32_t *u, int64_t *l, int8_t *c, float *f) {
    u[i] = ((u[i] << 3) ^ (u[i] >> 1)) | 7;
    l[i] = smelt_sub_i64(smelt_add_i64((int64_t)smelt_f2i_f32_i32(f[i]), (int64_t)u[i]), ~l[i]);
    c[i] = (int8_t)smelt_add_i32((int32_t)c[i], 1);
    f[i] = (float)((((double)i) / 3.0) + ((double)(f[i] * 0.5f)) + ((double)sqrtf(f[i])));
    if (smelt_isnan_f32(f[i]) || (((int32_t)c[i]) == 0)) {
        f[i] = 0.0f;
    }
}
