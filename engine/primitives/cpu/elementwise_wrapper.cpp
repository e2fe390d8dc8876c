// CPU entry of Elementwise: one OpenMP parallel loop with a static schedule.
#include "primitives/call_spelling.h"
#include "primitives/cpu/wrappers.h"

namespace smelt::primitives::cpu {

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    std::string out = "/* Elementwise: " + w.func.symbol + "(i, ...) for i in [0, n). */\n";
    out += entry_head(d, w.params, vars);
    // Small or one-thread launches skip the OpenMP runtime entirely (its fork costs more than
    // the whole call at n = 1).
    const std::string loop = "for (int64_t smelt_i = 0; smelt_i < smelt_n; ++smelt_i) {\n" +
                             std::string("            ") + spell_call(d, w.func, vars, w.params) +
                             ";\n        }\n";
    out += "    if (smelt_n > 1 && smelt_num_threads > 1) {\n";
    out += "#pragma omp parallel for schedule(static) num_threads(smelt_num_threads)\n";
    out += "        " + loop;
    out += "    } else {\n";
    out += "        " + loop;
    out += "    }\n";
    out += "    (void)smelt_num_threads;\n}\n";
    return out;
}

} // namespace smelt::primitives::cpu
