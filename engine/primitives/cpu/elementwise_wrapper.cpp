// CPU entry of Elementwise: one OpenMP parallel loop with a static schedule.
#include "primitives/call_spelling.h"
#include "primitives/cpu/wrappers.h"

namespace smelt::primitives::cpu {

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    std::string out = "/* Elementwise: " + w.func.symbol + "(i, ...) for i in [0, n). */\n";
    out += entry_head(d, w.params, vars);
    // One item per thread is not worth waking the team for.
    out += "#pragma omp parallel for schedule(static) num_threads(smelt_num_threads) "
           "if (smelt_n > 1 && smelt_num_threads > 1)\n";
    out += "    for (int64_t smelt_i = 0; smelt_i < smelt_n; ++smelt_i) {\n";
    out += "        " + spell_call(d, w.func, vars, w.params) + ";\n";
    out += "    }\n";
    out += "    (void)smelt_num_threads;\n}\n";
    return out;
}

} // namespace smelt::primitives::cpu
