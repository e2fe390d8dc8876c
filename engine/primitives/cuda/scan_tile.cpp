// The tile of the CUDA scans (see scan_tile.h).
#include "primitives/cuda/scan_tile.h"

#include "codegen/c_like.h"
#include "primitives/call_spelling.h"

namespace smelt::primitives::cuda {

namespace {

const std::string K = std::to_string(kScanItems);
const std::string WT = std::to_string(32 * kScanItems); // items per warp and tile
const std::string TILE = std::to_string(kScanTile);
const std::string WARPS = std::to_string(kScanBlock / 32);

} // namespace

ScanText scan_text(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    const Type acc_type = Type::scalar(w.dtype);
    ScanText s;
    s.T = codegen::type_name(d, acc_type);
    s.params = kernel_params(d, w.params, vars);
    s.input = convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc_type);
    s.output = spell_call(d, w.output, vars, w.params, w.dtype);
    s.start = "smelt_i == 0" +
              (w.segment ? " || (" + spell_call(d, *w.segment, vars, w.params, w.dtype) + ")"
                         : std::string());
    s.segmented = w.segment.has_value();
    return s;
}

std::string warp_inclusive_scan(const std::string &T, const std::string &indent) {
    const std::string &i = indent;
    std::string out;
    out += i + "for (unsigned smelt_d = 1; smelt_d < 32; smelt_d <<= 1) {\n";
    out += i + "    const " + T + " smelt_ov = smelt_shfl_up_acc(smelt_lv, smelt_d);\n";
    out += i + "    const int smelt_of = __shfl_up_sync(0xffffffffu, smelt_lf, smelt_d);\n";
    out += i + "    if (smelt_lane >= (int)smelt_d) {\n";
    out += i + "        if (!smelt_lf) smelt_lv = smelt_combine_acc(smelt_ov, smelt_lv);\n";
    out += i + "        smelt_lf |= smelt_of;\n";
    out += i + "    }\n";
    out += i + "}\n";
    return out;
}

std::string lane_start_value(const std::string &T, const std::string &indent) {
    const std::string &i = indent;
    std::string out;
    out += i + "const " + T + " smelt_ev = smelt_shfl_up_acc(smelt_lv, 1);\n";
    out += i + "const int smelt_ef = __shfl_up_sync(0xffffffffu, smelt_lf, 1);\n";
    out += i + T +
           " smelt_run = smelt_lane == 0 ? smelt_pv : smelt_seg_fold(smelt_pv, smelt_ev, "
           "smelt_ef);\n";
    return out;
}

std::string tile_flag(const ScanText &s, const std::string &j) {
    if (s.segmented) return "smelt_s_flag[smelt_warp][" + j + "]";
    return "(smelt_wbase + " + j + " == 0)";
}

std::string scan_helpers(const codegen::Dialect &d, const ScanWrapper &w, const std::string &T) {
    std::string out = device_helpers(d, w.dtype, w.ops);
    // (fa, a) ⊕ (fb, b) on the value only: the result's value depends on fb alone.
    out += "SMELT_INLINE " + T + " smelt_seg_fold(" + T + " a, " + T +
           " b, int fb) { return fb ? b : smelt_combine_acc(a, b); }\n\n";
    return out;
}

std::string tile_shared(const ScanText &s) {
    const std::string &T = s.T;
    std::string out;
    out += "    __shared__ " + T + " smelt_s_val[" + WARPS + "][" + WT + "];\n";
    if (s.segmented)
        out += "    __shared__ unsigned char smelt_s_flag[" + WARPS + "][" + WT + "];\n";
    out += "    __shared__ " + T + " smelt_s_wv[" + WARPS + "];\n";
    out += "    __shared__ unsigned char smelt_s_wf[" + WARPS + "];\n";
    out += "    const int smelt_lane = (int)(threadIdx.x & 31u), smelt_warp = (int)(threadIdx.x "
           ">> 5);\n";
    return out;
}

std::string tile_scan(const ScanText &s) {
    const std::string &T = s.T;
    std::string out;
    out += "        const int64_t smelt_wbase = smelt_tile + (int64_t)smelt_warp * " + WT + ";\n";
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            const int smelt_j = smelt_k * 32 + smelt_lane;\n";
    out += "            const int64_t smelt_i = smelt_wbase + smelt_j;\n";
    out += "            if (smelt_i < smelt_hi) {\n";
    out += "                smelt_s_val[smelt_warp][smelt_j] = " + s.input + ";\n";
    if (s.segmented)
        out += "                smelt_s_flag[smelt_warp][smelt_j] = (unsigned char)(" + s.start +
               ");\n";
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
    out += "        " + T + " smelt_lv = smelt_neutral_acc();\n";
    out += "        int smelt_lf = 0;\n";
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            if (smelt_k < smelt_cnt) {\n";
    out += "                const " + T + " smelt_x = smelt_s_val[smelt_warp][smelt_lane * " + K +
           " + smelt_k];\n";
    out +=
        "                const int smelt_f = " + tile_flag(s, "smelt_lane * " + K + " + smelt_k") +
        ";\n";
    out += "                smelt_lv = (smelt_k == 0 || smelt_f) ? smelt_x : "
           "smelt_combine_acc(smelt_lv, smelt_x);\n";
    out += "                smelt_lf |= smelt_f;\n";
    out += "            }\n";
    out += "        }\n";
    out += warp_inclusive_scan(T, "        ");
    out += "        if (smelt_lanes > 0) { /* warp-uniform */\n";
    out +=
        "            const " + T + " smelt_tv = smelt_shfl_idx_acc(smelt_lv, smelt_lanes - 1);\n";
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

std::string tile_output(const ScanText &s, const std::string &after_prefix) {
    const std::string &T = s.T;
    std::string out;
    // The value before this warp's first item.
    out += "        " + T + " smelt_pv = smelt_cv;\n";
    out += "        for (int smelt_w = 0; smelt_w < smelt_warp; ++smelt_w)\n";
    out += "            smelt_pv = smelt_seg_fold(smelt_pv, smelt_s_wv[smelt_w], "
           "smelt_s_wf[smelt_w]);\n";
    out += after_prefix;
    // The value before this lane's first item, then the lane's items in order.
    out += lane_start_value(T, "        ");
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            if (smelt_k < smelt_cnt) {\n";
    out += "                const int smelt_j = smelt_lane * " + K + " + smelt_k;\n";
    out +=
        "                smelt_run = smelt_seg_fold(smelt_run, smelt_s_val[smelt_warp][smelt_j], " +
        tile_flag(s, "smelt_j") + ");\n";
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
    out += "                const " + T + " smelt_prev = " + tile_flag(s, "smelt_j") +
           " ? smelt_neutral_acc() : (smelt_j ? smelt_s_val[smelt_warp][smelt_j - 1] : "
           "smelt_pv);\n";
    out += "                (void)smelt_item;\n";
    out += "                (void)smelt_prev;\n";
    out += "                " + s.output + ";\n";
    out += "            }\n";
    out += "        }\n";
    out += "        __syncwarp();\n";
    return out;
}

} // namespace smelt::primitives::cuda
