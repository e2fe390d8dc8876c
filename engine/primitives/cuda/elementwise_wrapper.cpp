// CUDA kernel of Elementwise: a 1-D grid of kElementwiseBlock threads, in one of two forms.
//
// Arrays that may alias (the same array passed twice, in-place updates through two names): one
// thread per item, bound-checked. More items per thread would not help there: the compiler
// cannot move a load above the previous item's store when the arrays may alias.
//
// Distinct arrays (ElementwiseWrapper::distinct_arrays): the pointers are __restrict__ and each
// thread handles kElementwiseItems items a block apart (item k of thread t of block b is
// b * items * blockDim + k * blockDim + t: every warp access is coalesced). One 4-byte load per
// thread leaves too few bytes in flight to keep HBM busy, and restrict alone does not get the
// later items' loads issued early (each call ends with a store, and the math may branch, e.g.
// sinf's slow path), so a full tile first loads p[i] of every item for each array the function
// reads at its own index (preload), and an empty asm statement keeps those loads alive; the
// compiler then reuses them for the calls' own loads of p[i], which restrict makes legal. Only
// arrays of at least n items are preloaded, so the loads are in bounds whatever the function
// does with them. The last, partial tile is bound-checked item by item.
//
// With distinct arrays the unit also holds kElementwiseEachEntry: the same restrict call, one
// item per thread. A launch too small to fill the GPU with tiled threads uses it (CudaTarget::
// run_elementwise): a neighbour search or a force loop over 64 000 particles is latency-bound,
// and 16 000 threads of 4 items each leave most of the multiprocessors' warp slots empty.
// A function with a loop (ElementwiseWrapper::loops) gets only that form, as its one entry.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/cuda/wrappers.h"

namespace smelt::primitives::cuda {

namespace {

// An empty asm statement that takes `v` (of type s) as an input: the load producing v stays.
std::string keep_alive(Scalar s, const std::string &v) {
    switch (s) {
    case Scalar::F32:
        return "asm volatile(\"\" :: \"f\"(" + v + "));";
    case Scalar::F64:
        return "asm volatile(\"\" :: \"d\"(" + v + "));";
    case Scalar::I64:
    case Scalar::U64:
        return "asm volatile(\"\" :: \"l\"(" + v + "));";
    default:
        return "asm volatile(\"\" :: \"r\"((unsigned int)" + v + "));";
    }
}

} // namespace

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    const bool tiled = w.distinct_arrays;
    std::string out = "/* Elementwise: " + w.func.symbol + "(i, ...) for i in [0, n)" +
                      (tiled && w.loops ? "; distinct arrays: restrict; loops: one item per thread"
                       : tiled          ? "; distinct arrays: restrict, " +
                                     std::to_string(kElementwiseItems) + " items per thread"
                               : std::string()) +
                      ". */\n";
    // One thread per item, bound-checked.
    auto each_entry = [&](const char *name) {
        std::string e = d.entry_qualifier + " void " + name + "(const int64_t smelt_n" +
                        kernel_params(d, w.params, vars, tiled) + ") {\n";
        e += "    const int64_t smelt_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;\n";
        e += "    if (smelt_i >= smelt_n) return;\n";
        e += "    " + spell_call(d, w.func, vars, w.params) + ";\n";
        e += "}\n";
        return e;
    };
    if (!tiled || w.loops) return out + each_entry(kElementwiseEntry);
    out += d.entry_qualifier + " void " + kElementwiseEntry + "(const int64_t smelt_n" +
           kernel_params(d, w.params, vars, tiled) + ") {\n";
    const std::string call = spell_call(d, w.func, vars, w.params);
    const std::string K = std::to_string(kElementwiseItems);
    // The index as the call passes it, so a preload and the call's load are the same address.
    const Type i64 = Type::scalar(Scalar::I64);
    const std::string index = convert(d, "smelt_i", i64, w.func.args.at(0).type);
    out += "    const int64_t smelt_base = (int64_t)blockIdx.x * (" + K +
           " * (int64_t)blockDim.x) + threadIdx.x;\n";
    std::string preload;
    for (size_t k = 0; k < w.params.size(); ++k)
        if (k < w.preload.size() && w.preload[k]) {
            const Scalar e = w.params[k].type.elem;
            const std::string v = "smelt_v" + std::to_string(k);
            preload += "            const " + d.type(e) + " " + v + " = " + vars.params[k] + "[" +
                       index + "];\n";
            preload += "            " + keep_alive(e, v) + "\n";
        }
    // A full tile; with loads ahead also every index fitting the call's index type, so that
    // the loads read the elements the calls would.
    const std::string fits = preload.empty() ? "" : index_fits(w.func.args.at(0).type, "smelt_n");
    out += "    if (smelt_base + (" + K + " - 1) * (int64_t)blockDim.x < smelt_n" +
           (fits.empty() ? "" : " && " + fits) + ") {\n";
    if (!preload.empty()) {
        out += "#pragma unroll\n";
        out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
        out += "            const int64_t smelt_i = smelt_base + smelt_k * (int64_t)blockDim.x;\n";
        out += preload;
        out += "        }\n";
    }
    out += "#pragma unroll\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            const int64_t smelt_i = smelt_base + smelt_k * (int64_t)blockDim.x;\n";
    out += "            " + call + ";\n";
    out += "        }\n";
    out += "    } else {\n";
    out += "        for (int smelt_k = 0; smelt_k < " + K + "; ++smelt_k) {\n";
    out += "            const int64_t smelt_i = smelt_base + smelt_k * (int64_t)blockDim.x;\n";
    out += "            if (smelt_i < smelt_n) " + call + ";\n";
    out += "        }\n";
    out += "    }\n";
    out += "}\n";
    return out + each_entry(kElementwiseEachEntry);
}

} // namespace smelt::primitives::cuda
