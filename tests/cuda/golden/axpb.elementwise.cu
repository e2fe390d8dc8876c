#line N "kernel.cu"

/* Elementwise: axpb(i, ...) for i in [0, n). */
#define SMELT_ENTRY_PARAMS const int64_t smelt_n, double *smelt_p0 /* x */, double *smelt_p1 /* y */, double *smelt_p2 /* a */, double *smelt_p3 /* b */
#define SMELT_CALL(smelt_i) axpb((int32_t)(smelt_i), smelt_p0, smelt_p1, smelt_p2, smelt_p3)
#define SMELT_EACH_ENTRY smelt_entry
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
