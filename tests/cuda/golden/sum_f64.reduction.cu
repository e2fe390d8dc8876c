#line N "kernel.cu"

/* Reduction of an array with reduce_ab: deterministic two-stage tree. */
/* ---- per-call header of reduce_grid_stride.kernel ---- */
#define SMELT_T double
#define SMELT_COMBINE(smelt_a, smelt_b) ((double)reduce_ab(smelt_a, smelt_b))
#define SMELT_NEUTRAL ((double)reduce_neutral())
#define SMELT_SHFL_T double
/* ---- warp_value.kernel: the value's warp shuffles, combine and neutral element (CUDA) ----
 * smelt_shfl_up_acc(v, d), smelt_shfl_down_acc(v, d), smelt_shfl_idx_acc(v, lane) move a
 * SMELT_T across the full warp; __shfl_*_sync has overloads for 32- and 64-bit integers and
 * floats only, so the value travels as SMELT_SHFL_T (int for 8- and 16-bit types and bool).
 * smelt_combine_acc(a, b) and smelt_neutral_acc() are the combine and neutral element as
 * SMELT_T.
 * Expects from the per-call header (cuda/wrappers.h: device_helpers):
 *   SMELT_T, SMELT_COMBINE(a, b), SMELT_NEUTRAL   (per_call_header.h: combine_macros)
 *   SMELT_SHFL_T                                  the type a shuffle carries */
SMELT_INLINE SMELT_T smelt_shfl_up_acc(SMELT_T v, unsigned d) { return (SMELT_T)__shfl_up_sync(0xffffffffu, (SMELT_SHFL_T)v, d); }
SMELT_INLINE SMELT_T smelt_shfl_down_acc(SMELT_T v, unsigned d) { return (SMELT_T)__shfl_down_sync(0xffffffffu, (SMELT_SHFL_T)v, d); }
SMELT_INLINE SMELT_T smelt_shfl_idx_acc(SMELT_T v, int lane) { return (SMELT_T)__shfl_sync(0xffffffffu, (SMELT_SHFL_T)v, lane); }
SMELT_INLINE SMELT_T smelt_combine_acc(SMELT_T a, SMELT_T b) { return SMELT_COMBINE(a, b); }
SMELT_INLINE SMELT_T smelt_neutral_acc(void) { return SMELT_NEUTRAL; }
#define SMELT_USER_PARAMS , double *smelt_p0 /* ary */
#define SMELT_ITEM(smelt_i) smelt_p0[smelt_i]
/* ---- portable words of the primitive algorithms (cuda) ---- */
typedef int64_t smelt_i64;
typedef uint64_t smelt_u64;
typedef int32_t smelt_i32;
typedef uint32_t smelt_u32;
typedef uint8_t smelt_u8;
typedef uint16_t smelt_u16;
#ifndef SMELT_KERNEL
#define SMELT_KERNEL extern "C" __global__
#endif
#ifndef SMELT_GLOBAL
#define SMELT_GLOBAL 
#endif
#ifndef SMELT_LOCAL
#define SMELT_LOCAL 
#endif
#ifndef SMELT_LOCAL_ARRAY
#define SMELT_LOCAL_ARRAY __shared__
#endif
#ifndef SMELT_LOCAL_ID
#define SMELT_LOCAL_ID ((smelt_u32)threadIdx.x)
#endif
#ifndef SMELT_GROUP_ID
#define SMELT_GROUP_ID ((smelt_u32)blockIdx.x)
#endif
#ifndef SMELT_LOCAL_SIZE
#define SMELT_LOCAL_SIZE ((smelt_u32)blockDim.x)
#endif
#ifndef SMELT_NUM_GROUPS
#define SMELT_NUM_GROUPS ((smelt_u32)gridDim.x)
#endif
#ifndef SMELT_GROUP_BARRIER
#define SMELT_GROUP_BARRIER() __syncthreads()
#endif
/* The CUDA target's reduction (primitives/cuda/reduction_wrapper.cpp): deterministic, two stages.
 *
 *   smelt_reduce_blocks  G blocks of SMELT_BLOCK threads, G fixed by n and the device. Thread t
 *                        of block b folds items t', t' + S, t' + 2S, ... (t' = b * blockDim + t,
 *                        S = G * blockDim) in that order, starting from its first item; then the
 *                        block folds its threads' values with smelt_block_reduce and writes one
 *                        partial per block.
 *   smelt_reduce_final   one block folds the G partials the same way into smelt_out (the neutral
 *                        element when there are none).
 *
 * Invariant: the order of every combine is fixed by n, G and the block size, so repeated runs
 * give the same bits. As in every GPU reduction (CUB's included) the items are interleaved
 * across threads, so the combine must be commutative as well as associative. Threads that own no
 * item hold no value: they are always a suffix of their block and the tree skips them, so the
 * neutral element is never combined in (it is only the result of an empty reduction).
 *
 * Warp-synchronous (32-lane warps, shuffles): the CUDA target's only. From the per-call header:
 *   SMELT_T                the value type
 *   SMELT_USER_PARAMS      the user's kernel parameters (smelt_p0, ...), each after a comma
 *   SMELT_ITEM(smelt_i)    the value at index smelt_i (map or array) as SMELT_T
 * and before it smelt_combine_acc(a, b), smelt_neutral_acc(), smelt_shfl_down_acc(v, d).
 */

