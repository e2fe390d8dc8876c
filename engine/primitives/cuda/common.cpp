// Pieces shared by the CUDA wrappers: kernel parameter lists and warp-shuffle helpers.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/cuda/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::cuda {

std::string kernel_params(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                          CallVars &vars, bool restrict_pointers) {
    std::string out;
    vars.params.clear();
    for (size_t k = 0; k < params.size(); ++k) {
        const std::string var = "smelt_p" + std::to_string(k);
        const std::string t = codegen::type_name(d, params[k].type);
        // Pointers are __restrict__ only when the caller knows the arrays are distinct: the
        // user's arrays may alias (output over input).
        if (params[k].type.is_buffer())
            out += ", " + t + (restrict_pointers ? "__restrict__ " : "") + var;
        else
            out += ", const " + t + " " + var;
        out += " /* " + params[k].name + " */";
        vars.params.push_back(var);
    }
    return out;
}

std::string device_helpers(const codegen::Dialect &d, Scalar acc, const CombineSymbols &ops) {
    // __shfl_*_sync has overloads for 32- and 64-bit integers and floats only.
    const bool narrow = acc == Scalar::Bool || scalar_bits(acc) < 32;
    return combine_macros(d, acc, ops) + define_line("SMELT_SHFL_T", narrow ? "int" : d.type(acc)) +
           algorithm_source("warp_value.kernel");
}

} // namespace smelt::primitives::cuda
