#line N "kernel.cu"

/* Elementwise: axpb(i, ...) for i in [0, n); distinct arrays: restrict, 4 items per thread. */
#define SMELT_ENTRY_PARAMS const int64_t smelt_n, double *__restrict__ smelt_p0 /* x */, double *__restrict__ smelt_p1 /* y */, double *__restrict__ smelt_p2 /* a */, double *__restrict__ smelt_p3 /* b */
#define SMELT_CALL(smelt_i) axpb((int32_t)(smelt_i), smelt_p0, smelt_p1, smelt_p2, smelt_p3)
#define SMELT_TILED_ENTRY smelt_entry
#define SMELT_EACH_ENTRY smelt_entry_each
#define SMELT_ITEMS 4
#define SMELT_PRELOAD(smelt_i) \
            const double smelt_v0 = smelt_p0[(int32_t)(smelt_i)]; \
            asm volatile("" :: "d"(smelt_v0)); \
            const double smelt_v2 = smelt_p2[(int32_t)(smelt_i)]; \
            asm volatile("" :: "d"(smelt_v2)); \
            const double smelt_v3 = smelt_p3[(int32_t)(smelt_i)]; \
            asm volatile("" :: "d"(smelt_v3));
#define SMELT_INDEX_FITS (smelt_n <= 2147483648)
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
/* ---- elementwise_tiled.kernel: Elementwise on a GPU target, several items per work-item ----
 * f(i, ...) for i in [0, n) when the arrays are distinct (the backend declares them restrict).
 * Each work-item handles SMELT_ITEMS items a work-group apart: item k of work-item l of group g
 * is g * SMELT_ITEMS * W + k * W + l, W the work-group size, so consecutive work-items touch
 * consecutive items (coalesced) for every k. Over ceil(n / (SMELT_ITEMS * W)) groups.
 * A full tile first runs SMELT_PRELOAD for every item: the backend's way of getting p[i] of
 * each array the function reads at its own index in flight before the calls (restrict alone
 * does not get the later items' loads issued early: each call ends with a store, and the math
 * may branch). Only arrays of at least n items are loaded ahead, so those loads are in bounds
 * whatever the function does. The last, partial tile is bound-checked item by item.
 * Expects from the per-call header:
 *   SMELT_TILED_ENTRY    the entry's name
 *   SMELT_ENTRY_PARAMS, SMELT_CALL(smelt_i)   as elementwise_each.kernel
 *   SMELT_ITEMS          items per work-item
 *   SMELT_PRELOAD(smelt_i)   (optional) statements loading ahead the reads of item smelt_i
 *   SMELT_INDEX_FITS     (optional, with SMELT_PRELOAD) a condition on smelt_n under which
 *                        every index converts to f's index type unchanged, so that the loads
 *                        ahead read the elements the calls will
 * and the portable words. */
#ifndef SMELT_INDEX_FITS
#define SMELT_INDEX_FITS 1
#endif
SMELT_KERNEL void SMELT_TILED_ENTRY(SMELT_ENTRY_PARAMS) {
    const smelt_i64 smelt_w = SMELT_LOCAL_SIZE;
    const smelt_i64 smelt_base =
        (smelt_i64)SMELT_GROUP_ID * (SMELT_ITEMS * smelt_w) + SMELT_LOCAL_ID;
    if (smelt_base + (SMELT_ITEMS - 1) * smelt_w < smelt_n && SMELT_INDEX_FITS) {
#ifdef SMELT_PRELOAD
#pragma unroll
        for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
            const smelt_i64 smelt_i = smelt_base + smelt_k * smelt_w;
            SMELT_PRELOAD(smelt_i)
        }
#endif
#pragma unroll
        for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
            const smelt_i64 smelt_i = smelt_base + smelt_k * smelt_w;
            SMELT_CALL(smelt_i);
        }
    } else {
        for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
            const smelt_i64 smelt_i = smelt_base + smelt_k * smelt_w;
            if (smelt_i < smelt_n) SMELT_CALL(smelt_i);
        }
    }
}
/* ---- elementwise_each.kernel: Elementwise on a GPU target, one work-item per index ----
 * f(i, ...) for i in [0, n) over a 1-D grid of work-groups rounded up to the group size, so the
 * entry bound-checks its index. The only entry where arrays may alias or f has a loop; beside
 * elementwise_tiled.kernel, the entry for launches too small to fill the device with tiles.
 * Expects from the per-call header:
 *   SMELT_EACH_ENTRY     the entry's name
 *   SMELT_ENTRY_PARAMS   its parameters: smelt_n (int64) and the user's smelt_p0..., in the
 *                        backend's order
 *   SMELT_CALL(smelt_i)  the call of f at index smelt_i (int64), spelled over smelt_p0...
 * and the portable words. */
SMELT_KERNEL void SMELT_EACH_ENTRY(SMELT_ENTRY_PARAMS) {
    const smelt_i64 smelt_i = (smelt_i64)SMELT_GROUP_ID * SMELT_LOCAL_SIZE + SMELT_LOCAL_ID;
    if (smelt_i >= smelt_n) return;
    SMELT_CALL(smelt_i);
}
