#line N "kernel.cu"

/* Scan: input ident, output store_all, segments seg_start, with reduce_ab: reduce-then-scan, three kernels. */
/* ---- per-call header of the scan ---- */
#define SMELT_T int32_t
#define SMELT_COMBINE(smelt_a, smelt_b) ((int32_t)reduce_ab(smelt_a, smelt_b))
#define SMELT_NEUTRAL ((int32_t)reduce_neutral())
#define SMELT_SHFL_T int32_t
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
/* ---- scan_seg_fold.kernel: the value of a segmented fold (CUDA scans) ----
 * smelt_seg_fold(a, b, fb) is the value of (fa, a) + (fb, b): b where b's run starts a
 * segment, else smelt_combine_acc(a, b); it depends on fb alone.
 * Expects: SMELT_T and, before this file, warp_value.kernel. */
SMELT_INLINE SMELT_T smelt_seg_fold(SMELT_T a, SMELT_T b, int fb) { return fb ? b : smelt_combine_acc(a, b); }
#define SMELT_USER_PARAMS , int32_t *smelt_p0 /* x */, int32_t *smelt_p1 /* y */, int32_t *smelt_p2 /* yp */, int32_t *smelt_p3 /* last */, int32_t *smelt_p4 /* flags */
#define SMELT_INPUT(smelt_i) ident(smelt_i, smelt_p0)
#define SMELT_OUTPUT store_all(smelt_i, smelt_item, smelt_prev, smelt_last, smelt_p1, smelt_p2, smelt_p3)
#define SMELT_SEGMENTED 1
#define SMELT_SEGMENT_START(smelt_i) seg_start(smelt_i, smelt_p4)
#define SMELT_ITEMS 19
#define SMELT_WARPS 8
#define SMELT_WARP_TILE 608
#define SMELT_TILE 4864
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
#define SMELT_SPINE_WARPS 8
/* The CUDA target's scan when output takes last_item (primitives/cuda/scan_wrapper.cpp):
 * reduce-then-scan in three kernels, since last_item needs the total before any output is called.
 *
 *   smelt_scan_upsweep    G blocks; block b owns a contiguous run of smelt_tiles_per_block tiles
 *                         (scan_warp_tile.kernel) and writes its aggregate (flag, value)
 *   smelt_scan_spine      one block scans the G aggregates (exclusive) into a carry per block,
 *                         and writes the total, last_item
 *   smelt_scan_downsweep  each block rescans its tiles from its carry and calls output(i, item,
 *                         prev_item, last_item)
 *
 * Invariant: G and the tiles per block depend only on n and the device (cuda/geometry.h), and
 * every fold keeps index order, so the combine order, hence every bit of the result, is the same
 * on every run. input(i) is evaluated twice per index (upsweep, downsweep).
 *
 * Warp-synchronous (32-lane warps, shuffles): the CUDA target's only. From the per-call header:
 *   SMELT_T                       the value type
 *   SMELT_USER_PARAMS             the user's kernel parameters (smelt_p0, ...), each after a comma
 *   SMELT_INPUT(smelt_i)          input(i) as SMELT_T
 *   SMELT_OUTPUT                  the output call, spelled with smelt_i, smelt_item, smelt_prev,
 *                                 smelt_last
 *   SMELT_SEGMENTED               1: SMELT_SEGMENT_START(smelt_i) says whether index smelt_i
 *                                 starts a segment; 0: only index 0 does
 *   SMELT_ITEMS, SMELT_WARPS      items per lane and tile, warps per block
 *   SMELT_WARP_TILE, SMELT_TILE   items per warp and tile, items per tile
 *   SMELT_SPINE_WARPS             warps of the spine's block
 * and before it smelt_combine_acc, smelt_neutral_acc, smelt_shfl_{up,down,idx}_acc and
 * smelt_seg_fold(a, b, fb) (the value of (fa, a) + (fb, b)).
 */

