// CPU entry of Reduction: primitives/algorithms/reduce_openmp.kernel over chunk_split.kernel and
// chunk_reduce.kernel (one contiguous chunk per thread, folded in index order; the chunk
// results combined in thread order), after this per-call header.
#include "primitives/algorithm_source.h"
#include "primitives/cpu/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::cpu {

std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + ". */\n";
    out += entry_header(d, w.params, vars);
    out += reduce_macros(d, w, vars);
    out += define_macro("SMELT_OUT_ARG", std::to_string(w.params.size()));
    out += portable_words(d);
    out += algorithm_source("chunk_split.kernel");
    out += algorithm_source("chunk_reduce.kernel");
    out += algorithm_source("reduce_openmp.kernel");
    return out;
}

} // namespace smelt::primitives::cpu
