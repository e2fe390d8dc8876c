// CPU entry of Elementwise: primitives/algorithms/elementwise_openmp.kernel (one OpenMP parallel
// loop with a static schedule) after this per-call header.
#include "primitives/algorithm_source.h"
#include "primitives/call_spelling.h"
#include "primitives/cpu/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::cpu {

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    std::string out = "/* Elementwise: " + w.func.symbol + "(i, ...) for i in [0, n). */\n";
    out += entry_header(d, w.params, vars);
    out += define_macro("SMELT_CALL(smelt_i)", spell_call(d, w.func, vars, w.params));
    out += portable_words(d);
    out += algorithm_source("elementwise_openmp.kernel");
    return out;
}

} // namespace smelt::primitives::cpu
