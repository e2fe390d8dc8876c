// CUDA kernels of Scan: reduce-then-scan in three kernels (correctness first; one more read of
// the input than a single-pass decoupled look-back scan, so at best about 2/3 of copy speed).
//
//   upsweep    G blocks, block b owns a contiguous run of tiles; each tile is kScanTile items:
//              every warp loads 32 * kScanItems consecutive items warp-striped (coalesced) into
//              shared memory, each lane then folds its kScanItems consecutive items in order,
//              the lanes are combined by an ordered warp scan (shuffles up by 1, 2, 4, 8, 16;
//              lower lanes on the left), the warps in order by thread 0. → block aggregate.
//   spine      one block scans the G aggregates (exclusive) → carry per block, and last_item.
//   downsweep  each block rescans its tiles from its carry, writes item into shared memory,
//              and calls output(i, item, prev_item, last_item) warp-striped again.
//
// Segments are carried as (start flag, value) pairs combined by
//     (fa, a) ⊕ (fb, b) = (fa | fb, fb ? b : combine(a, b)),
// which is associative, so the combine only has to be associative (no commutativity: every
// fold keeps index order). Index 0 always starts a segment, so a block's incoming value is
// never combined where none exists, and `neutral` is only ever prev_item at a segment start.
// Items beyond n are never combined: the valid items of a tile are a prefix of it, and every
// combine takes its left operand from lower indices.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/cuda/wrappers.h"

