#line N "kernel.cu"

/* Scan: input ident, output store_item_prev, segments seg_start, with reduce_ab: single pass, decoupled look-back. */
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
#define SMELT_OUTPUT store_item_prev(smelt_i, smelt_item, smelt_prev, smelt_p1, smelt_p2)
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
#define SMELT_STATUS_WORDS 1
#define SMELT_LOOK_BACK_GROUPS 1
#define SMELT_FIRST_POLL_NS 1500u
#define SMELT_POLL_NS 700u
#define SMELT_BACKOFF_GRID 500u
/* The CUDA target's scan when output does not take last_item (primitives/cuda/scan_wrapper.cpp):
 * a single pass with decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan
 * with Decoupled Look-back", 2016), so the input is read once and the output written once, as in
 * a copy.
 *
 *   smelt_scan_single(n, params..., counter, status)   one block per tile
 *
 * Each block takes the next tile from an atomic counter (launch order, not blockIdx: a block only
 * ever waits on tiles taken before its own, whose blocks are running, so it cannot wait on one
 * that is not scheduled), scans it (scan_warp_tile.kernel) and publishes, for look-back by later
 * tiles, its status: 1 = the tile's aggregate is published, 2 = its inclusive prefix is. A tile
 * holding a segment start (tile 0 holds index 0) publishes its inclusive value at once: nothing
 * before it matters. Otherwise warp 0 looks back over windows of 32 * SMELT_LOOK_BACK_GROUPS
 * preceding tiles (a lane per tile, the words of 32 consecutive tiles in one coalesced load),
 * waits until each has published something, folds them in index order down to the nearest
 * inclusive prefix, then publishes its own inclusive prefix; the block then calls output for its
 * items from that prefix. input(i) is evaluated only before output of the same tile, so output
 * may overwrite the input's array.
 *
 * Status words are 8 bytes, written and read whole (single-copy atomic; volatile), so no fence is
 * needed: value bits << 32 | status. A value of up to 4 bytes fills one word; an 8-byte value is
 * split over two words (low half, high half; all low words first, then all high words) that each
 * carry the status, and a reader takes the value only when both words show the same status. Each
 * word goes 0 -> 1 -> 2 (or 0 -> 2), the aggregate halves are written only with status 1 and the
 * inclusive halves only with 2, so equal statuses mean both halves belong together.
 *
 * Which predecessors are folded from aggregates and which from an inclusive prefix depends on
 * timing, so a floating-point sum may differ in its last bits between runs (as CUB's scan does);
 * integer results, and any exact combine, are the same every run.
 *
 * Warp-synchronous (32-lane warps, shuffles, ballots): the CUDA target's only. From the per-call
 * header, besides those of scan_reduce_then_scan.kernel but SMELT_SPINE_WARPS:
 *   SMELT_STATUS_WORDS                  status words per tile: 1 (values of up to 4 bytes) or 2
 *   SMELT_LOOK_BACK_GROUPS              groups of 32 tiles read per look-back window
 *   SMELT_FIRST_POLL_NS, SMELT_POLL_NS  pauses before the first poll and between polls
 *   SMELT_BACKOFF_GRID                  the fewest blocks of a grid that pauses at all
 */

/* The look-back's pause: in a large grid, hundreds of warps polling without pause flood the L2
 * slices holding the status words and delay the very stores they wait for (CUB pauses too).
 * sm_70 and later have __nanosleep. */
SMELT_INLINE void smelt_backoff(unsigned smelt_ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    if (SMELT_NUM_GROUPS >= SMELT_BACKOFF_GRID) __nanosleep(smelt_ns);
#endif
    (void)smelt_ns;
}

union smelt_bits_t { SMELT_T v; unsigned int u[SMELT_STATUS_WORDS]; };
/* Word h of tile t is status[h * tiles + t], so a warp reads 32 consecutive words at once. */
SMELT_INLINE void smelt_publish(volatile unsigned long long *smelt_status, smelt_i64 smelt_tiles, smelt_i64 smelt_t, unsigned long long smelt_st, SMELT_T smelt_v) {
    union smelt_bits_t c;
    c.u[0] = 0u;
    c.v = smelt_v;
    smelt_status[0 * smelt_tiles + smelt_t] = ((unsigned long long)c.u[0] << 32) | smelt_st;
#if SMELT_STATUS_WORDS == 2
    smelt_status[1 * smelt_tiles + smelt_t] = ((unsigned long long)c.u[1] << 32) | smelt_st;
#endif
    (void)smelt_tiles;
}
/* Whether a tile's words show one valid status; its value. */
SMELT_INLINE int smelt_ready(const unsigned long long *w) {
#if SMELT_STATUS_WORDS == 2
    return (w[0] & 3ull) != 0ull && (w[1] & 3ull) == (w[0] & 3ull);
#else
    return (w[0] & 3ull) != 0ull;
#endif
}
SMELT_INLINE SMELT_T smelt_unpack(const unsigned long long *w) {
    union smelt_bits_t c;
    c.u[0] = (unsigned int)(w[0] >> 32);
#if SMELT_STATUS_WORDS == 2
    c.u[1] = (unsigned int)(w[1] >> 32);
#endif
    return c.v;
}

/* Called by a whole warp for tile t > 0; returns the value of items [0, t * SMELT_TILE) (the
 * value of the (flag, value) pair: the fold from the last segment start). A window is
 * SMELT_LOOK_BACK_GROUPS groups of 32 tiles, nearest first; lane l reads tile j0 - 32 q - l of
 * group q. Tiles before tile 0 count as inclusive but are never folded in: tile 0 is inclusive
 * and nearer. */