SMELT_KERNEL void smelt_scan_upsweep(const smelt_i64 smelt_n SMELT_USER_PARAMS, SMELT_T *smelt_agg_v, unsigned char *smelt_agg_f, const smelt_i64 smelt_tiles_per_block) {
    /* Fragment of the CUDA scans (scan_warp_tile.kernel): a tile kernel's shared arrays, the tile's
 * values (and segment-start flags) per warp and the warp totals, and this thread's lane and
 * warp. SMELT_TILE_FLAG(j): whether item j of this warp's part of the tile starts a segment. */
    SMELT_LOCAL_ARRAY SMELT_T smelt_s_val[SMELT_WARPS][SMELT_WARP_TILE];
#if SMELT_SEGMENTED
    SMELT_LOCAL_ARRAY unsigned char smelt_s_flag[SMELT_WARPS][SMELT_WARP_TILE];
#define SMELT_TILE_FLAG(j) smelt_s_flag[smelt_warp][j]
#else
/* j is left bare so that an index sum adds from the left, (wbase + lane * K) + k, as the
 * compiled code has always computed it. */
#define SMELT_TILE_FLAG(j) (smelt_wbase + j == 0)
#endif
    SMELT_LOCAL_ARRAY SMELT_T smelt_s_wv[SMELT_WARPS];
    SMELT_LOCAL_ARRAY unsigned char smelt_s_wf[SMELT_WARPS];
    const int smelt_lane = (int)(SMELT_LOCAL_ID & 31u), smelt_warp = (int)(SMELT_LOCAL_ID >> 5);

    const smelt_i64 smelt_lo = (smelt_i64)SMELT_GROUP_ID * smelt_tiles_per_block * SMELT_TILE;
    smelt_i64 smelt_hi = smelt_lo + smelt_tiles_per_block * SMELT_TILE;
    if (smelt_hi > smelt_n) smelt_hi = smelt_n;
    SMELT_T smelt_cv = smelt_neutral_acc();
    int smelt_cf = 0, smelt_has = 0;
    for (smelt_i64 smelt_tile = smelt_lo; smelt_tile < smelt_hi; smelt_tile += SMELT_TILE) {
        /* Fragment of the CUDA scans (scan_reduce_then_scan.kernel, scan_single_pass.kernel): scans the
 * tile of SMELT_TILE items starting at index smelt_tile, whose valid items end at smelt_hi (a
 * prefix of the tile).
 *
 * Every warp loads its SMELT_WARP_TILE = 32 * SMELT_ITEMS consecutive items warp-striped
 * (coalesced) into shared memory; each lane folds its SMELT_ITEMS consecutive items in order
 * (SMELT_ITEMS is odd: the lanes' runs fall on different banks); the lanes are combined by the
 * ordered warp scan (scan_warp_scan.kernel) and the warp totals go to shared memory.
 *
 * Segments travel as (start flag, value) pairs combined by
 *     (fa, a) + (fb, b) = (fa | fb, fb ? b : combine(a, b)),
 * which is associative, so the combine only has to be associative (no commutativity: every fold
 * keeps index order). Index 0 always starts a segment, so the value before the first tile is
 * never combined in. Items beyond n are never combined: every combine takes its left operand
 * from lower indices.
 *
 * Leaves: smelt_wbase (this warp's first index), the lane's inclusive fold in (smelt_lf,
 * smelt_lv), its item count in smelt_cnt, the warp totals in smelt_s_wv/wf and the number of
 * warps holding items in smelt_warps, after a barrier. Needs scan_warp_tile_arrays.kernel. */
const smelt_i64 smelt_wbase = smelt_tile + (smelt_i64)smelt_warp * SMELT_WARP_TILE;
#pragma unroll
for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
    const int smelt_j = smelt_k * 32 + smelt_lane;
    const smelt_i64 smelt_i = smelt_wbase + smelt_j;
    if (smelt_i < smelt_hi) {
        smelt_s_val[smelt_warp][smelt_j] = SMELT_INPUT(smelt_i);
#if SMELT_SEGMENTED
        smelt_s_flag[smelt_warp][smelt_j] = (unsigned char)(smelt_i == 0 || (SMELT_SEGMENT_START(smelt_i)));
#endif
    }
}
__syncwarp();
/* Valid items of this warp's part of the tile, and of this lane's SMELT_ITEMS. */
smelt_i64 smelt_wvalid = smelt_hi - smelt_wbase;
if (smelt_wvalid < 0) smelt_wvalid = 0;
if (smelt_wvalid > SMELT_WARP_TILE) smelt_wvalid = SMELT_WARP_TILE;
int smelt_cnt = (int)smelt_wvalid - smelt_lane * SMELT_ITEMS;
if (smelt_cnt < 0) smelt_cnt = 0;
if (smelt_cnt > SMELT_ITEMS) smelt_cnt = SMELT_ITEMS;
const int smelt_lanes = (int)((smelt_wvalid + SMELT_ITEMS - 1) / SMELT_ITEMS);
SMELT_T smelt_lv = smelt_neutral_acc();
int smelt_lf = 0;
#pragma unroll
for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
    if (smelt_k < smelt_cnt) {
        const SMELT_T smelt_x = smelt_s_val[smelt_warp][smelt_lane * SMELT_ITEMS + smelt_k];
        const int smelt_f = SMELT_TILE_FLAG(smelt_lane * SMELT_ITEMS + smelt_k);
        smelt_lv = (smelt_k == 0 || smelt_f) ? smelt_x : smelt_combine_acc(smelt_lv, smelt_x);
        smelt_lf |= smelt_f;
    }
}
/* Fragment of the CUDA scans: the ordered inclusive scan of each lane's (smelt_lf, smelt_lv)
 * across the warp by shuffles up, lower lanes on the left, in place. A lane holding a segment
 * start keeps its value and only gathers the flags. */