namespace smelt::primitives::cuda {

namespace {

const std::string K = std::to_string(kScanItems);
const std::string WT = std::to_string(32 * kScanItems); // items per warp and tile
const std::string TILE = std::to_string(kScanTile);
const std::string WARPS = std::to_string(kScanBlock / 32);

// Shared arrays and per-block bounds, the start of both tile kernels.
std::string tile_kernel_head(const std::string &T) {
    std::string out;
    out += "    __shared__ " + T + " smelt_s_val[" + WARPS + "][" + WT + "];\n";
    out += "    __shared__ unsigned char smelt_s_flag[" + WARPS + "][" + WT + "];\n";
    out += "    __shared__ " + T + " smelt_s_wv[" + WARPS + "];\n";
    out += "    __shared__ unsigned char smelt_s_wf[" + WARPS + "];\n";
    out += "    const int smelt_lane = (int)(threadIdx.x & 31u), smelt_warp = (int)(threadIdx.x "
           ">> 5);\n";
    out += "    const int64_t smelt_lo = (int64_t)blockIdx.x * smelt_tiles_per_block * " + TILE +
           ";\n";
    out += "    int64_t smelt_hi = smelt_lo + smelt_tiles_per_block * " + TILE + ";\n";
    out += "    if (smelt_hi > smelt_n) smelt_hi = smelt_n;\n";
    return out;
}

// Per tile: warp-striped loads into shared memory, the lane's ordered fold (smelt_lf,
// smelt_lv), the warp's inclusive scan of those, and the warp totals in smelt_s_w* followed by
// __syncthreads. `input` and `start` are spelled with the index variable smelt_i.
std::string tile_scan(const std::string &input, const std::string &start) {
    std::string out;
    out += "        const int64_t smelt_wbase = smelt_tile + (int64_t)smelt_warp * " + WT + ";\n";
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            const int smelt_j = smelt_k * 32 + smelt_lane;\n";
    out += "            const int64_t smelt_i = smelt_wbase + smelt_j;\n";
    out += "            if (smelt_i < smelt_hi) {\n";
    out += "                smelt_s_val[smelt_warp][smelt_j] = " + input + ";\n";
    out += "                smelt_s_flag[smelt_warp][smelt_j] = (unsigned char)(" + start + ");\n";
    out += "            }\n";
    out += "        }\n";
    out += "        __syncwarp();\n";
    // Valid items of this warp's tile, and of this lane's kScanItems.
    out += "        int64_t smelt_wvalid = smelt_hi - smelt_wbase;\n";
    out += "        if (smelt_wvalid < 0) smelt_wvalid = 0;\n";
    out += "        if (smelt_wvalid > " + WT + ") smelt_wvalid = " + WT + ";\n";
    out += "        int smelt_cnt = (int)smelt_wvalid - smelt_lane * " + K + ";\n";
    out += "        if (smelt_cnt < 0) smelt_cnt = 0;\n";
    out += "        if (smelt_cnt > " + K + ") smelt_cnt = " + K + ";\n";
    out += "        const int smelt_lanes = (int)((smelt_wvalid + " + K + " - 1) / " + K + ");\n";
    out += "        " + std::string("T_ACC") + " smelt_lv = smelt_neutral_acc();\n";
    out += "        int smelt_lf = 0;\n";
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            if (smelt_k < smelt_cnt) {\n";
    out += "                const T_ACC smelt_x = smelt_s_val[smelt_warp][smelt_lane * " + K +
           " + smelt_k];\n";
    out += "                const int smelt_f = smelt_s_flag[smelt_warp][smelt_lane * " + K +
           " + smelt_k];\n";
    out += "                smelt_lv = (smelt_k == 0 || smelt_f) ? smelt_x : "
           "smelt_combine_acc(smelt_lv, smelt_x);\n";
    out += "                smelt_lf |= smelt_f;\n";
    out += "            }\n";
    out += "        }\n";
    out += "        for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {\n";
    out += "            const T_ACC smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);\n";
    out += "            const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);\n";
    out += "            if (smelt_lane >= (int)smelt_d) {\n";
    out += "                if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);\n";
    out += "                smelt_lf |= smelt_of;\n";
    out += "            }\n";
    out += "        }\n";
    out += "        if (smelt_lanes > 0) { /* warp-uniform */\n";
    out += "            const T_ACC smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);\n";
    out +=
        "            const int smelt_tf = __shfl_sync(0xffffffffu, smelt_lf, smelt_lanes - 1);\n";
    out += "            if (smelt_lane == 0) {\n";
    out += "                smelt_s_wv[smelt_warp] = smelt_tv;\n";
    out += "                smelt_s_wf[smelt_warp] = (unsigned char)smelt_tf;\n";
    out += "            }\n";
    out += "        }\n";
    out += "        __syncthreads();\n";
    out += "        int64_t smelt_tvalid = smelt_hi - smelt_tile;\n";
    out += "        const int smelt_warps = smelt_tvalid >= " + TILE + " ? " + WARPS +
           " : (int)((smelt_tvalid + " + WT + " - 1) / " + WT + ");\n";
    return out;
}

std::string replace_all(std::string s, const std::string &from, const std::string &to) {
    for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    return s;
}

} // namespace

std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    vars.n = "smelt_n";
    vars.item = "smelt_item";
    vars.prev_item = "smelt_prev";
    vars.last_item = "smelt_last";
    const Type acc_type = Type::scalar(w.dtype);
    const std::string T = codegen::type_name(d, acc_type);
    const std::string params = kernel_params(d, w.params, vars);
    const std::string input =
        convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc_type);
    const std::string output = spell_call(d, w.output, vars, w.params, w.dtype);
    const std::string start =
        "smelt_i == 0" + (w.segment
                              ? " || (" + spell_call(d, *w.segment, vars, w.params, w.dtype) + ")"
                              : std::string());
    const std::string tile = replace_all(tile_scan(input, start), "T_ACC", T);

    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ": reduce-then-scan, three kernels. */\n";
    out += device_helpers(d, w.dtype, w.ops);
    // (fa, a) ⊕ (fb, b) on the value only: the result's value depends on fb alone.
    out += "SMELT_INLINE " + T + " smelt_seg_fold(" + T + " a, " + T +
           " b, int fb) { return fb ? b : smelt_combine_acc(a, b); }\n\n";