SMELT_INLINE SMELT_T smelt_look_back(volatile unsigned long long *smelt_status, smelt_i64 smelt_tiles, smelt_i64 smelt_t, int smelt_lane) {
    SMELT_T smelt_xv = smelt_neutral_acc();
    int smelt_first = 1;
    smelt_backoff(SMELT_FIRST_POLL_NS);
    for (smelt_i64 smelt_j0 = smelt_t - 1;; smelt_j0 -= 32 * SMELT_LOOK_BACK_GROUPS) {
        unsigned long long smelt_w[SMELT_LOOK_BACK_GROUPS][SMELT_STATUS_WORDS];
        for (;;) {
            int smelt_ok = 1;
#pragma unroll
            for (int smelt_q = 0; smelt_q < SMELT_LOOK_BACK_GROUPS; ++smelt_q) {
                const smelt_i64 smelt_j = smelt_j0 - 32 * smelt_q - smelt_lane;
#pragma unroll
                for (int smelt_h = 0; smelt_h < SMELT_STATUS_WORDS; ++smelt_h)
                    smelt_w[smelt_q][smelt_h] = smelt_j >= 0 ? smelt_status[smelt_h * smelt_tiles + smelt_j] : 2ull;
            }
#pragma unroll
            for (int smelt_q = 0; smelt_q < SMELT_LOOK_BACK_GROUPS; ++smelt_q)
                smelt_ok &= smelt_ready(smelt_w[smelt_q]);
            if (__all_sync(0xffffffffu, smelt_ok)) break;
            smelt_backoff(SMELT_POLL_NS);
        }
#pragma unroll
        for (int smelt_q = 0; smelt_q < SMELT_LOOK_BACK_GROUPS; ++smelt_q) {
            SMELT_T smelt_v = smelt_unpack(smelt_w[smelt_q]);
            int smelt_f = (smelt_w[smelt_q][0] & 3ull) == 2ull;
            const unsigned smelt_tm = __ballot_sync(0xffffffffu, smelt_f);
            const int smelt_last = smelt_tm ? __ffs(smelt_tm) - 1 : 31;
            /* Fold lanes [0, last] in index order (higher lanes are earlier tiles): lane l holds
             * lanes [l, l + d) and takes lanes [l + d, l + 2d) on its left while it holds no
             * inclusive one. */
            for (int smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {
                const SMELT_T smelt_ov = smelt_shfl_down_acc(smelt_v, smelt_d);
                const int smelt_of = __shfl_down_sync(0xffffffffu, smelt_f, smelt_d);
                if (smelt_lane + smelt_d <= smelt_last && !smelt_f) {
                    smelt_v = smelt_combine_acc(smelt_ov, smelt_v);
                    smelt_f = smelt_of;
                }
            }
            const SMELT_T smelt_gv = smelt_shfl_idx_acc(smelt_v, 0);
            smelt_xv = smelt_first ? smelt_gv : smelt_combine_acc(smelt_gv, smelt_xv);
            smelt_first = 0;
            if (smelt_tm) return smelt_xv;
        }
    }
}

SMELT_KERNEL void smelt_scan_single(const smelt_i64 smelt_n SMELT_USER_PARAMS, unsigned int *smelt_counter, volatile unsigned long long *smelt_status) {
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

    SMELT_LOCAL_ARRAY unsigned int smelt_s_t;
    SMELT_LOCAL_ARRAY SMELT_T smelt_s_prefix;
    /* One tile needs no counter (the launch then skips clearing it). */
    if (SMELT_LOCAL_ID == 0) smelt_s_t = smelt_n <= SMELT_TILE ? 0u : atomicAdd(smelt_counter, 1u);
    SMELT_GROUP_BARRIER();
    const smelt_i64 smelt_t = (smelt_i64)smelt_s_t;
    const smelt_i64 smelt_tiles = (smelt_n + SMELT_TILE - 1) / SMELT_TILE;
    const smelt_i64 smelt_tile = smelt_t * SMELT_TILE;
    smelt_i64 smelt_hi = smelt_tile + SMELT_TILE;
    if (smelt_hi > smelt_n) smelt_hi = smelt_n;
    {
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

        /* Warp 0 publishes the tile's aggregate (its inclusive value, holding a segment start),
         * looks back for the value before the tile and publishes the inclusive prefix. */
        if (smelt_warp == 0) {
            SMELT_T smelt_av = smelt_s_wv[0];
            int smelt_af = smelt_s_wf[0];
            for (int smelt_w = 1; smelt_w < smelt_warps; ++smelt_w) {
                smelt_av = smelt_seg_fold(smelt_av, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
                smelt_af |= smelt_s_wf[smelt_w];
            }
            if (smelt_lane == 0)
                smelt_publish(smelt_status, smelt_tiles, smelt_t, smelt_af ? 2ull : 1ull, smelt_av);
            if (smelt_t > 0) {
                const SMELT_T smelt_xv = smelt_look_back(smelt_status, smelt_tiles, smelt_t, smelt_lane);
                if (smelt_lane == 0) {
                    if (!smelt_af)
                        smelt_publish(smelt_status, smelt_tiles, smelt_t, 2ull, smelt_combine_acc(smelt_xv, smelt_av));
                    smelt_s_prefix = smelt_xv;
                }
            }
        }
        SMELT_GROUP_BARRIER();
        const SMELT_T smelt_cv = smelt_t > 0 ? smelt_s_prefix : smelt_neutral_acc();
        /* The value before this warp's first item. */
        SMELT_T smelt_pv = smelt_cv;
        for (int smelt_w = 0; smelt_w < smelt_warp; ++smelt_w)
            smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], smelt_s_wf[smelt_w]);
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
