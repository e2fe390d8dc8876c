// OpenCL entries of Reduction in the CPU layout (layout.h), two stages:
//   smelt_reduce_groups  primitives/algorithms/reduce_chunked_opencl.kernel (one contiguous
//                        chunk per work-item, then an in-order tree per group)
//   smelt_reduce_final   primitives/algorithms/reduce_final_opencl.kernel: one work-group folds
//                        the group results the same way into smelt_out[0]. Shared with the GPU
//                        layout (gpu_reduction_wrapper.cpp).
// after this per-call header. Fixed NDRanges (opencl_target.cpp) make the result deterministic
// for a device.
#include "primitives/algorithm_source.h"
#include "primitives/opencl/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::opencl {

std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + ". */\n";
    out += user_param_macros(d, w.params, vars);
    out += reduce_macros(d, w, vars);
    out += group_size_macro();
    out += portable_words(d);
    out += algorithm_source("pair_join.kernel");
    out += algorithm_source("chunk_split.kernel");
    out += algorithm_source("chunk_reduce.kernel");
    out += algorithm_source("reduce_chunked_opencl.kernel") + "\n";
    out += algorithm_source("reduce_final_opencl.kernel");
    return out;
}

} // namespace smelt::primitives::opencl