for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {
    const SMELT_T smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);
    const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);
    if (smelt_lane >= (int)smelt_d) {
        if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);
        smelt_lf |= smelt_of;
    }
}

if (smelt_lanes > 0) { /* warp-uniform */
    const SMELT_T smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);
    const int smelt_tf = __shfl_sync(0xffffffffu, smelt_lf, smelt_lanes - 1);
    if (smelt_lane == 0) {
        smelt_s_wv[smelt_warp] = smelt_tv;
        smelt_s_wf[smelt_warp] = (unsigned char)smelt_tf;
    }
}
SMELT_GROUP_BARRIER();
smelt_i64 smelt_tvalid = smelt_hi - smelt_tile;
const int smelt_warps = smelt_tvalid >= SMELT_TILE ? SMELT_WARPS : (int)((smelt_tvalid + SMELT_WARP_TILE - 1) / SMELT_WARP_TILE);

        /* Thread 0 appends the tile's warp totals to the block's aggregate, in order. */
        if (SMELT_LOCAL_ID == 0) {
            for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w) {
                smelt_cv = smelt_has ? smelt_seg_fold(smelt_cv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]) : smelt_s_wv[smelt_w];
                smelt_cf |= smelt_s_wf[smelt_w];
                smelt_has = 1;
            }
        }
        SMELT_GROUP_BARRIER();
    }
    if (SMELT_LOCAL_ID == 0) {
        smelt_agg_v[SMELT_GROUP_ID] = smelt_cv;
        smelt_agg_f[SMELT_GROUP_ID] = (unsigned char)smelt_cf;
    }
}

/* One block: thread t folds the aggregates [t * per, (t + 1) * per) in order, the threads are
 * scanned by warps and the warps in shared memory; each aggregate's carry is everything before
 * it. */
