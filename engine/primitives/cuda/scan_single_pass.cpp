// CUDA kernel of Scan when output does not take last_item: a single pass with decoupled
// look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016), so the input is read once and the output written once, as in a copy.
//
//   smelt_scan_single(n, params..., counter, status, agg, inc)   one block per tile
//
// Each block takes the next tile from an atomic counter (launch order, not blockIdx: a block
// only ever waits on tiles taken before its own, whose blocks are running, so it cannot wait on
// one that is not scheduled), scans it (scan_tile.h) and publishes, for look-back by later
// tiles, its status word: 1 = the tile's aggregate is published, 2 = its inclusive prefix is.
// A tile holding a segment start (tile 0 holds index 0) publishes its inclusive value at once:
// nothing before it matters. Otherwise warp 0 looks back over the 32 preceding tiles at a
// time, waits until each has published something, folds them in index order down to the
// nearest inclusive prefix, then publishes its own inclusive prefix; the block then calls
// output for its items from that prefix. input(i) is evaluated only before output of the same
// tile, so output may overwrite the input's array.
//
// Values of up to 4 bytes travel in the status word itself (value << 32 | status: one 8-byte
// store, read with one 8-byte load). Wider values have their own slots (aggregate and inclusive
// separately, so a slot never changes once its status says it is there), written before a
// __threadfence and the status store; readers fence between reading the status and the value.
//
// Which predecessors are folded from aggregates and which from an inclusive prefix depends on
// timing, so a floating-point sum may differ in its last bits between runs (as CUB's scan
// does); integer results, and any exact combine, are the same every run.
#include "primitives/cuda/scan_tile.h"

namespace smelt::primitives::cuda {

namespace {

const std::string TILE = std::to_string(kScanTile);

// smelt_publish(status, agg, inc, t, st, v) and smelt_look_back(...) for values of type T.
std::string status_helpers(const std::string &T, bool packed) {
    const std::string slots = ", " + T + " *smelt_agg, " + T + " *smelt_inc";
    std::string out;
    if (packed) {
        out += "SMELT_INLINE unsigned long long smelt_pack(" + T + " v, unsigned long long st) {\n";
        out += "    union { " + T + " v; unsigned int u; } c;\n";
        out += "    c.u = 0u;\n";
        out += "    c.v = v;\n";
        out += "    return ((unsigned long long)c.u << 32) | st;\n";
        out += "}\n";
        out += "SMELT_INLINE " + T + " smelt_unpack(unsigned long long w) {\n";
        out += "    union { " + T + " v; unsigned int u; } c;\n";
        out += "    c.u = (unsigned int)(w >> 32);\n";
        out += "    return c.v;\n";
        out += "}\n";
    }
    out += "SMELT_INLINE void smelt_publish(volatile unsigned long long *smelt_status" + slots +
           ", int64_t smelt_t, unsigned long long smelt_st, " + T + " smelt_v) {\n";
    if (packed) {
        out += "    (void)smelt_agg;\n";
        out += "    (void)smelt_inc;\n";
        out += "    smelt_status[smelt_t] = smelt_pack(smelt_v, smelt_st);\n";
    } else {
        out += "    volatile " + T + " *smelt_slot = smelt_st == 2ull ? smelt_inc : smelt_agg;\n";
        out += "    smelt_slot[smelt_t] = smelt_v;\n";
        out += "    __threadfence();\n";
        out += "    smelt_status[smelt_t] = smelt_st;\n";
    }
    out += "}\n";

    // Called by a whole warp for tile t > 0; returns the value of items [0, t * TILE) (as the
    // value of the (flag, value) pair: the fold from the last segment start).
    out += "SMELT_INLINE " + T + " smelt_look_back(volatile unsigned long long *smelt_status" +
           slots + ", int64_t smelt_t, int smelt_lane) {\n";
    out += "    " + T + " smelt_xv = smelt_neutral_acc();\n";
    out += "    for (int64_t smelt_j0 = smelt_t - 1;; smelt_j0 -= 32) {\n";
    // Lane l reads tile j0 - l; lanes before tile 0 count as inclusive but are never folded in:
    // tile 0 is inclusive and nearer.
    out += "        const int64_t smelt_j = smelt_j0 - smelt_lane;\n";
    out += "        unsigned long long smelt_w = 2ull;\n";
    out += "        if (smelt_j >= 0) {\n";
    out += "            do {\n";
    out += "                smelt_w = smelt_status[smelt_j];\n";
    out += "            } while ((smelt_w & 3ull) == 0ull);\n";
    out += "        }\n";
    out += "        int smelt_f = (smelt_w & 3ull) == 2ull;\n";
    out += "        const unsigned smelt_tm = __ballot_sync(0xffffffffu, smelt_f);\n";
    out += "        const int smelt_last = smelt_tm ? __ffs(smelt_tm) - 1 : 31;\n";
    out += "        " + T + " smelt_v = smelt_neutral_acc();\n";
    if (packed) {
        out += "        if (smelt_lane <= smelt_last) smelt_v = smelt_unpack(smelt_w);\n";
    } else {
        out += "        __threadfence();\n";
        out += "        if (smelt_lane <= smelt_last)\n";
        out += "            smelt_v = smelt_f ? ((volatile " + T +
               " *)smelt_inc)[smelt_j] : ((volatile " + T + " *)smelt_agg)[smelt_j];\n";
    }
    // Fold lanes [0, last] in index order (higher lanes are earlier tiles): lane l holds lanes
    // [l, l + d) and takes lanes [l + d, l + 2d) on its left while it holds no inclusive one.
    out += "        for (int smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {\n";
    out += "            const " + T + " smelt_ov = smelt_shfl_down_acc(smelt_v, smelt_d);\n";
    out += "            const int smelt_of = __shfl_down_sync(0xffffffffu, smelt_f, smelt_d);\n";
    out += "            if (smelt_lane + smelt_d <= smelt_last && !smelt_f) {\n";
    out += "                smelt_v = smelt_combine_acc(smelt_ov, smelt_v);\n";
    out += "                smelt_f = smelt_of;\n";
    out += "            }\n";
    out += "        }\n";
    out += "        const " + T + " smelt_wv = smelt_shfl_idx_acc(smelt_v, 0);\n";
    out += "        smelt_xv = smelt_j0 == smelt_t - 1 ? smelt_wv : smelt_combine_acc(smelt_wv, "
           "smelt_xv);\n";
    out += "        if (smelt_tm) return smelt_xv;\n";
    out += "    }\n";
    out += "}\n\n";
    return out;
}

} // namespace

std::string single_pass_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    const ScanText s = scan_text(d, w);
    const std::string &T = s.T;
    const bool packed = w.dtype == Scalar::Bool || scalar_bits(w.dtype) <= 32;

    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ": single pass, decoupled look-back. */\n";
    out += scan_helpers(d, w, T);
    out += status_helpers(T, packed);