/* The fixed tree over the first `valid` threads of the block (a prefix, valid >= 1), result in
 * thread 0: warp shuffles by 1, 2, 4, 8, 16 lanes (lower lanes on the left), then the warps'
 * results through shared memory. Every thread of the block must call it (it has a barrier). */
SMELT_INLINE SMELT_T smelt_block_reduce(SMELT_T v, const int valid, SMELT_T *smelt_warp_acc) {
    const int lane = (int)(SMELT_LOCAL_ID & 31u), warp = (int)(SMELT_LOCAL_ID >> 5);
    int in_warp = valid - warp * 32;
    if (in_warp > 32) in_warp = 32;
    for (int d = 1; d < 32; d <<= 1) {
        const SMELT_T other = smelt_shfl_down_acc(v, (unsigned)d);
        if ((lane & (2 * d - 1)) == 0 && lane + d < in_warp) v = smelt_combine_acc(v, other);
    }
    if (lane == 0 && in_warp > 0) smelt_warp_acc[warp] = v;
    SMELT_GROUP_BARRIER();
    if (warp == 0) {
        const int warps = (valid + 31) / 32;
        if (lane < warps) v = smelt_warp_acc[lane];
        for (int d = 1; d < 32; d <<= 1) {
            const SMELT_T other = smelt_shfl_down_acc(v, (unsigned)d);
            if ((lane & (2 * d - 1)) == 0 && lane + d < warps) v = smelt_combine_acc(v, other);
        }
    }
    return v;
}

SMELT_KERNEL void smelt_reduce_blocks(const smelt_i64 smelt_n SMELT_USER_PARAMS, SMELT_T *smelt_partials) {
    SMELT_LOCAL_ARRAY SMELT_T smelt_warp_acc[32];
    const smelt_i64 smelt_stride = (smelt_i64)SMELT_NUM_GROUPS * SMELT_LOCAL_SIZE;
    smelt_i64 smelt_i = (smelt_i64)SMELT_GROUP_ID * SMELT_LOCAL_SIZE + SMELT_LOCAL_ID;
    SMELT_T smelt_acc = smelt_neutral_acc(); /* never combined in */
    if (smelt_i < smelt_n) {
        smelt_acc = SMELT_ITEM(smelt_i);
        smelt_i += smelt_stride;
        /* Four loads in flight per thread: the map only reads, so they can all be issued first.
         * The fold order is the same as one item at a time. */
        for (; smelt_i + 3 * smelt_stride < smelt_n; smelt_i += 4 * smelt_stride) {
            const smelt_i64 smelt_i1 = smelt_i + smelt_stride, smelt_i2 = smelt_i1 + smelt_stride, smelt_i3 = smelt_i2 + smelt_stride;
            const SMELT_T smelt_a0 = SMELT_ITEM(smelt_i);
            const SMELT_T smelt_a1 = SMELT_ITEM(smelt_i1);
            const SMELT_T smelt_a2 = SMELT_ITEM(smelt_i2);
            const SMELT_T smelt_a3 = SMELT_ITEM(smelt_i3);
            smelt_acc = smelt_combine_acc(smelt_combine_acc(smelt_combine_acc(smelt_combine_acc(smelt_acc, smelt_a0), smelt_a1), smelt_a2), smelt_a3);
        }
        for (; smelt_i < smelt_n; smelt_i += smelt_stride)
            smelt_acc = smelt_combine_acc(smelt_acc, SMELT_ITEM(smelt_i));
    }
    const smelt_i64 smelt_rest = smelt_n - (smelt_i64)SMELT_GROUP_ID * SMELT_LOCAL_SIZE;
    const int smelt_valid = smelt_rest < (smelt_i64)SMELT_LOCAL_SIZE ? (int)smelt_rest : (int)SMELT_LOCAL_SIZE;
    smelt_acc = smelt_block_reduce(smelt_acc, smelt_valid, smelt_warp_acc);
    if (SMELT_LOCAL_ID == 0) smelt_partials[SMELT_GROUP_ID] = smelt_acc;
}

SMELT_KERNEL void smelt_reduce_final(const smelt_i64 smelt_count, const SMELT_T *smelt_partials, SMELT_T *smelt_out) {
    SMELT_LOCAL_ARRAY SMELT_T smelt_warp_acc[32];
    if (smelt_count <= 0) {
        if (SMELT_LOCAL_ID == 0) *smelt_out = smelt_neutral_acc();
        return;
    }
    SMELT_T smelt_acc = smelt_neutral_acc(); /* never combined in */
    smelt_i64 smelt_k = SMELT_LOCAL_ID;
    if (smelt_k < smelt_count) {
        smelt_acc = smelt_partials[smelt_k];
        for (smelt_k += SMELT_LOCAL_SIZE; smelt_k < smelt_count; smelt_k += SMELT_LOCAL_SIZE)
            smelt_acc = smelt_combine_acc(smelt_acc, smelt_partials[smelt_k]);
    }
    const int smelt_valid = smelt_count < (smelt_i64)SMELT_LOCAL_SIZE ? (int)smelt_count : (int)SMELT_LOCAL_SIZE;
    smelt_acc = smelt_block_reduce(smelt_acc, smelt_valid, smelt_warp_acc);
    if (SMELT_LOCAL_ID == 0) *smelt_out = smelt_acc;
}
