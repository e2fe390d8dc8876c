// OpenCL entries of Reduction, two stages:
//   smelt_reduce_groups(<user params>, long smelt_n, __global T *smelt_gv, __global uchar
//   *smelt_gf,
//                       __local T *smelt_lv, __local uchar *smelt_lf)
//       each work-item folds its contiguous chunk in index order from its first element; the
//       group's chunk results are combined in order by a tree in local memory (pairs (l, l + s)
//       with l a multiple of 2s, barrier() at every level); work-item 0 stores the group's
//       result (and whether it holds a value) at smelt_gv/gf[group]
//   smelt_reduce_final(long smelt_n (the group count), __global T *smelt_gv,
//                      __global uchar *smelt_gf, __local T *smelt_lv, __local uchar *smelt_lf,
//                      __global T *smelt_out)
//       one work-group folds the group results the same way (contiguous runs per work-item,
//       then the tree) into smelt_out[0]; the neutral element when nothing holds a value
// Fixed NDRanges (opencl_target.cpp) make the result deterministic for a device.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/opencl/gpu_wrappers.h"

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

namespace {

// Folds [smelt_lo, smelt_hi) of ITEM into smelt_acc/smelt_has, then the tree.
std::string fold_chunk(const std::string &T, const std::string &item, const std::string &combine) {
    std::string out;
    out += "    const uint smelt_l = (uint)get_local_id(0);\n";
    out += "    " + T + " smelt_acc = smelt_neutral;\n";
    out += "    uchar smelt_has = 0;\n";
    out += "    if (smelt_lo < smelt_hi) {\n";
    out += "        long smelt_i = smelt_lo;\n";
    out += "        smelt_acc = " + item + ";\n";
    out += "        smelt_has = 2;\n";
    out += "        for (smelt_i = smelt_lo + 1; smelt_i < smelt_hi; ++smelt_i)\n";
    out += "            smelt_acc = " + combine + "(smelt_acc, " + item + ");\n";
    out += "    }\n";
    out += "    smelt_lv[smelt_l] = smelt_acc;\n";
    out += "    smelt_lf[smelt_l] = smelt_has;\n";
    out += "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += local_tree("    ");
    return out;
}

} // namespace

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
    const Type acc_type = Type::scalar(w.out);
    const std::string T = codegen::type_name(d, acc_type);
    std::string item; // the value at smelt_i as T, spelled once the parameters are named
    const std::string combine = "(" + T + ")" + w.ops.combine;
    const std::string neutral = "(" + T + ")" + w.ops.neutral + "()";
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + ". */\n";
    out += join_helpers(T, combine);
    const std::string scratch = "__global " + T + " *smelt_gv, __global uchar *smelt_gf, __local " +
                                T + " *smelt_lv, __local uchar *smelt_lf";
    out += kernel_head(d, kReduceGroupsEntry, w.params, "long smelt_n, " + scratch, vars);
    if (w.map) {
        item = convert(d, spell_call(d, *w.map, vars, w.params), w.map->result, acc_type);
    } else {
        const Type &arr = w.params.at(w.array_param).type;
        item =
            convert(d, vars.params[w.array_param] + "[smelt_i]", Type::scalar(arr.elem), acc_type);
    }
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += work_item_chunk("    ");
    out += fold_chunk(T, item, combine);
    out += "    if (smelt_l == 0) {\n";
    out += "        smelt_gv[get_group_id(0)] = smelt_lv[0];\n";
    out += "        smelt_gf[get_group_id(0)] = smelt_lf[0];\n";
    out += "    }\n";
    out += "}\n\n";

    out += reduce_final_kernel(d, T, neutral);
    return out;
}

} // namespace smelt::primitives::opencl
