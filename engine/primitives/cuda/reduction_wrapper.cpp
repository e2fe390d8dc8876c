// CUDA kernels of Reduction: deterministic two-stage reduction, written in
// primitives/algorithms/reduce_grid_stride.kernel (its top says how and in which order items are
// combined); this file writes its per-call header.
//
//   stage 1  smelt_reduce_blocks on a grid of G blocks of kReduceBlock threads, G fixed by n and
//            the device (cuda_target.cpp): grid-stride folds, then a fixed block tree (warp
//            shuffles, then shared memory) → one partial per block.
//   stage 2  smelt_reduce_final, one block, folds the G partials the same way into `out`.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/call_spelling.h"
#include "primitives/cuda/wrappers.h"

namespace smelt::primitives::cuda {

std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    const Type acc_type = Type::scalar(w.out);
    CallVars vars;
    vars.index = "smelt_i";
    const std::string params = kernel_params(d, w.params, vars);
    std::string item;
    if (w.map) {
        item = convert(d, spell_call(d, *w.map, vars, w.params), w.map->result, acc_type);
    } else {
        const Type &arr = w.params.at(w.array_param).type;
        item =
            convert(d, vars.params[w.array_param] + "[smelt_i]", Type::scalar(arr.elem), acc_type);
    }
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + ": deterministic two-stage tree. */\n";
    out += "/* ---- per-call header of reduce_grid_stride.kernel ---- */\n";
    out += device_helpers(d, w.out, w.ops);
    out += define_line("SMELT_USER_PARAMS", params);
    out += define_line("SMELT_ITEM(smelt_i)", item);
    out += portable_words(d);
    return out + algorithm_source("reduce_grid_stride.kernel");
}

} // namespace smelt::primitives::cuda