    // --- upsweep ---
    out += d.entry_qualifier + " void " + kScanUpsweep + "(const int64_t smelt_n" + params + ", " +
           T +
           " *smelt_agg_v, unsigned char *smelt_agg_f, const int64_t smelt_tiles_per_block) {\n";
    out += tile_kernel_head(T);
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
    out += "    for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {\n";
    out += "        const " + T + " smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);\n";
    out += "        const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);\n";
    out += "        if (smelt_lane >= (int)smelt_d) {\n";
    out += "            if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);\n";
    out += "            smelt_lf |= smelt_of;\n";
    out += "        }\n";
    out += "    }\n";
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
    out += "    const " + T + " smelt_ev = smelt_shfl_up_acc(smelt_lv, 1);\n";
    out += "    const int smelt_ef = __shfl_up_sync(0xffffffffu, smelt_lf, 1);\n";
    out += "    " + T +
           " smelt_run = smelt_lane == 0 ? smelt_pv : smelt_seg_fold(smelt_pv, "
           "smelt_ev, smelt_ef);\n";
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
    out += tile_kernel_head(T);
    out += "    const " + T + " smelt_last = *smelt_last_p;\n";
    out += "    (void)smelt_last;\n";
    out +=
        "    " + T + " smelt_cv = blockIdx.x ? smelt_carry_v[blockIdx.x] : smelt_neutral_acc();\n";
    out += "    for (int64_t smelt_tile = smelt_lo; smelt_tile < smelt_hi; smelt_tile += " + TILE +
           ") {\n";
    out += tile;
    // The value before this warp's first item, and the block's carry past this tile.
    out += "        " + T + " smelt_pv = smelt_cv;\n";
    out += "        for (int smelt_w = 0; smelt_w < smelt_warp; ++smelt_w)\n";
    out += "            smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], "
           "smelt_s_wf[smelt_w]);\n";
    out += "        for (int smelt_w = 0; smelt_w < smelt_warps; ++smelt_w)\n";
    out += "            smelt_cv = smelt_seg_fold(smelt_cv, smelt_s_wv[smelt_w], "
           "smelt_s_wf[smelt_w]);\n";
    out += "        __syncthreads();\n";
    // The value before this lane's first item, then the lane's items in order.
    out += "        const " + T + " smelt_ev = smelt_shfl_up_acc(smelt_lv, 1);\n";
    out += "        const int smelt_ef = __shfl_up_sync(0xffffffffu, smelt_lf, 1);\n";
    out += "        " + T +
           " smelt_run = smelt_lane == 0 ? smelt_pv : smelt_seg_fold(smelt_pv, "
           "smelt_ev, smelt_ef);\n";
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            if (smelt_k < smelt_cnt) {\n";
    out += "                const int smelt_j = smelt_lane * " + K + " + smelt_k;\n";
    out +=
        "                smelt_run = smelt_seg_fold(smelt_run, smelt_s_val[smelt_warp][smelt_j], "
        "smelt_s_flag[smelt_warp][smelt_j]);\n";
    out += "                smelt_s_val[smelt_warp][smelt_j] = smelt_run;\n";
    out += "            }\n";
    out += "        }\n";
    out += "        __syncwarp();\n";
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            const int smelt_j = smelt_k * 32 + smelt_lane;\n";
    out += "            const int64_t smelt_i = smelt_wbase + smelt_j;\n";
    out += "            if (smelt_i < smelt_hi) {\n";
    out += "                const " + T + " smelt_item = smelt_s_val[smelt_warp][smelt_j];\n";
    out += "                const " + T +
           " smelt_prev = smelt_s_flag[smelt_warp][smelt_j] ? "
           "smelt_neutral_acc() : (smelt_j ? smelt_s_val[smelt_warp][smelt_j - 1] : smelt_pv);\n";
    out += "                (void)smelt_item;\n";
    out += "                (void)smelt_prev;\n";
    out += "                " + output + ";\n";
    out += "            }\n";
    out += "        }\n";
    out += "        __syncwarp();\n";
    out += "    }\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::cuda
