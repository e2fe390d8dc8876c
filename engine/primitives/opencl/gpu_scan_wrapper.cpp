// OpenCL entries of Scan in the GPU layout (gpu_wrappers.h): reduce-then-scan in three kernels.
// Pairs (value, flags) carry whether a run holds a value and contains a segment start
// (smelt_join, common.cpp); index 0 always starts a segment.
//   smelt_scan_up      G work-groups; per tile: coalesced load of input (and segment starts),
//                      each work-item folds its K consecutive items, the ordered tree folds
//                      the W results, work-item 0 appends the tile to the group's total →
//                      smelt_gv/gf[group]
//   smelt_scan_groups  one work-group: exclusive scan of the G totals (each group's carry) and
//                      the total of everything (last_item) at smelt_gv/gf[G] (shared with the
//                      CPU layout)
//   smelt_scan_down    per tile, from the group's carry: load and fold as in up, an inclusive
//                      scan of the W folds in local memory (local_inclusive_scan), each
//                      work-item rescans its K items from the pairs before it, writing the
//                      items back into the tile, then output(i, item, prev_item, last_item) is
//                      called for the tile with consecutive work-items on consecutive indices
// input is evaluated twice per index (up and down), one tile ahead of its use (gpu_tile_loop):
// a tile's inputs are evaluated before any of its outputs, so never after output at the same
// index.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/opencl/gpu_wrappers.h"

namespace smelt::primitives::opencl {

std::string gpu_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    const Type acc_type = Type::scalar(w.dtype);
    const std::string T = codegen::type_name(d, acc_type);
    const std::string combine = "(" + T + ")" + w.ops.combine;
    const std::string neutral = "(" + T + ")" + w.ops.neutral + "()";
    const size_t K = gpu_items(w.dtype);
    const std::string scratch =
        "long smelt_n, __global " + T + " *smelt_gv, __global uchar *smelt_gf";

    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + " (GPU layout). */\n";
    out += join_helpers(T, combine);
    out += gpu_pad_function(w.dtype);

    // Spelled once the parameters are named (by the first kernel head).
    std::string input, output, segment_load, start;
    auto spell = [&] {
        input =
            convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc_type);
        output = spell_call(d, w.output, vars, w.params, w.dtype);
        // Unsegmented scans keep no flags: only index 0 starts a segment.
        if (w.segment) {
            segment_load =
                "smelt_i == 0 || (" + spell_call(d, *w.segment, vars, w.params, w.dtype) + ")";
            start = "smelt_sf[smelt_j]";
        } else {
            start = "smelt_base + (long)smelt_j == 0";
        }
    };

    // --- up: group totals ---
    out += gpu_kernel_head(d, kScanUpEntry, w.params, scratch, vars);
    spell();
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += gpu_tile_setup(T, K, w.segment.has_value());
    out += gpu_group_total(T, K, combine, input, segment_load, start);

    out += scan_groups_kernel(d, T, neutral) + "\n";

    // --- down: rescan each tile from the carry, calling output ---
    const std::string Wm1 = std::to_string(kGpuGroupSize - 1);
    out += gpu_kernel_head(d, kScanDownEntry, w.params, scratch, vars);
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += gpu_tile_setup(T, K, w.segment.has_value());
    out += "    const " + T + " smelt_last = smelt_gv[smelt_groups];\n";
    out += "    (void)smelt_last;\n";
    // The pair of everything before the group's range (no value for group 0).
    out += "    " + T + " smelt_carry = smelt_gv[get_group_id(0)];\n";
    out += "    uchar smelt_cf = smelt_gf[get_group_id(0)];\n";
    out += gpu_tile_loop(T, K, input, segment_load);
    out += gpu_fold(T, K, combine, start);
    out += local_inclusive_scan("        ", T);
    // Everything before this work-item's first item: the carry, then the folds before it.
    out += "        " + T + " smelt_run = smelt_carry;\n";
    out += "        uchar smelt_rf = smelt_cf;\n";
    out += "        if (smelt_l > 0) {\n";
    out += "            smelt_run = smelt_join(smelt_run, smelt_rf, smelt_lv[smelt_l - 1], "
           "smelt_lf[smelt_l - 1]);\n";
    out += "            smelt_rf = smelt_join_flags(smelt_rf, smelt_lf[smelt_l - 1]);\n";
    out += "        }\n";
    out += "        const " + T + " smelt_tv = smelt_lv[" + Wm1 + "];\n";
    out += "        const uchar smelt_tf = smelt_lf[" + Wm1 + "];\n";
    // Rescan: the item at each index, written over the input value. A value is always before
    // an item that starts no segment (index 0 starts one).
    out += "#pragma unroll\n";
    out += "        for (uint smelt_k = 0; smelt_k < " + std::to_string(K) + "u; ++smelt_k) {\n";
    out += "            const uint smelt_j = smelt_l * " + std::to_string(K) + "u + smelt_k;\n";
    out += "            if (smelt_j < smelt_valid) {\n";
    out += "                const " + T + " smelt_x = smelt_tile[smelt_pad(smelt_j)];\n";
    out += "                smelt_run = (" + start + ") ? smelt_x : " + combine +
           "(smelt_run, smelt_x);\n";
    out += "                smelt_tile[smelt_pad(smelt_j)] = smelt_run;\n";
    out += "            }\n";
    out += "        }\n";
    out += "        barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += "#pragma unroll\n";
    out += "        for (uint smelt_k = 0; smelt_k < " + std::to_string(K) + "u; ++smelt_k) {\n";
    out += "            const uint smelt_j = smelt_k * " + std::to_string(kGpuGroupSize) +
           "u + smelt_l;\n";
    out += "            if (smelt_j < smelt_valid) {\n";
    out += "                const long smelt_i = smelt_base + smelt_j;\n";
    out += "                const " + T + " smelt_item = smelt_tile[smelt_pad(smelt_j)];\n";
    out += "                const " + T + " smelt_prev = (" + start +
           ") ? smelt_neutral : smelt_j > 0 ? smelt_tile[smelt_pad(smelt_j - 1)] : smelt_carry;\n";
    out += "                (void)smelt_item;\n";
    out += "                (void)smelt_prev;\n";
    out += "                " + output + ";\n";
    out += "            }\n";
    out += "        }\n";
    out += "        smelt_carry = smelt_join(smelt_carry, smelt_cf, smelt_tv, smelt_tf);\n";
    out += "        smelt_cf = smelt_join_flags(smelt_cf, smelt_tf);\n";
    out += "        barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += "    }\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::opencl
