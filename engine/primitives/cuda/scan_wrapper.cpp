// CUDA kernels of Scan when output takes last_item: reduce-then-scan in three kernels, since
// last_item needs the total before any output is called. (Without last_item the single-pass
// scan of scan_single_pass.cpp runs instead; it reads the input once.)
//
//   upsweep    G blocks, block b owns a contiguous run of tiles (scan_tile.h) → block aggregate.
//   spine      one block scans the G aggregates (exclusive) → carry per block, and last_item.
//   downsweep  each block rescans its tiles from its carry and calls output(i, item, prev_item,
//              last_item).
//
// G and the tiles per block depend only on n and the device (geometry.h), so the combine order,
// hence every bit of the result, is the same on every run.
#include "primitives/cuda/scan_tile.h"

namespace smelt::primitives::cuda {

namespace {

const std::string TILE = std::to_string(kScanTile);

// Shared arrays and per-block bounds, the start of both tile kernels.
std::string tile_kernel_head(const ScanText &s) {
    std::string out = tile_shared(s);
    out += "    const int64_t smelt_lo = (int64_t)blockIdx.x * smelt_tiles_per_block * " + TILE +
           ";\n";
    out += "    int64_t smelt_hi = smelt_lo + smelt_tiles_per_block * " + TILE + ";\n";
    out += "    if (smelt_hi > smelt_n) smelt_hi = smelt_n;\n";
    return out;
}

} // namespace

std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    const ScanText s = scan_text(d, w);
    const std::string &T = s.T, &params = s.params;
    const std::string tile = tile_scan(s);

    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ": reduce-then-scan, three kernels. */\n";
    out += scan_helpers(d, w, T);

    // --- upsweep ---
    out += d.entry_qualifier + " void " + kScanUpsweep + "(const int64_t smelt_n" + params + ", " +
           T +
           " *smelt_agg_v, unsigned char *smelt_agg_f, const int64_t smelt_tiles_per_block) {\n";
    out += tile_kernel_head(s);
    out += "    " + T + " smelt_cv = smelt_neutral_acc();\n";
    out += "    int smelt_cf = 0, smelt_has = 0;\n";
    out += "    for (int64_t smelt_tile = smelt_lo; smelt_tile < smelt_hi; smelt_tile += " + TILE +
           ") {\n";
    out += tile;
    out += "        if (threadIdx.x == 0) {\n";
    out += "            for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w) {\n";
    out += "                smelt_cv = smelt_has ? smelt_seg_fold(smelt_cv, smelt_s_wv[smelt_w], "
           "smelt_s_wf[smelt_w]) : smelt_s_wv[smelt_w];\n";
    out += "                smelt_cf |= smelt_s_wf[smelt_w];\n";
    out += "                smelt_has = 1;\n";
    out += "            }\n";
    out += "        }\n";
    out += "        __syncthreads();\n";
    out += "    }\n";
    out += "    if (threadIdx.x == 0) {\n";
    out += "        smelt_agg_v[blockIdx.x] = smelt_cv;\n";
    out += "        smelt_agg_f[blockIdx.x] = (unsigned char)smelt_cf;\n";
    out += "    }\n";
    out += "}\n\n";

