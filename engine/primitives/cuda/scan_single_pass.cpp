// CUDA kernel of Scan when output does not take last_item: a single pass with decoupled
// look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016), so the input is read once and the output written once, as in a copy.
//
//   smelt_scan_single(n, params..., counter, status)   one block per tile
//
// Each block takes the next tile from an atomic counter (launch order, not blockIdx: a block
// only ever waits on tiles taken before its own, whose blocks are running, so it cannot wait on
// one that is not scheduled), scans it (scan_tile.h) and publishes, for look-back by later
// tiles, its status: 1 = the tile's aggregate is published, 2 = its inclusive prefix is. A tile
// holding a segment start (tile 0 holds index 0) publishes its inclusive value at once: nothing
// before it matters. Otherwise warp 0 looks back over windows of 32 * kScanLookBack preceding
// tiles (a lane per tile, the words of 32 consecutive tiles in one coalesced load), waits until
// each has published something, folds them in index order down to the nearest inclusive prefix,
// then publishes its own inclusive prefix; the block then calls output for its items from that
// prefix. input(i) is evaluated only before output of the same tile, so output may overwrite
// the input's array.
//
// In a large grid the look-back pauses (__nanosleep) before its first poll and between polls,
// as CUB's does: hundreds of warps polling without pause flood the L2 slices holding the status
// words and delay the very stores they wait for. The tile size and pauses are tuned on an H100
// (wrappers.h).
//
// Status words are 8 bytes, written and read whole (single-copy atomic; volatile), so no fence
// is needed: value bits << 32 | status. A value of up to 4 bytes fills one word; an 8-byte value
// is split over two words (low half, high half; all low words first, then all high words) that
// each carry the status, and a reader takes the value only when both words show the same status.
// Each word goes 0 → 1 → 2 (or 0 → 2), the aggregate halves are written only with status 1 and the
// inclusive halves only with 2, so equal statuses mean both halves belong together.
//
// Which predecessors are folded from aggregates and which from an inclusive prefix depends on
// timing, so a floating-point sum may differ in its last bits between runs (as CUB's scan
// does); integer results, and any exact combine, are the same every run.
#include "primitives/cuda/scan_tile.h"

