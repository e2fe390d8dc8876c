// OpenCL entries of Reduction in the GPU layout (gpu_wrappers.h), two stages:
//   smelt_reduce_groups   G work-groups (tiled_reduce_scan.kernel's group totals); per tile of
//                         the group's run: coalesced load of the items, each work-item folds
//                         its K consecutive items, the ordered tree (group_tree.kernel) folds the W
//                         results, and work-item 0 appends the tile's result to the group's
//                         carry; the carry goes to smelt_gv/gf[group]
//   smelt_reduce_final    one work-group folds the G results in order (as the CPU layout's)
// Every item is evaluated once, and combined only with its index-order neighbours.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/call_spelling.h"
#include "primitives/opencl/gpu_wrappers.h"

namespace smelt::primitives::opencl {

std::string gpu_reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    const Type acc_type = Type::scalar(w.out);
    TiledCall c;
    c.T = codegen::type_name(d, acc_type);
    c.combine = "(" + c.T + ")" + w.ops.combine;
    c.neutral = "(" + c.T + ")" + w.ops.neutral + "()";
    c.dtype = w.out;
    c.params = user_params(d, w.params, vars);
    if (w.map) {
        c.value = convert(d, spell_call(d, *w.map, vars, w.params), w.map->result, acc_type);
    } else {
        const Type &arr = w.params.at(w.array_param).type;
        c.value =
            convert(d, vars.params[w.array_param] + "[smelt_i]", Type::scalar(arr.elem), acc_type);
    }
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + " (GPU layout). */\n";
    out += tiled_header(d, c);
    out += tiled_kernel(kReduceGroupsEntry, false);
    out += "\n" + algorithm_source("chunk_split.kernel");
    out += algorithm_source("reduce_final_opencl.kernel");
    return out;
}

} // namespace smelt::primitives::opencl
