// OpenCL entries of Scan in the CPU layout (layout.h): a three-kernel blocked scan over one
// contiguous chunk per work-item (the CPU's per-thread chunks, with work-items for threads).
//   smelt_scan_up, smelt_scan_down   primitives/algorithms/scan_chunked_opencl.kernel, after
//                                    this per-call header
//   smelt_scan_groups(long smelt_n (the group count), __global T *smelt_gv,
//                     __global uchar *smelt_gf, __local T *smelt_lv, __local uchar *smelt_lf)
//       one work-group replaces the group totals by their exclusive scan (each group's carry)
//       and stores the total of everything (last_item) at smelt_gv/gf[group count]. Shared with
//       the GPU layout (gpu_scan_wrapper.cpp).
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/opencl/gpu_wrappers.h"
#include "primitives/per_call_header.h"

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
    const std::string T = codegen::type_name(d, Type::scalar(w.dtype));
    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ". */\n";
    out += join_helpers(T, "(" + T + ")" + w.ops.combine);
    out += user_param_macros(d, w.params, vars);
    out += scan_macros(d, w, vars);
    out += define_macro("SMELT_GROUP_SCAN()", local_inclusive_scan("    ", T));
    out += portable_words(d);
    out += algorithm_source("chunk_split.kernel");
    out += algorithm_source("chunk_scan.kernel");
    out += algorithm_source("scan_chunked_opencl.kernel") + "\n";
    out += scan_groups_kernel(d, T, "(" + T + ")" + w.ops.neutral + "()");
    return out;
}

} // namespace smelt::primitives::opencl
