#line 4 "atomics.py"
SMELT_INLINE void tally(int i, __global int *counts, __global long *totals, __global float *fsum, __global float *dsum, __global uint *u, __global int *slot) {
    slot[i] = smelt_atomic_inc_i32(&counts[0]);
    smelt_atomic_dec_i32(&counts[1]);
    smelt_atomic_add_i64(&totals[smelt_mod_i32(i, 4)], (long)smelt_mul_i32(i, 3));
    smelt_atomic_add_f32(&fsum[0], 0.5f);
    smelt_atomic_add_f32(&dsum[0], 0.25f);
    smelt_atomic_inc_u32(&u[0]);
}