namespace smelt::primitives::cuda {

namespace {

const std::string TILE = std::to_string(kScanTile);

// smelt_publish(status, tiles, t, st, v), smelt_backoff(ns) and smelt_look_back(status, tiles,
// t, lane) for values of type T taking `words` status words each (word h of tile j at
// status[h * tiles + j], so a warp reads 32 consecutive words at once).
std::string status_helpers(const std::string &T, int words) {
    const std::string W = std::to_string(words), M = std::to_string(kScanLookBack);
    std::string out;
    out += "union smelt_bits_t { " + T + " v; unsigned int u[" + W + "]; };\n";
    out += "SMELT_INLINE void smelt_publish(volatile unsigned long long *smelt_status, int64_t "
           "smelt_tiles, int64_t smelt_t, unsigned long long smelt_st, " +
           T + " smelt_v) {\n";
    out += "    union smelt_bits_t c;\n";
    out += "    c.u[0] = 0u;\n";
    out += "    c.v = smelt_v;\n";
    for (int h = 0; h < words; ++h)
        out += "    smelt_status[" + std::to_string(h) +
               " * smelt_tiles + smelt_t] = ((unsigned long long)c.u[" + std::to_string(h) +
               "] << 32) | smelt_st;\n";
    out += "    (void)smelt_tiles;\n";
    out += "}\n";
    // Whether a tile's words show one valid status; its value.
    out += "SMELT_INLINE int smelt_ready(const unsigned long long *w) {\n";
    out += "    return (w[0] & 3ull) != 0ull";
    for (int h = 1; h < words; ++h)
        out += " && (w[" + std::to_string(h) + "] & 3ull) == (w[0] & 3ull)";
    out += ";\n}\n";
    out += "SMELT_INLINE " + T + " smelt_unpack(const unsigned long long *w) {\n";
    out += "    union smelt_bits_t c;\n";
    for (int h = 0; h < words; ++h)
        out += "    c.u[" + std::to_string(h) + "] = (unsigned int)(w[" + std::to_string(h) +
               "] >> 32);\n";
    out += "    return c.v;\n";
    out += "}\n";
    // Polling the status words of a large grid without pause floods the L2 slices that hold
    // them and slows the very stores being waited for (CUB pauses too; sm_70 and later).
    out += "SMELT_INLINE void smelt_backoff(unsigned smelt_ns) {\n";
    out += "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700\n";
    out +=
        "    if (gridDim.x >= " + std::to_string(kScanBackoffGrid) + "u) __nanosleep(smelt_ns);\n";
    out += "#endif\n";
    out += "    (void)smelt_ns;\n";
    out += "}\n";

    // Called by a whole warp for tile t > 0; returns the value of items [0, t * TILE) (the value
    // of the (flag, value) pair: the fold from the last segment start). A window is M groups of
    // 32 tiles, nearest first; lane l reads tile j0 - 32 q - l of group q. Tiles before tile 0
    // count as inclusive but are never folded in: tile 0 is inclusive and nearer.
    out += "SMELT_INLINE " + T +
           " smelt_look_back(volatile unsigned long long *smelt_status, int64_t smelt_tiles, "
           "int64_t smelt_t, int smelt_lane) {\n";
    out += "    " + T + " smelt_xv = smelt_neutral_acc();\n";
    out += "    int smelt_first = 1;\n";
    out += "    smelt_backoff(" + std::to_string(kScanFirstPollNs) + "u);\n";
    out += "    for (int64_t smelt_j0 = smelt_t - 1;; smelt_j0 -= 32 * " + M + ") {\n";
    out += "        unsigned long long smelt_w[" + M + "][" + W + "];\n";
    out += "        for (;;) {\n";
    out += "            int smelt_ok = 1;\n";
    out += "#pragma unroll\n";
    out += "            for (int smelt_q = 0; smelt_q < " + M + "; ++smelt_q) {\n";
    out += "                const int64_t smelt_j = smelt_j0 - 32 * smelt_q - smelt_lane;\n";
    out += "#pragma unroll\n";
    out += "                for (int smelt_h = 0; smelt_h < " + W + "; ++smelt_h)\n";
    out += "                    smelt_w[smelt_q][smelt_h] = smelt_j >= 0 ? smelt_status[smelt_h * "
           "smelt_tiles + smelt_j] : 2ull;\n";
    out += "            }\n";
    out += "#pragma unroll\n";
    out += "            for (int smelt_q = 0; smelt_q < " + M + "; ++smelt_q)\n";
    out += "                smelt_ok &= smelt_ready(smelt_w[smelt_q]);\n";
    out += "            if (__all_sync(0xffffffffu, smelt_ok)) break;\n";
    out += "            smelt_backoff(" + std::to_string(kScanPollNs) + "u);\n";
    out += "        }\n";
    out += "#pragma unroll\n";
    out += "        for (int smelt_q = 0; smelt_q < " + M + "; ++smelt_q) {\n";
    out += "            " + T + " smelt_v = smelt_unpack(smelt_w[smelt_q]);\n";
    out += "            int smelt_f = (smelt_w[smelt_q][0] & 3ull) == 2ull;\n";
    out += "            const unsigned smelt_tm = __ballot_sync(0xffffffffu, smelt_f);\n";
    out += "            const int smelt_last = smelt_tm ? __ffs(smelt_tm) - 1 : 31;\n";
    // Fold lanes [0, last] in index order (higher lanes are earlier tiles): lane l holds lanes
    // [l, l + d) and takes lanes [l + d, l + 2d) on its left while it holds no inclusive one.
    out += "            for (int smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {\n";
    out += "                const " + T + " smelt_ov = smelt_shfl_down_acc(smelt_v, smelt_d);\n";
    out +=
        "                const int smelt_of = __shfl_down_sync(0xffffffffu, smelt_f, smelt_d);\n";
    out += "                if (smelt_lane + smelt_d <= smelt_last && !smelt_f) {\n";
    out += "                    smelt_v = smelt_combine_acc(smelt_ov, smelt_v);\n";
    out += "                    smelt_f = smelt_of;\n";
    out += "                }\n";
    out += "            }\n";
    out += "            const " + T + " smelt_gv = smelt_shfl_idx_acc(smelt_v, 0);\n";
    out +=
        "            smelt_xv = smelt_first ? smelt_gv : smelt_combine_acc(smelt_gv, smelt_xv);\n";
    out += "            smelt_first = 0;\n";
    out += "            if (smelt_tm) return smelt_xv;\n";
    out += "        }\n";
    out += "    }\n";
    out += "}\n\n";
    return out;
}

} // namespace

std::string single_pass_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    const ScanText s = scan_text(d, w);
    const std::string &T = s.T;
    const int words = w.dtype != Scalar::Bool && scalar_bits(w.dtype) > 32 ? 2 : 1;

    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ": single pass, decoupled look-back. */\n";
    out += scan_helpers(d, w, T);
    out += status_helpers(T, words);

    out += d.entry_qualifier + " void " + kScanSinglePass + "(const int64_t smelt_n" + s.params +
           ", unsigned int *smelt_counter, volatile unsigned long long *smelt_status) {\n";
    out += tile_shared(s);
    out += "    __shared__ unsigned int smelt_s_t;\n";
    out += "    __shared__ " + T + " smelt_s_prefix;\n";
    // One tile needs no counter (the launch then skips clearing it).
    out += "    if (threadIdx.x == 0) smelt_s_t = smelt_n <= " + TILE +
           " ? 0u : atomicAdd(smelt_counter, 1u);\n";
    out += "    __syncthreads();\n";
    out += "    const int64_t smelt_t = (int64_t)smelt_s_t;\n";
    out += "    const int64_t smelt_tiles = (smelt_n + " + TILE + " - 1) / " + TILE + ";\n";
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
    out +=
        "                smelt_publish(smelt_status, smelt_tiles, smelt_t, smelt_af ? 2ull : 1ull, "
        "smelt_av);\n";
    out += "            if (smelt_t > 0) {\n";
    out += "                const " + T +
           " smelt_xv = smelt_look_back(smelt_status, smelt_tiles, smelt_t, smelt_lane);\n";
    out += "                if (smelt_lane == 0) {\n";
    out += "                    if (!smelt_af)\n";
    out += "                        smelt_publish(smelt_status, smelt_tiles, smelt_t, 2ull, "
           "smelt_combine_acc(smelt_xv, smelt_av));\n";
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
