// The OpenCL C text of the GPU-layout device radix sort (device_sort_gpu.cpp), specialised by
// the same #defines as the CPU layout's (device_sort_source.cpp) plus
//   ITEMS  keys per work-item and tile (tiles of 256 * ITEMS keys)
//   BT     the wider of KT and VT: the local buffer that stages keys, then values
// Local memory comes in as __local arguments sized by the host (their sizes are noted at each),
// not as kernel-scope arrays: PoCL 3.1 shares kernel-scope __local arrays between concurrently
// running work-groups once their address is passed to a function or cast.
#include "primitives/opencl/device_sort_source.h"

namespace smelt::primitives::opencl {

const char *device_sort_gpu_source() {
    return R"CL(
#define W 256u
#define TILE (W * ITEMS)
/* Counter slots of the ranking: one spare every 32, so the raking reads of 16 consecutive
   counters per work-item fall in different banks. */
#define CPAD(q) ((q) + ((q) >> 5))

static inline uint smelt_digit(KT k, uint shift) {
    return (uint)(smelt_map(k) >> shift) & 255u;
}

/* This group's run of tiles [lo, hi) of [0, n): ceil(tiles / groups) tiles per group. */
#define SMELT_RANGE(n)                                                                  \
    const long groups = (long)get_num_groups(0);                                        \
    const long per = (((n) + TILE - 1) / TILE + groups - 1) / groups * TILE;            \
    const long lo = min((long)get_group_id(0) * per, (long)(n));                        \
    const long hi = min(lo + per, (long)(n));

/* Inclusive sum of x[0, 256) in place (every work-item calls it). */
#define SMELT_LOCAL_SCAN(x, T)                                                          \
    for (uint step = 1; step < W; step <<= 1) {                                         \
        const T v = l >= step ? x[l - step] : (T)0;                                     \
        barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        x[l] += v;                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                                   \
    }

/* Per-group counts of each 8-bit digit over the group's tiles: counts[group * 256 + digit]. */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void smelt_gsort_count(__global const KT *keys, long n, uint shift, __global CT *counts,
                       __local uint *h /* W */) {
    const uint l = (uint)get_local_id(0);
    h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    SMELT_RANGE(n)
    for (long base = lo; base < hi; base += TILE) {
        /* All the work-item's loads first (unchecked in full tiles), so they overlap. */
        KT key[ITEMS];
        if (base + TILE <= hi) {
#pragma unroll
            for (uint k = 0; k < ITEMS; ++k)
                key[k] = keys[base + k * W + l];
#pragma unroll
            for (uint k = 0; k < ITEMS; ++k)
                atomic_inc(&h[smelt_digit(key[k], shift)]);
        } else {
#pragma unroll
            for (uint k = 0; k < ITEMS; ++k) {
                const long i = base + k * W + l;
                if (i < hi) atomic_inc(&h[smelt_digit(keys[i], shift)]);
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    counts[get_group_id(0) * W + l] = h[l];
}

/* Per-group exclusive offsets of each digit, in place: counts[g * W + d] becomes the number of
   keys with digit d in the groups before g, and totals[d] the number of keys with digit d.
   One work-group per digit d; work-item l takes rows [l * R, l * R + R). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void smelt_gsort_spine(__global CT *counts, __global CT *totals, long groups,
                       __local CT *s /* W */) {
    const uint l = (uint)get_local_id(0);
    const uint d = (uint)get_group_id(0);
    const long rows = (groups + W - 1) / W;
    const long q0 = min((long)l * rows, groups), q1 = min(q0 + rows, groups);
    CT sum = 0;
    for (long q = q0; q < q1; ++q)
        sum += counts[q * W + d];
    s[l] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    SMELT_LOCAL_SCAN(s, CT)
    CT run = l ? s[l - 1] : (CT)0;
    for (long q = q0; q < q1; ++q) {
        const CT c = counts[q * W + d];
        counts[q * W + d] = run;
        run += c;
    }
    if (l == W - 1) totals[d] = s[W - 1];
}

/* Stable rank of the work-item's ITEMS consecutive tile items by the 4-bit field at `shift` of
   their digits d[]: p[k] = (items with a smaller field) + (items with the same field before it).
   Counters cnt[field][work-item] (ushort, padded): each work-item counts its own column, then
   a raking scan in (field, work-item) order gives every column's first position: work-item l
   sums 16 consecutive counters, and the 256 sums are scanned in local memory. */
static inline void smelt_rank(const uchar *d, uint shift, ushort *p, __local ushort *cnt,
                              __local uint *rsum, uint l) {
#pragma unroll
    for (uint b = 0; b < 16; ++b)
        cnt[CPAD(b * W + l)] = 0;
    uchar r[ITEMS];
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k) {
        const uint q = CPAD(((d[k] >> shift) & 15u) * W + l);
        r[k] = (uchar)cnt[q];
        cnt[q] = (ushort)(r[k] + 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = 0;
#pragma unroll
    for (uint m = 0; m < 16; ++m) {
        const uint q = CPAD(16 * l + m);
        const uint v = cnt[q];
        cnt[q] = (ushort)sum;
        sum += v;
    }
    rsum[l] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    SMELT_LOCAL_SCAN(rsum, uint)
    const uint before = l ? rsum[l - 1] : 0;
#pragma unroll
    for (uint m = 0; m < 16; ++m)
        cnt[CPAD(16 * l + m)] += (ushort)before;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k)
        p[k] = (ushort)(cnt[CPAD(((d[k] >> shift) & 15u) * W + l)] + r[k]);
}

/* Stable scatter of the group's tiles, in order, from each digit's first output position for
   this group (all smaller digits, then this digit in earlier groups: totals and counts after
   smelt_gsort_spine). Per tile: coalesced loads; the tile sorted by digit in local memory (two
   4-bit ranks, the low field first); keys, then values, written in digit order, so each digit's
   run goes to consecutive addresses. Values are loaded only once the tile is ranked, so they
   hold no registers during the ranking. */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void smelt_gsort_scatter(__global const KT *keys, __global KT *keys_out, long n, uint shift,
                         __global const CT *counts, __global const CT *totals,
                         __local BT *buf,      /* TILE: keys, then values, in sorted order;
                                                  digits while ranking */
                         __local CT *run,      /* W: next output position of each digit */
                         __local ushort *cnt,  /* CPAD(16 * W): ranking counters */
                         __local uint *rsum,   /* W: raking totals */
                         __local uchar *dig,   /* TILE: digits by input slot, then sorted */
                         __local ushort *idx,  /* TILE: input slot by position, then the
                                                  position of each input slot */
                         __local ushort *dse   /* 2 * W: each digit's run in the sorted tile */
#ifdef HAS_VALUES
                         , __global const VT *values, __global VT *values_out
#endif
) {
    __local ushort *const dstart = dse, *const dend = dse + W;
    __local uchar *const dig2 = (__local uchar *)buf;
    __local KT *const skey = (__local KT *)buf;
#ifdef HAS_VALUES
    __local VT *const sval = (__local VT *)buf;
#if defined(IOTA)
#define SMELT_VALUE(j) ((VT)(base + (j)))
#else
#define SMELT_VALUE(j) values[base + (j)]
#endif
#endif
    const uint l = (uint)get_local_id(0);
    SMELT_RANGE(n)
    run[l] = totals[l]; /* digit totals, scanned in place */
    barrier(CLK_LOCAL_MEM_FENCE);
    SMELT_LOCAL_SCAN(run, CT)
    {
        const CT first = l ? run[l - 1] : (CT)0;
        barrier(CLK_LOCAL_MEM_FENCE);
        run[l] = first + counts[get_group_id(0) * W + l];
    }
    for (long base = lo; base < hi; base += TILE) {
        const uint valid = (uint)min(hi - base, (long)TILE);
        /* The work-item's keys into registers (all loads in flight at once; full tiles
           unchecked), then their digits into local memory. */
        KT kr[ITEMS];
        if (valid == TILE) {
#pragma unroll
            for (uint k = 0; k < ITEMS; ++k)
                kr[k] = keys[base + k * W + l];
        } else {
#pragma unroll
            for (uint k = 0; k < ITEMS; ++k) {
                const uint j = k * W + l;
                if (j < valid) kr[k] = keys[base + j];
            }
        }
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            const uint j = k * W + l;
            /* past the end: digit 255, ranked after every real 255 */
            dig[j] = j < valid ? (uchar)smelt_digit(kr[k], shift) : (uchar)255;
        }
        dstart[l] = 0;
        dend[l] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);

        uchar d[ITEMS];
        ushort p[ITEMS], src[ITEMS];
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k)
            d[k] = dig[l * ITEMS + k];
        smelt_rank(d, 0, p, cnt, rsum, l);
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            dig2[p[k]] = d[k];
            idx[p[k]] = (ushort)(l * ITEMS + k);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            d[k] = dig2[l * ITEMS + k];
            src[k] = idx[l * ITEMS + k];
        }
        smelt_rank(d, 4, p, cnt, rsum, l);
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            dig[p[k]] = d[k];
            idx[src[k]] = p[k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#ifdef HAS_VALUES
        /* The values' loads, in flight while the keys go out. */
        VT vr[ITEMS];
        if (valid == TILE) {
#pragma unroll
            for (uint k = 0; k < ITEMS; ++k)
                vr[k] = SMELT_VALUE(k * W + l);
        } else {
#pragma unroll
            for (uint k = 0; k < ITEMS; ++k) {
                const uint j = k * W + l;
                if (j < valid) vr[k] = SMELT_VALUE(j);
            }
        }
#endif

        /* Each digit's run [dstart, dend) in the sorted tile, and the keys in sorted order. */
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            const uint j = k * W + l;
            if (j < valid) {
                const uchar dj = dig[j];
                if (j == 0 || dig[j - 1] != dj) dstart[dj] = (ushort)j;
                if (j == valid - 1 || dig[j + 1] != dj) dend[dj] = (ushort)(j + 1);
                skey[idx[j]] = kr[k];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            const uint j = k * W + l;
            if (j < valid) {
                const uchar dj = dig[j];
                keys_out[run[dj] + (CT)(j - dstart[dj])] = skey[j];
            }
        }
#ifdef HAS_VALUES
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            const uint j = k * W + l;
            if (j < valid) sval[idx[j]] = vr[k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k) {
            const uint j = k * W + l;
            if (j < valid) {
                const uchar dj = dig[j];
                values_out[run[dj] + (CT)(j - dstart[dj])] = sval[j];
            }
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        run[l] += (CT)(dend[l] - dstart[l]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
)CL";
}

} // namespace smelt::primitives::opencl
