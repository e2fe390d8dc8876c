// OpenCL entry of Elementwise, in one of two forms (as the CUDA one: cuda/elementwise_wrapper.cpp).
//   smelt_elementwise(<user params>, long smelt_n)
//
// Arrays that may alias: one work-item per index over a 1-D NDRange rounded up to the
// work-group size, so the kernel bound-checks its index.
//
// Distinct arrays (ElementwiseWrapper::distinct_arrays): the pointers are `restrict` and each
// work-item handles kElementwiseItems items a work-group apart (item k of work-item l of group
// g is g * items * W + k * W + l, W the work-group size: accesses stay coalesced), over
// ceil(n / (items * W)) groups. A full tile first prefetches p[i] of every item for each array
// the function reads at its own index (ElementwiseWrapper::preload: arrays of at least n
// items), so the items' loads are in flight together rather than one after each call; the
// last, partial tile is bound-checked item by item. With distinct arrays the unit also holds
// kElementwiseEachEntry (restrict, one item per work-item), which OpenCLTarget::run_elementwise
// launches on GPUs when the tiled grid is too small to fill the device. A function with a loop
// (ElementwiseWrapper::loops) gets only that form, as its one entry.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/opencl/wrappers.h"

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
    if (!w.distinct_arrays) {
        out += kernel_head(d, kElementwiseEntry, w.params, "long smelt_n", vars);
        out += "    const long smelt_i = (long)get_global_id(0);\n";
        out += "    if (smelt_i >= smelt_n) return;\n";
        out += "    " + spell_call(d, w.func, vars, w.params) + ";\n";
        out += "}\n";
        return out;
    }
    std::string params;
    vars.params.clear();
    for (size_t k = 0; k < w.params.size(); ++k) {
        const std::string var = "smelt_p" + std::to_string(k);
        const Type &t = w.params[k].type;
        params += (t.is_buffer() ? codegen::type_name(d, t) + "restrict " + var
                                 : codegen::declaration(d, t, var)) +
                  " /* " + w.params[k].name + " */, ";
        vars.params.push_back(var);
    }
    const std::string call = spell_call(d, w.func, vars, w.params);
    // Restrict, one item per work-item: the second entry of the tiled form, or the only one.
    auto each_entry = [&](const char *name) {
        return d.entry_qualifier + " void " + name + "(" + params + "long smelt_n) {\n" +
               "    const long smelt_i = (long)get_global_id(0);\n" +
               "    if (smelt_i >= smelt_n) return;\n" + "    " + call + ";\n" + "}\n";
    };
    if (!tiled) return out + each_entry(kElementwiseEntry);
    out += d.entry_qualifier + " void " + kElementwiseEntry + "(" + params + "long smelt_n) {\n";
    const std::string K = std::to_string(kElementwiseItems);
    // The index as the call passes it, so a prefetch covers the call's own load.
    const std::string index =
        convert(d, "smelt_i", Type::scalar(Scalar::I64), w.func.args.at(0).type);
    const std::string item = "            const long smelt_i = smelt_base + smelt_k * smelt_w;\n";
    out += "    const long smelt_w = (long)get_local_size(0);\n";
    out += "    const long smelt_base = (long)get_group_id(0) * (" + K +
           " * smelt_w) + (long)get_local_id(0);\n";
    std::string prefetch;
    for (size_t k = 0; k < w.params.size(); ++k)
        if (k < w.preload.size() && w.preload[k])
            prefetch += "            prefetch(" + vars.params[k] + " + " + index + ", 1);\n";
    // A full tile; with prefetches also every index fitting the call's index type, so that the
    // prefetches touch the elements the calls read.
    const std::string fits = prefetch.empty() ? "" : index_fits(w.func.args.at(0).type, "smelt_n");
    out += "    if (smelt_base + (" + K + " - 1) * smelt_w < smelt_n" +
           (fits.empty() ? "" : " && " + fits) + ") {\n";
    if (!prefetch.empty()) {
        out += "#pragma unroll\n";
        out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
        out += item + prefetch;
        out += "        }\n";
    }
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += item;
    out += "            " + call + ";\n";
    out += "        }\n";
    out += "    } else {\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += item;
    out += "            if (smelt_i < smelt_n) " + call + ";\n";
    out += "        }\n";
    out += "    }\n";
    out += "}\n";
    return out + each_entry(kElementwiseEachEntry);
}

} // namespace smelt::primitives::opencl
