// The OpenCL C text of the device radix sort (device_sort.cpp), specialised by #defines:
//   KT  the key's storage as an unsigned integer of its width   KIND 0 unsigned, 1 signed, 2 float
//   VT  the value's storage (when HAS_VALUES)                   IOTA values are the input positions
//   CT  the counter type (uint, or ulong past 2^32 keys)
#include "primitives/opencl/device_sort_source.h"

namespace smelt::primitives::opencl {

const char *device_sort_key_map() {
    return R"CL(
#define SMELT_SIGN ((KT)1 << (8 * sizeof(KT) - 1))
/* Order-preserving map of a key's bits to an unsigned integer (radix_keys.h). */
static inline KT smelt_map(KT k) {
#if KIND == 1
    return k ^ SMELT_SIGN;
#elif KIND == 2
    if (k == SMELT_SIGN) k = 0; /* -0.0 sorts as +0.0 */
    if ((k & ~SMELT_SIGN) > FLOAT_INF) return (KT)~(KT)0; /* NaNs last */
    return (k & SMELT_SIGN) ? (KT)~k : (KT)(k | SMELT_SIGN);
#else
    return k;
#endif
}
)CL";
}

const char *device_sort_source() {
    return R"CL(
/* This work-item's contiguous chunk [lo, hi) of [0, n): balanced, in global-id order. */
#define SMELT_CHUNK(n)                                                                  \
    const long t = (long)get_global_id(0), nt = (long)get_global_size(0);               \
    const long base = (n) / nt, rem = (n) % nt;                                         \
    const long lo = t * base + (t < rem ? t : rem);                                     \
    const long hi = lo + base + (t < rem ? 1 : 0);

/* Counts of each 4-bit digit over the chunk, stored digit-major: hist[d * nt + t]. */
__kernel void smelt_radix_count(__global const KT *keys, long n, uint shift, __global CT *hist) {
    SMELT_CHUNK(n)
    CT c[16];
    for (int d = 0; d < 16; ++d) c[d] = 0;
    for (long i = lo; i < hi; ++i) ++c[(smelt_map(keys[i]) >> shift) & 15];
    for (int d = 0; d < 16; ++d) hist[d * nt + t] = c[d];
}

/* Stable scatter: each work-item walks its chunk in order from its offsets (the exclusive scan of
   hist), so equal digits keep their input order. */
__kernel void smelt_radix_scatter(__global const KT *keys, __global KT *keys_out, long n,
                                  uint shift, __global const CT *hist
#ifdef HAS_VALUES
                                  , __global const VT *values, __global VT *values_out
#endif
) {
    SMELT_CHUNK(n)
    CT o[16];
    for (int d = 0; d < 16; ++d) o[d] = hist[d * nt + t];
    for (long i = lo; i < hi; ++i) {
        const KT k = keys[i];
        const CT p = o[(smelt_map(k) >> shift) & 15]++;
        keys_out[p] = k;
#ifdef HAS_VALUES
#ifdef IOTA
        values_out[p] = (VT)i;
#else
        values_out[p] = values[i];
#endif
#endif
    }
}

/* Exclusive sum scan of x[0, n) in place, three kernels as the Scan primitive's:
   up: chunk sums, scanned within the group (exclusive prefix per work-item at pre[t], group
   total at gs[g]); groups: one work-group turns gs into exclusive carries; down: rescan. */
static inline void smelt_local_scan(__local CT *l, uint id) {
    for (uint s = 1; s < SMELT_MAX_GROUP; s <<= 1) { /* fixed count: see level_loop() */
        CT v = id >= s ? l[id - s] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        l[id] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel void smelt_counts_up(__global CT *x, long n, __global CT *pre, __global CT *gs,
                              __local CT *l) {
    SMELT_CHUNK(n)
    const uint id = (uint)get_local_id(0);
    CT s = 0;
    for (long i = lo; i < hi; ++i) s += x[i];
    l[id] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    smelt_local_scan(l, id);
    pre[t] = id > 0 ? l[id - 1] : 0;
    if (id == get_local_size(0) - 1) gs[get_group_id(0)] = l[id];
}

__kernel void smelt_counts_groups(__global CT *gs, long n, __local CT *l) {
    SMELT_CHUNK(n)
    const uint id = (uint)get_local_id(0);
    CT s = 0;
    for (long i = lo; i < hi; ++i) s += gs[i];
    l[id] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    smelt_local_scan(l, id);
    CT run = id > 0 ? l[id - 1] : 0;
    for (long i = lo; i < hi; ++i) {
        const CT v = gs[i];
        gs[i] = run;
        run += v;
    }
}

__kernel void smelt_counts_down(__global CT *x, long n, __global const CT *pre,
                                __global const CT *gs) {
    SMELT_CHUNK(n)
    CT run = gs[get_group_id(0)] + pre[t];
    for (long i = lo; i < hi; ++i) {
        const CT v = x[i];
        x[i] = run;
        run += v;
    }
}
)CL";
}

} // namespace smelt::primitives::opencl