    // --- spine ---
    const std::string SW = std::to_string(kSpineBlock / 32);
    out += d.entry_qualifier + " void " + kScanSpine + "(const int64_t smelt_count, const " + T +
           " *smelt_agg_v, const unsigned char *smelt_agg_f, " + T + " *smelt_carry_v, " + T +
           " *smelt_last_out) {\n";
    out += "    __shared__ " + T + " smelt_s_wv[" + SW + "];\n";
    out += "    __shared__ unsigned char smelt_s_wf[" + SW + "];\n";
    out += "    const int smelt_lane = (int)(threadIdx.x & 31u), smelt_warp = (int)(threadIdx.x "
           ">> 5);\n";
    out += "    const int64_t smelt_per = (smelt_count + blockDim.x - 1) / blockDim.x;\n";
    out += "    const int64_t smelt_lo = (int64_t)threadIdx.x * smelt_per;\n";
    out += "    int64_t smelt_hi = smelt_lo + smelt_per;\n";
    out += "    if (smelt_hi > smelt_count) smelt_hi = smelt_count;\n";
    out += "    " + T + " smelt_lv = smelt_neutral_acc();\n";
    out += "    int smelt_lf = 0;\n";
    out += "    for (int64_t smelt_b = smelt_lo; smelt_b < smelt_hi; ++smelt_b) {\n";
    out += "        const int smelt_f = smelt_agg_f[smelt_b];\n";
    out += "        smelt_lv = (smelt_b == smelt_lo || smelt_f) ? smelt_agg_v[smelt_b] : "
           "smelt_combine_acc(smelt_lv, smelt_agg_v[smelt_b]);\n";
    out += "        smelt_lf |= smelt_f;\n";
    out += "    }\n";
    out += warp_inclusive_scan(T, "    ");
    out += "    const int64_t smelt_threads = (smelt_count + smelt_per - 1) / smelt_per;\n";
    out += "    int smelt_lanes = (int)(smelt_threads - (int64_t)smelt_warp * 32);\n";
    out += "    if (smelt_lanes > 32) smelt_lanes = 32;\n";
    out += "    if (smelt_lanes > 0) {\n";
    out += "        const " + T + " smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);\n";
    out += "        const int smelt_tf = __shfl_sync(0xffffffffu, smelt_lf, smelt_lanes - 1);\n";
    out += "        if (smelt_lane == 0) {\n";
    out += "            smelt_s_wv[smelt_warp] = smelt_tv;\n";
    out += "            smelt_s_wf[smelt_warp] = (unsigned char)smelt_tf;\n";
    out += "        }\n";
    out += "    }\n";
    out += "    __syncthreads();\n";
    out += "    const int smelt_warps = (int)((smelt_threads + 31) / 32);\n";
    out += "    " + T +
           " smelt_pv = smelt_neutral_acc(); /* never combined in: block 0 starts "
           "a segment */\n";
    out += "    for (int smelt_w = 0; smelt_w < smelt_warp && smelt_w < smelt_warps; ++smelt_w)\n";
    out += "        smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], "
           "smelt_s_wf[smelt_w]);\n";
    out += "    if (threadIdx.x == 0) {\n";
    out += "        " + T + " smelt_total = smelt_neutral_acc();\n";
    out += "        for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w)\n";
    out += "            smelt_total = smelt_seg_fold(smelt_total, smelt_s_wv[smelt_w], "
           "smelt_s_wf[smelt_w]);\n";
    out += "        *smelt_last_out = smelt_total;\n";
    out += "    }\n";
    out += lane_start_value(T, "    ");
    out += "    for (int64_t smelt_b = smelt_lo; smelt_b < smelt_hi; ++smelt_b) {\n";
    out += "        smelt_carry_v[smelt_b] = smelt_run;\n";
    out += "        smelt_run = smelt_seg_fold(smelt_run, smelt_agg_v[smelt_b], "
           "smelt_agg_f[smelt_b]);\n";
    out += "    }\n";
    out += "}\n\n";

    // --- downsweep ---
    out += d.entry_qualifier + " void " + kScanDownsweep + "(const int64_t smelt_n" + params +
           ", const " + T + " *smelt_carry_v, const " + T +
           " *smelt_last_p, const int64_t smelt_tiles_per_block) {\n";
    out += tile_kernel_head(s);
    out += "    const " + T + " smelt_last = *smelt_last_p;\n";
    out += "    (void)smelt_last;\n";
    out +=
        "    " + T + " smelt_cv = blockIdx.x ? smelt_carry_v[blockIdx.x] : smelt_neutral_acc();\n";
    out += "    for (int64_t smelt_tile = smelt_lo; smelt_tile < smelt_hi; smelt_tile += " + TILE +
           ") {\n";
    out += tile;
    // The block's carry moves past this tile once every warp has read the warp totals.
    out += tile_output(s, "        for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w)\n"
                          "            smelt_cv = smelt_seg_fold(smelt_cv, smelt_s_wv[smelt_w], "
                          "smelt_s_wf[smelt_w]);\n"
                          "        __syncthreads();\n");
    out += "    }\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::cuda
