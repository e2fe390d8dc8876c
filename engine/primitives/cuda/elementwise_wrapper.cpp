// CUDA kernel of Elementwise: primitives/algorithms/elementwise_tiled.kernel and
// elementwise_each.kernel (as the OpenCL one) after this per-call header, over a 1-D grid of
// kElementwiseBlock threads, in one of two forms.
// Parameters: (const int64_t smelt_n, <user params>).
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
#include "primitives/algorithm_source.h"
#include "primitives/cuda/wrappers.h"
#include "primitives/per_call_header.h"

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
    out += define_macro("SMELT_ENTRY_PARAMS",
                        "const int64_t smelt_n" + kernel_params(d, w.params, vars, tiled));
    // Loads ahead: each preloaded value is kept alive by an empty asm statement.
    const auto preload = [&](size_t k, const std::string &index) {
        const Scalar e = w.params[k].type.elem;
        const std::string v = "smelt_v" + std::to_string(k);
        return "            const " + d.type(e) + " " + v + " = " + vars.params[k] + "[" + index +
               "];\n            " + keep_alive(e, v) + "\n";
    };
    const bool tiles = tiled && !w.loops;
    out += elementwise_macros(d, w, vars, tiles, kElementwiseEntry, kElementwiseEachEntry,
                              kElementwiseItems, preload);
    out += portable_words(d);
    if (tiles) out += algorithm_source("elementwise_tiled.kernel");
    out += algorithm_source("elementwise_each.kernel");
    return out;
}

} // namespace smelt::primitives::cuda