SMELT_KERNEL void smelt_scan_spine(const smelt_i64 smelt_count, const SMELT_T *smelt_agg_v, const unsigned char *smelt_agg_f, SMELT_T *smelt_carry_v, SMELT_T *smelt_last_out) {
    SMELT_LOCAL_ARRAY SMELT_T smelt_s_wv[SMELT_SPINE_WARPS];
    SMELT_LOCAL_ARRAY unsigned char smelt_s_wf[SMELT_SPINE_WARPS];
    const int smelt_lane = (int)(SMELT_LOCAL_ID & 31u), smelt_warp = (int)(SMELT_LOCAL_ID >> 5);
    const smelt_i64 smelt_per = (smelt_count + SMELT_LOCAL_SIZE - 1) / SMELT_LOCAL_SIZE;
    const smelt_i64 smelt_lo = (smelt_i64)SMELT_LOCAL_ID * smelt_per;
    smelt_i64 smelt_hi = smelt_lo + smelt_per;
    if (smelt_hi > smelt_count) smelt_hi = smelt_count;
    SMELT_T smelt_lv = smelt_neutral_acc();
    int smelt_lf = 0;
    for (smelt_i64 smelt_b = smelt_lo; smelt_b < smelt_hi; ++smelt_b) {
        const int smelt_f = smelt_agg_f[smelt_b];
        smelt_lv = (smelt_b == smelt_lo || smelt_f) ? smelt_agg_v[smelt_b] : smelt_combine_acc(smelt_lv, smelt_agg_v[smelt_b]);
        smelt_lf |= smelt_f;
    }
    /* Fragment of the CUDA scans: the ordered inclusive scan of each lane's (smelt_lf, smelt_lv)
 * across the warp by shuffles up, lower lanes on the left, in place. A lane holding a segment
 * start keeps its value and only gathers the flags. */
for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {
    const SMELT_T smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);
    const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);
    if (smelt_lane >= (int)smelt_d) {
        if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);
        smelt_lf |= smelt_of;
    }
}

    const smelt_i64 smelt_threads = (smelt_count + smelt_per - 1) / smelt_per;
    int smelt_lanes = (int)(smelt_threads - (smelt_i64)smelt_warp * 32);
    if (smelt_lanes > 32) smelt_lanes = 32;
    if (smelt_lanes > 0) {
        const SMELT_T smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);
        const int smelt_tf = __shfl_sync(0xffffffffu, smelt_lf, smelt_lanes - 1);
        if (smelt_lane == 0) {
            smelt_s_wv[smelt_warp] = smelt_tv;
            smelt_s_wf[smelt_warp] = (unsigned char)smelt_tf;
        }
    }
    SMELT_GROUP_BARRIER();
    const int smelt_warps = (int)((smelt_threads + 31) / 32);
    SMELT_T smelt_pv = smelt_neutral_acc(); /* never combined in: block 0 starts a segment */
    for (int smelt_w = 0; smelt_w < smelt_warp && smelt_w < smelt_warps; ++smelt_w)
        smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
    if (SMELT_LOCAL_ID == 0) {
        SMELT_T smelt_total = smelt_neutral_acc();
        for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w)
            smelt_total = smelt_seg_fold(smelt_total, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
        *smelt_last_out = smelt_total;
    }
    /* Fragment of the CUDA scans: smelt_run, the value before this lane's first item, from smelt_pv
 * (the value before the warp's first item) and the inclusive (smelt_lf, smelt_lv) of the lane to
 * the left (after scan_warp_scan.kernel). */
const SMELT_T smelt_ev = smelt_shfl_up_acc(smelt_lv, 1);
const int smelt_ef = __shfl_up_sync(0xffffffffu, smelt_lf, 1);
SMELT_T smelt_run = smelt_lane == 0 ? smelt_pv : smelt_seg_fold(smelt_pv, smelt_ev, smelt_ef);

    for (smelt_i64 smelt_b = smelt_lo; smelt_b < smelt_hi; ++smelt_b) {
        smelt_carry_v[smelt_b] = smelt_run;
        smelt_run = smelt_seg_fold(smelt_run, smelt_agg_v[smelt_b], smelt_agg_f[smelt_b]);
    }
}

