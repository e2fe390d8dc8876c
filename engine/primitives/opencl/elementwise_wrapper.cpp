// OpenCL entries of Elementwise: primitives/algorithms/elementwise_tiled.kernel
// and elementwise_each.kernel (as the CUDA ones: cuda/elementwise_wrapper.cpp), after this
// per-call header. Parameters:
//   (<user params>, long smelt_n)
//
// Arrays that may alias: one work-item per index (kElementwiseEntry) over a 1-D NDRange
// rounded up to the work-group size, so the kernel bound-checks its index.
//
// Distinct arrays (ElementwiseWrapper::distinct_arrays): the pointers are `restrict`, and the
// unit holds the tiled form (kElementwiseEntry, kElementwiseItems items per work-item) and the
// one-item form (kElementwiseEachEntry), which OpenCLTarget::run_elementwise launches on GPUs
// when the tiled grid is too small to fill the device. The tiled form's loads ahead are
// prefetch() calls (OpenCL C's). A function with a loop (ElementwiseWrapper::loops) gets only
// the one-item form, as its one entry.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/opencl/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::opencl {

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    const bool tiled = w.distinct_arrays && !w.loops;
    std::string out = "/* Elementwise: " + w.func.symbol + "(i, ...) for i in [0, n)" +
                      (tiled ? "; distinct arrays: restrict, " + std::to_string(kElementwiseItems) +
                                   " items per work-item"
                       : w.distinct_arrays ? "; distinct arrays: restrict; loops: one item per "
                                             "work-item"
                                           : std::string()) +
                      ". */\n";
    std::string params;
    vars.params.clear();
    for (size_t k = 0; k < w.params.size(); ++k) {
        const std::string var = "smelt_p" + std::to_string(k);
        const Type &t = w.params[k].type;
        params += (w.distinct_arrays && t.is_buffer() ? codegen::type_name(d, t) + "restrict " + var
                                                      : codegen::declaration(d, t, var)) +
                  " /* " + w.params[k].name + " */, ";
        vars.params.push_back(var);
    }
    out += define_macro("SMELT_ENTRY_PARAMS", params + "long smelt_n");
    const auto prefetch = [&](size_t k, const std::string &index) {
        return "            prefetch(" + vars.params[k] + " + " + index + ", 1);\n";
    };
    out += elementwise_macros(d, w, vars, tiled, kElementwiseEntry, kElementwiseEachEntry,
                              kElementwiseItems, prefetch);
    out += portable_words(d);
    if (tiled) out += algorithm_source("elementwise_tiled.kernel");
    out += algorithm_source("elementwise_each.kernel");
    return out;
}

} // namespace smelt::primitives::opencl
