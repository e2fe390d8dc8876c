// CUDA kernel of Elementwise: a 1-D grid, one thread per item, bound-checked. With one
// independent load per thread and a full SM of threads the memory system is kept busy; more
// items per thread would not add memory parallelism, since the compiler cannot move a load
// above the previous item's store when the arrays may alias.
#include "primitives/call_spelling.h"
#include "primitives/cuda/wrappers.h"

namespace smelt::primitives::cuda {

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    std::string out = "/* Elementwise: " + w.func.symbol + "(i, ...) for i in [0, n). */\n";
    out += d.entry_qualifier + " void " + kElementwiseEntry + "(const int64_t smelt_n" +
           kernel_params(d, w.params, vars) + ") {\n";
    out += "    const int64_t smelt_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;\n";
    out += "    if (smelt_i >= smelt_n) return;\n";
    out += "    " + spell_call(d, w.func, vars, w.params) + ";\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::cuda