SMELT_KERNEL void smelt_scan_downsweep(const smelt_i64 smelt_n SMELT_USER_PARAMS, const SMELT_T *smelt_carry_v, const SMELT_T *smelt_last_p, const smelt_i64 smelt_tiles_per_block) {
    /* Fragment of the CUDA scans (scan_warp_tile.kernel): a tile kernel's shared arrays, the tile's
 * values (and segment-start flags) per warp and the warp totals, and this thread's lane and
 * warp. SMELT_TILE_FLAG(j): whether item j of this warp's part of the tile starts a segment. */
    SMELT_LOCAL_ARRAY SMELT_T smelt_s_val[SMELT_WARPS][SMELT_WARP_TILE];
#if SMELT_SEGMENTED
    SMELT_LOCAL_ARRAY unsigned char smelt_s_flag[SMELT_WARPS][SMELT_WARP_TILE];
#define SMELT_TILE_FLAG(j) smelt_s_flag[smelt_warp][j]
#else
/* j is left bare so that an index sum adds from the left, (wbase + lane * K) + k, as the
 * compiled code has always computed it. */
#define SMELT_TILE_FLAG(j) (smelt_wbase + j == 0)
#endif
    SMELT_LOCAL_ARRAY SMELT_T smelt_s_wv[SMELT_WARPS];
    SMELT_LOCAL_ARRAY unsigned char smelt_s_wf[SMELT_WARPS];
    const int smelt_lane = (int)(SMELT_LOCAL_ID & 31u), smelt_warp = (int)(SMELT_LOCAL_ID >> 5);

    const smelt_i64 smelt_lo = (smelt_i64)SMELT_GROUP_ID * smelt_tiles_per_block * SMELT_TILE;
    smelt_i64 smelt_hi = smelt_lo + smelt_tiles_per_block * SMELT_TILE;
    if (smelt_hi > smelt_n) smelt_hi = smelt_n;
    const SMELT_T smelt_last = *smelt_last_p;
    (void)smelt_last;
    SMELT_T smelt_cv = SMELT_GROUP_ID ? smelt_carry_v[SMELT_GROUP_ID] : smelt_neutral_acc();
    for (smelt_i64 smelt_tile = smelt_lo; smelt_tile < smelt_hi; smelt_tile += SMELT_TILE) {
        /* Fragment of the CUDA scans (scan_reduce_then_scan.kernel, scan_single_pass.kernel): scans the
 * tile of SMELT_TILE items starting at index smelt_tile, whose valid items end at smelt_hi (a
 * prefix of the tile).
 *
 * Every warp loads its SMELT_WARP_TILE = 32 * SMELT_ITEMS consecutive items warp-striped
 * (coalesced) into shared memory; each lane folds its SMELT_ITEMS consecutive items in order
 * (SMELT_ITEMS is odd: the lanes' runs fall on different banks); the lanes are combined by the
 * ordered warp scan (scan_warp_scan.kernel) and the warp totals go to shared memory.
 *
 * Segments travel as (start flag, value) pairs combined by
 *     (fa, a) + (fb, b) = (fa | fb, fb ? b : combine(a, b)),
 * which is associative, so the combine only has to be associative (no commutativity: every fold
 * keeps index order). Index 0 always starts a segment, so the value before the first tile is
 * never combined in. Items beyond n are never combined: every combine takes its left operand
 * from lower indices.
 *
 * Leaves: smelt_wbase (this warp's first index), the lane's inclusive fold in (smelt_lf,
 * smelt_lv), its item count in smelt_cnt, the warp totals in smelt_s_wv/wf and the number of
 * warps holding items in smelt_warps, after a barrier. Needs scan_warp_tile_arrays.kernel. */
const smelt_i64 smelt_wbase = smelt_tile + (smelt_i64)smelt_warp * SMELT_WARP_TILE;
#pragma unroll
for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
    const int smelt_j = smelt_k * 32 + smelt_lane;
    const smelt_i64 smelt_i = smelt_wbase + smelt_j;
    if (smelt_i < smelt_hi) {
        smelt_s_val[smelt_warp][smelt_j] = SMELT_INPUT(smelt_i);
#if SMELT_SEGMENTED
        smelt_s_flag[smelt_warp][smelt_j] = (unsigned char)(smelt_i == 0 || (SMELT_SEGMENT_START(smelt_i)));
#endif
    }
}
__syncwarp();
/* Valid items of this warp's part of the tile, and of this lane's SMELT_ITEMS. */
smelt_i64 smelt_wvalid = smelt_hi - smelt_wbase;
if (smelt_wvalid < 0) smelt_wvalid = 0;
if (smelt_wvalid > SMELT_WARP_TILE) smelt_wvalid = SMELT_WARP_TILE;
int smelt_cnt = (int)smelt_wvalid - smelt_lane * SMELT_ITEMS;
if (smelt_cnt < 0) smelt_cnt = 0;
if (smelt_cnt > SMELT_ITEMS) smelt_cnt = SMELT_ITEMS;
const int smelt_lanes = (int)((smelt_wvalid + SMELT_ITEMS - 1) / SMELT_ITEMS);
SMELT_T smelt_lv = smelt_neutral_acc();
int smelt_lf = 0;
#pragma unroll
for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
    if (smelt_k < smelt_cnt) {
        const SMELT_T smelt_x = smelt_s_val[smelt_warp][smelt_lane * SMELT_ITEMS + smelt_k];
        const int smelt_f = SMELT_TILE_FLAG(smelt_lane * SMELT_ITEMS + smelt_k);
        smelt_lv = (smelt_k == 0 || smelt_f) ? smelt_x : smelt_combine_acc(smelt_lv, smelt_x);
        smelt_lf |= smelt_f;
    }
}
/* Fragment of the CUDA scans: the ordered inclusive scan of each lane's (smelt_lf, smelt_lv)
 * across the warp by shuffles up, lower lanes on the left, in place. A lane holding a segment
 * start keeps its value and only gathers the flags. */
