// OpenCL entries of Reduction in the GPU layout (gpu_wrappers.h), two stages:
//   smelt_reduce_groups   G work-groups; per tile of the group's run: coalesced load of the
//                         items, each work-item folds its K consecutive items, the ordered tree
//                         (local_tree) folds the W results, and work-item 0 appends the tile's
//                         result to the group's carry; the carry goes to smelt_gv/gf[group]
//   smelt_reduce_final    one work-group folds the G results in order (as the CPU layout's)
// Every item is evaluated once, and combined only with its index-order neighbours.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/opencl/gpu_wrappers.h"

namespace smelt::primitives::opencl {

std::string gpu_reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    const Type acc_type = Type::scalar(w.out);
    const std::string T = codegen::type_name(d, acc_type);
    const std::string combine = "(" + T + ")" + w.ops.combine;
    const std::string neutral = "(" + T + ")" + w.ops.neutral + "()";
    const size_t K = gpu_items(w.out);
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + " (GPU layout). */\n";
    out += join_helpers(T, combine);
    out += gpu_pad_function(w.out);
    out += gpu_kernel_head(d, kReduceGroupsEntry, w.params,
                           "long smelt_n, __global " + T + " *smelt_gv, __global uchar *smelt_gf",
                           vars);
    std::string item;
    if (w.map) {
        item = convert(d, spell_call(d, *w.map, vars, w.params), w.map->result, acc_type);
    } else {
        const Type &arr = w.params.at(w.array_param).type;
        item =
            convert(d, vars.params[w.array_param] + "[smelt_i]", Type::scalar(arr.elem), acc_type);
    }
    out += "    const " + T + " smelt_neutral = " + neutral + ";\n";
    out += gpu_tile_setup(T, K, false);
    out += gpu_group_total(T, K, combine, item, "", "");
    out += reduce_final_kernel(d, T, neutral);
    return out;
}

} // namespace smelt::primitives::opencl
