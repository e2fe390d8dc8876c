// OpenCL entries of Reduction in the CPU layout (layout.h), two stages:
//   smelt_reduce_groups  primitives/algorithms/reduce_chunked_opencl.kernel (one contiguous
//                        chunk per work-item, then an in-order tree per group), after this
//                        per-call header
//   smelt_reduce_final(long smelt_n (the group count), __global T *smelt_gv,
//                      __global uchar *smelt_gf, __local T *smelt_lv, __local uchar *smelt_lf,
//                      __global T *smelt_out)
//       one work-group folds the group results the same way (contiguous runs per work-item,
//       then the tree) into smelt_out[0]; the neutral element when nothing holds a value.
//       Shared with the GPU layout (gpu_reduction_wrapper.cpp).
// Fixed NDRanges (opencl_target.cpp) make the result deterministic for a device.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/opencl/gpu_wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::opencl {

// The in-order tree over smelt_lv/lf; the result lands in element 0.
std::string local_tree(const std::string &indent) {
    const std::string &i = indent;
    std::string out;
    out += i + level_loop("smelt_s");
    out += i + "    if ((smelt_l & (2 * smelt_s - 1)) == 0 && smelt_l + smelt_s < "
               "get_local_size(0)) {\n";
    out += i + "        smelt_lv[smelt_l] = smelt_join(smelt_lv[smelt_l], smelt_lf[smelt_l], "
               "smelt_lv[smelt_l + smelt_s], smelt_lf[smelt_l + smelt_s]);\n";
    out += i + "        smelt_lf[smelt_l] = smelt_join_flags(smelt_lf[smelt_l], "
               "smelt_lf[smelt_l + smelt_s]);\n";
    out += i + "    }\n";
    out += i + "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += i + "}\n";
    return out;
}

std::string reduce_final_kernel(const codegen::Dialect &d, const std::string &T,
                                const std::string &neutral) {
    const std::string scratch = "__global " + T + " *smelt_gv, __global uchar *smelt_gf, __local " +
                                T + " *smelt_lv, __local uchar *smelt_lf";
    std::string out;
    out += d.entry_qualifier + " void " + kReduceFinalEntry + "(long smelt_n, " + scratch +
           ", __global " + T + " *smelt_out) {\n";
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += work_item_chunk("    ");
    // Group results without a value fold as values here; the flags keep them out.
    out += "    const uint smelt_l = (uint)get_local_id(0);\n";
    out += "    " + T + " smelt_acc = smelt_neutral;\n";
    out += "    uchar smelt_has = 0;\n";
    out += "    for (long smelt_i = smelt_lo; smelt_i < smelt_hi; ++smelt_i) {\n";
    out += "        smelt_acc = smelt_join(smelt_acc, smelt_has, smelt_gv[smelt_i], "
           "smelt_gf[smelt_i]);\n";
    out += "        smelt_has = smelt_join_flags(smelt_has, smelt_gf[smelt_i]);\n";
    out += "    }\n";
    out += "    smelt_lv[smelt_l] = smelt_acc;\n";
    out += "    smelt_lf[smelt_l] = smelt_has;\n";
    out += "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += local_tree("    ");
    out +=
        "    if (smelt_l == 0) smelt_out[0] = (smelt_lf[0] & 2) ? smelt_lv[0] : smelt_neutral;\n";
    out += "}\n";
    return out;
}

std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    const std::string T = codegen::type_name(d, Type::scalar(w.out));
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + ". */\n";
    out += join_helpers(T, "(" + T + ")" + w.ops.combine);
    out += user_param_macros(d, w.params, vars);
    out += reduce_macros(d, w, vars);
    out += define_macro("SMELT_GROUP_TREE()", local_tree("    "));
    out += portable_words(d);
    out += algorithm_source("chunk_split.kernel");
    out += algorithm_source("chunk_reduce.kernel");
    out += algorithm_source("reduce_chunked_opencl.kernel") + "\n";
    out += reduce_final_kernel(d, T, "(" + T + ")" + w.ops.neutral + "()");
    return out;
}

} // namespace smelt::primitives::opencl