    out += d.entry_qualifier + " void " + kScanSinglePass + "(const int64_t smelt_n" + s.params +
           ", unsigned int *smelt_counter, volatile unsigned long long *smelt_status, " + T +
           " *smelt_agg, " + T + " *smelt_inc) {\n";
    out += tile_shared(T);
    out += "    __shared__ unsigned int smelt_s_t;\n";
    out += "    __shared__ " + T + " smelt_s_prefix;\n";
    // One tile needs no counter (the launch then skips clearing it).
    out += "    if (threadIdx.x == 0) smelt_s_t = smelt_n <= " + TILE +
           " ? 0u : atomicAdd(smelt_counter, 1u);\n";
    out += "    __syncthreads();\n";
    out += "    const int64_t smelt_t = (int64_t)smelt_s_t;\n";
    out += "    const int64_t smelt_tile = smelt_t * " + TILE + ";\n";
    out += "    int64_t smelt_hi = smelt_tile + " + TILE + ";\n";
    out += "    if (smelt_hi > smelt_n) smelt_hi = smelt_n;\n";
    out += "    {\n";
    out += tile_scan(s);
    out += "        if (smelt_warp == 0) {\n";
    out += "            " + T + " smelt_av = smelt_s_wv[0];\n";
    out += "            int smelt_af = smelt_s_wf[0];\n";
    out += "            for (int smelt_w = 1; smelt_w < smelt_warps; ++smelt_w) {\n";
    out += "                smelt_av = smelt_seg_fold(smelt_av, smelt_s_wv[smelt_w], "
           "smelt_s_wf[smelt_w]);\n";
    out += "                smelt_af |= smelt_s_wf[smelt_w];\n";
    out += "            }\n";
    out += "            if (smelt_lane == 0)\n";
    out += "                smelt_publish(smelt_status, smelt_agg, smelt_inc, smelt_t, smelt_af ? "
           "2ull : 1ull, smelt_av);\n";
    out += "            if (smelt_t > 0) {\n";
    out += "                const " + T +
           " smelt_xv = smelt_look_back(smelt_status, smelt_agg, smelt_inc, smelt_t, "
           "smelt_lane);\n";
    out += "                if (smelt_lane == 0) {\n";
    out += "                    if (!smelt_af)\n";
    out += "                        smelt_publish(smelt_status, smelt_agg, smelt_inc, smelt_t, "
           "2ull, smelt_combine_acc(smelt_xv, smelt_av));\n";
    out += "                    smelt_s_prefix = smelt_xv;\n";
    out += "                }\n";
    out += "            }\n";
    out += "        }\n";
    out += "        __syncthreads();\n";
    out +=
        "        const " + T + " smelt_cv = smelt_t > 0 ? smelt_s_prefix : smelt_neutral_acc();\n";
    out += tile_output(s, "");
    out += "    }\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::cuda
