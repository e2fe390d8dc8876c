// OpenCL entries of Scan: a three-kernel blocked scan over one contiguous chunk per work-item
// (the CPU's per-thread chunks, with work-items for threads). Pairs (value, flags) carry
// whether a run holds a value and contains a segment start (see smelt_join in common.cpp).
//   smelt_scan_up(<user params>, long smelt_n, __global T *smelt_pv, __global uchar *smelt_pf,
//                 __global T *smelt_gv, __global uchar *smelt_gf,
//                 __local T *smelt_lv, __local uchar *smelt_lf)
//       each work-item folds input over its chunk (restarting at segment starts); the group
//       scans the chunk totals in local memory and stores each work-item's exclusive prefix
//       within the group at smelt_pv/pf[global id] and the group total at smelt_gv/gf[group]
//   smelt_scan_groups(long smelt_n (the group count), __global T *smelt_gv,
//                     __global uchar *smelt_gf, __local T *smelt_lv, __local uchar *smelt_lf)
//       one work-group replaces the group totals by their exclusive scan (each group's carry)
//       and stores the total of everything (last_item) at smelt_gv/gf[group count]
//   smelt_scan_down(<user params>, long smelt_n, the four scratch buffers)
//       each work-item rescans its chunk from its carry, calling output(i, item, prev_item,
//       last_item) right after input(i), so output may overwrite input's array
// input is evaluated twice per index (up and down), never after output at that index.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/opencl/gpu_wrappers.h"

namespace smelt::primitives::opencl {

// One work-group replaces the group totals smelt_gv/gf[0, smelt_n) by their exclusive scan
// and stores the total of everything at smelt_gv/gf[smelt_n]. Shared by both layouts.
std::string scan_groups_kernel(const codegen::Dialect &d, const std::string &T,
                               const std::string &neutral) {
    const std::string local_scratch = "__local " + T + " *smelt_lv, __local uchar *smelt_lf";
    std::string out;
    out += d.entry_qualifier + " void " + kScanGroupsEntry + "(long smelt_n, __global " + T +
           " *smelt_gv, __global uchar *smelt_gf, " + local_scratch + ") {\n";
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += work_item_chunk("    ");
    out += "    const uint smelt_l = (uint)get_local_id(0);\n";
    out += "    " + T + " smelt_acc = smelt_neutral;\n";
    out += "    uchar smelt_flags = 0;\n";
    out += "    for (long smelt_g = smelt_lo; smelt_g < smelt_hi; ++smelt_g) {\n";
    out += "        smelt_acc = smelt_join(smelt_acc, smelt_flags, smelt_gv[smelt_g], "
           "smelt_gf[smelt_g]);\n";
    out += "        smelt_flags = smelt_join_flags(smelt_flags, smelt_gf[smelt_g]);\n";
    out += "    }\n";
    out += "    smelt_lv[smelt_l] = smelt_acc;\n";
    out += "    smelt_lf[smelt_l] = smelt_flags;\n";
    out += "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += local_inclusive_scan("    ", T);
    out += "    " + T + " smelt_run = smelt_l > 0 ? smelt_lv[smelt_l - 1] : smelt_neutral;\n";
    out += "    uchar smelt_run_flags = smelt_l > 0 ? smelt_lf[smelt_l - 1] : (uchar)0;\n";
    out += "    for (long smelt_g = smelt_lo; smelt_g < smelt_hi; ++smelt_g) {\n";
    out += "        const " + T + " smelt_v = smelt_gv[smelt_g];\n";
    out += "        const uchar smelt_f = smelt_gf[smelt_g];\n";
    out += "        smelt_gv[smelt_g] = smelt_run;\n";
    out += "        smelt_gf[smelt_g] = smelt_run_flags;\n";
    out += "        smelt_run = smelt_join(smelt_run, smelt_run_flags, smelt_v, smelt_f);\n";
    out += "        smelt_run_flags = smelt_join_flags(smelt_run_flags, smelt_f);\n";
    out += "    }\n";
    out += "    if (smelt_l == get_local_size(0) - 1) {\n";
    out += "        smelt_gv[smelt_n] = smelt_lv[smelt_l];\n";
    out += "        smelt_gf[smelt_n] = smelt_lf[smelt_l];\n";
    out += "    }\n";
    out += "}\n";
    return out;
}

std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    const Type acc_type = Type::scalar(w.dtype);
    const std::string T = codegen::type_name(d, acc_type);
    const std::string combine = "(" + T + ")" + w.ops.combine;
    const std::string neutral = "(" + T + ")" + w.ops.neutral + "()";
    const std::string global_scratch = "__global " + T +
                                       " *smelt_pv, __global uchar *smelt_pf, __global " + T +
                                       " *smelt_gv, __global uchar *smelt_gf";
    const std::string local_scratch = "__local " + T + " *smelt_lv, __local uchar *smelt_lf";

    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ". */\n";
    out += join_helpers(T, combine);

