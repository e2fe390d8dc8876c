// OpenCL entry of Elementwise: one work-item per index over a 1-D NDRange rounded up to the
// work-group size, so the kernel bound-checks its index.
//   smelt_elementwise(<user params>, long smelt_n)
#include "primitives/call_spelling.h"
#include "primitives/opencl/wrappers.h"

namespace smelt::primitives::opencl {

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    std::string out = "/* Elementwise: " + w.func.symbol + "(i, ...) for i in [0, n). */\n";
    out += kernel_head(d, kElementwiseEntry, w.params, "long smelt_n", vars);
    out += "    const long smelt_i = (long)get_global_id(0);\n";
    out += "    if (smelt_i >= smelt_n) return;\n";
    out += "    " + spell_call(d, w.func, vars, w.params) + ";\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::opencl