for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {
    const SMELT_T smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);
    const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);
    if (smelt_lane >= (int)smelt_d) {
        if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);
        smelt_lf |= smelt_of;
    }
}

if (smelt_lanes > 0) { /* warp-uniform */
    const SMELT_T smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);
    const int smelt_tf = __shfl_sync(0xffffffffu, smelt_lf, smelt_lanes - 1);
    if (smelt_lane == 0) {
        smelt_s_wv[smelt_warp] = smelt_tv;
        smelt_s_wf[smelt_warp] = (unsigned char)smelt_tf;
    }
}
SMELT_GROUP_BARRIER();
smelt_i64 smelt_tvalid = smelt_hi - smelt_tile;
const int smelt_warps = smelt_tvalid >= SMELT_TILE ? SMELT_WARPS : (int)((smelt_tvalid + SMELT_WARP_TILE - 1) / SMELT_WARP_TILE);

        /* The value before this warp's first item. */
        SMELT_T smelt_pv = smelt_cv;
        for (int smelt_w = 0; smelt_w < smelt_warp; ++smelt_w)
            smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
        /* The block's carry moves past this tile once every warp has read the warp totals. */
        for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w)
            smelt_cv = smelt_seg_fold(smelt_cv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
        SMELT_GROUP_BARRIER();
        /* Fragment of the CUDA scans: calls output for the tile scanned by scan_warp_tile.kernel, given
 * smelt_pv, the value before this warp's first item (any value before index 0: it starts a
 * segment). Each lane rescans its items from the value before its first one, writing the items
 * over the values in shared memory; output is then called warp-striped again (coalesced). */
/* Fragment of the CUDA scans: smelt_run, the value before this lane's first item, from smelt_pv
 * (the value before the warp's first item) and the inclusive (smelt_lf, smelt_lv) of the lane to
 * the left (after scan_warp_scan.kernel). */
const SMELT_T smelt_ev = smelt_shfl_up_acc(smelt_lv, 1);
const int smelt_ef = __shfl_up_sync(0xffffffffu, smelt_lf, 1);
SMELT_T smelt_run = smelt_lane == 0 ? smelt_pv : smelt_seg_fold(smelt_pv, smelt_ev, smelt_ef);

#pragma unroll
for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
    if (smelt_k < smelt_cnt) {
        const int smelt_j = smelt_lane * SMELT_ITEMS + smelt_k;
        smelt_run = smelt_seg_fold(smelt_run, smelt_s_val[smelt_warp][smelt_j], SMELT_TILE_FLAG(smelt_j));
        smelt_s_val[smelt_warp][smelt_j] = smelt_run;
    }
}
__syncwarp();
#pragma unroll
for (int smelt_k = 0; smelt_k < SMELT_ITEMS; ++smelt_k) {
    const int smelt_j = smelt_k * 32 + smelt_lane;
    const smelt_i64 smelt_i = smelt_wbase + smelt_j;
    if (smelt_i < smelt_hi) {
        const SMELT_T smelt_item = smelt_s_val[smelt_warp][smelt_j];
        const SMELT_T smelt_prev = SMELT_TILE_FLAG(smelt_j) ? smelt_neutral_acc() : (smelt_j ? smelt_s_val[smelt_warp][smelt_j - 1] : smelt_pv);
        (void)smelt_item;
        (void)smelt_prev;
        SMELT_OUTPUT;
    }
}
__syncwarp();

    }
}