    // --- up: chunk totals, scanned within the group ---
    out += kernel_head(d, kScanUpEntry, w.params,
                       "long smelt_n, " + global_scratch + ", " + local_scratch, vars);
    const std::string input =
        convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc_type);
    const std::string output = spell_call(d, w.output, vars, w.params, w.dtype);
    const std::string segment =
        w.segment ? "(" + spell_call(d, *w.segment, vars, w.params, w.dtype) + ")" : "";
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += work_item_chunk("    ");
    out += "    const uint smelt_l = (uint)get_local_id(0);\n";
    out += "    " + T + " smelt_acc = smelt_neutral;\n";
    out += "    uchar smelt_flags = 0;\n";
    out += "    if (smelt_lo < smelt_hi) {\n";
    out += "        long smelt_i = smelt_lo;\n";
    out += "        smelt_acc = " + input + ";\n";
    out += "        uchar smelt_start = smelt_lo == 0" +
           (w.segment ? " || " + segment : std::string()) + ";\n";
    out += "        for (smelt_i = smelt_lo + 1; smelt_i < smelt_hi; ++smelt_i) {\n";
    out += "            const " + T + " smelt_x = " + input + ";\n";
    if (w.segment) {
        out += "            if " + segment + " {\n";
        out += "                smelt_acc = smelt_x;\n";
        out += "                smelt_start = 1;\n";
        out += "            } else {\n";
        out += "                smelt_acc = " + combine + "(smelt_acc, smelt_x);\n";
        out += "            }\n";
    } else {
        out += "            smelt_acc = " + combine + "(smelt_acc, smelt_x);\n";
    }
    out += "        }\n";
    out += "        smelt_flags = (uchar)(2 | (smelt_start ? 1 : 0));\n";
    out += "    }\n";
    out += "    smelt_lv[smelt_l] = smelt_acc;\n";
    out += "    smelt_lf[smelt_l] = smelt_flags;\n";
    out += "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += local_inclusive_scan("    ", T);
    out += "    smelt_pv[smelt_t] = smelt_l > 0 ? smelt_lv[smelt_l - 1] : smelt_neutral;\n";
    out += "    smelt_pf[smelt_t] = smelt_l > 0 ? smelt_lf[smelt_l - 1] : (uchar)0;\n";
    out += "    if (smelt_l == get_local_size(0) - 1) {\n";
    out += "        smelt_gv[get_group_id(0)] = smelt_lv[smelt_l];\n";
    out += "        smelt_gf[get_group_id(0)] = smelt_lf[smelt_l];\n";
    out += "    }\n";
    out += "}\n\n";

    out += scan_groups_kernel(d, T, neutral) + "\n";

    // --- down: rescan each chunk from its carry, calling output ---
    out += kernel_head(d, kScanDownEntry, w.params, "long smelt_n, " + global_scratch, vars);
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += work_item_chunk("    ");
    out += "    if (smelt_lo >= smelt_hi) return;\n";
    out += "    const size_t smelt_group = get_group_id(0);\n";
    out += "    const " + T +
           " smelt_carry = smelt_join(smelt_gv[smelt_group], smelt_gf[smelt_group], "
           "smelt_pv[smelt_t], smelt_pf[smelt_t]);\n";
    out += "    const " + T + " smelt_last = smelt_gv[get_num_groups(0)];\n";
    out += "    (void)smelt_last;\n";
    // As the CPU's pass 2: the first element of the whole range starts a segment whatever
    // segment() says.
    out += "    " + T + " smelt_acc = smelt_carry;\n";
    out += "    long smelt_i = smelt_lo;\n";
    out += "    if (smelt_lo == 0) {\n";
    out += "        const " + T + " smelt_item = " + input + ";\n";
    out += "        const " + T + " smelt_prev = smelt_neutral;\n";
    out += "        (void)smelt_prev;\n";
    out += "        smelt_acc = smelt_item;\n";
    out += "        " + output + ";\n";
    out += "        smelt_i = 1;\n";
    out += "    }\n";
    out += "    for (; smelt_i < smelt_hi; ++smelt_i) {\n";
    out += "        const " + T + " smelt_x = " + input + ";\n";
    out += "        " + T + " smelt_item, smelt_prev;\n";
    if (w.segment) {
        out += "        if " + segment + " {\n";
        out += "            smelt_prev = smelt_neutral;\n";
        out += "            smelt_item = smelt_x;\n";
        out += "        } else {\n";
        out += "            smelt_prev = smelt_acc;\n";
        out += "            smelt_item = " + combine + "(smelt_acc, smelt_x);\n";
        out += "        }\n";
    } else {
        out += "        smelt_prev = smelt_acc;\n";
        out += "        smelt_item = " + combine + "(smelt_acc, smelt_x);\n";
    }
    out += "        (void)smelt_prev;\n";
    out += "        smelt_acc = smelt_item;\n";
    out += "        " + output + ";\n";
    out += "    }\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::opencl
