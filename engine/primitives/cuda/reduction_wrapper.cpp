// CUDA kernels of Reduction: deterministic two-stage reduction.
//
//   stage 1  smelt_reduce_blocks on a grid of G blocks of kReduceBlock threads, G fixed by n and
//            the device (cuda_target.cpp). Thread t of block b folds items t', t' + S, t' + 2S, ...
//            (t' = b * blockDim + t, S = G * blockDim) in that order, starting from its first
//            item; then the block folds its threads' values with a fixed tree (warp shuffles by
//            1, 2, 4, 8, 16 lanes, lower lanes on the left; warp results through shared memory
//            after __syncthreads) and writes one partial per block.
//   stage 2  smelt_reduce_final, one block, folds the G partials the same way into `out`
//            (the neutral element when n == 0).
//
// The order of every combine is fixed by n, G and the block size, so repeated runs give the
// same bits. As with every GPU reduction (CUB's included) the items are interleaved across
// threads, so the combine must be commutative as well as associative. Threads that own no item
// hold no value: they are always a suffix of their block, and the tree skips them, so the
// neutral element is never combined in (it is only the result for n == 0).
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/cuda/wrappers.h"

namespace smelt::primitives::cuda {

namespace {

// The fixed tree over the first `valid` threads of the block (a prefix, valid >= 1); the result
// is in thread 0. Every thread of the block must call it (it has a __syncthreads).
std::string block_reduce(const std::string &T) {
    std::string out;
    out += "SMELT_INLINE " + T + " smelt_block_reduce(" + T + " v, const int valid, " + T +
           " *smelt_warp_acc) {\n";
    out += "    const int lane = (int)(threadIdx.x & 31u), warp = (int)(threadIdx.x >> 5);\n";
    out += "    int in_warp = valid - warp * 32;\n";
    out += "    if (in_warp > 32) in_warp = 32;\n";
    out += "    for (int d = 1; d < 32; d <<= 1) {\n";
    out += "        const " + T + " other = smelt_shfl_down_acc(v, (unsigned)d);\n";
    out += "        if ((lane & (2 * d - 1)) == 0 && lane + d < in_warp) v = "
           "smelt_combine_acc(v, other);\n";
    out += "    }\n";
    out += "    if (lane == 0 && in_warp > 0) smelt_warp_acc[warp] = v;\n";
    out += "    __syncthreads();\n";
    out += "    if (warp == 0) {\n";
    out += "        const int warps = (valid + 31) / 32;\n";
    out += "        if (lane < warps) v = smelt_warp_acc[lane];\n";
    out += "        for (int d = 1; d < 32; d <<= 1) {\n";
    out += "            const " + T + " other = smelt_shfl_down_acc(v, (unsigned)d);\n";
    out += "            if ((lane & (2 * d - 1)) == 0 && lane + d < warps) v = "
           "smelt_combine_acc(v, other);\n";
    out += "        }\n";
    out += "    }\n";
    out += "    return v;\n";
    out += "}\n\n";
    return out;
}

} // namespace

std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    const Type acc_type = Type::scalar(w.out);
    const std::string T = codegen::type_name(d, acc_type);
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + ": deterministic two-stage tree. */\n";
    out += device_helpers(d, w.out, w.ops);
    out += block_reduce(T);

    // The value at index variable `var`, as T.
    CallVars vars;
    auto item = [&](const std::string &var) {
        CallVars v = vars;
        v.index = var;
        if (w.map) return convert(d, spell_call(d, *w.map, v, w.params), w.map->result, acc_type);
        const Type &arr = w.params.at(w.array_param).type;
        return convert(d, v.params[w.array_param] + "[" + var + "]", Type::scalar(arr.elem),
                       acc_type);
    };
    const std::string params = kernel_params(d, w.params, vars);

    out += d.entry_qualifier + " void " + kReduceBlocks + "(const int64_t smelt_n" + params + ", " +
           T + " *smelt_partials) {\n";
    out += "    __shared__ " + T + " smelt_warp_acc[32];\n";
    out += "    const int64_t smelt_stride = (int64_t)gridDim.x * blockDim.x;\n";
    out += "    int64_t smelt_i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;\n";
    out += "    " + T + " smelt_acc = smelt_neutral_acc(); /* never combined in */\n";
    out += "    if (smelt_i < smelt_n) {\n";
    out += "        smelt_acc = " + item("smelt_i") + ";\n";
    out += "        smelt_i += smelt_stride;\n";
    // Four loads in flight per thread: the map only reads, so they can all be issued first.
    // The fold order is the same as one item at a time.
    out += "        for (; smelt_i + 3 * smelt_stride < smelt_n; smelt_i += 4 * smelt_stride) {\n";
    out += "            const int64_t smelt_i1 = smelt_i + smelt_stride, smelt_i2 = smelt_i1 + "
           "smelt_stride, smelt_i3 = smelt_i2 + smelt_stride;\n";
    out += "            const " + T + " smelt_a0 = " + item("smelt_i") + ";\n";
    out += "            const " + T + " smelt_a1 = " + item("smelt_i1") + ";\n";
    out += "            const " + T + " smelt_a2 = " + item("smelt_i2") + ";\n";
    out += "            const " + T + " smelt_a3 = " + item("smelt_i3") + ";\n";
    out += "            smelt_acc = smelt_combine_acc(smelt_combine_acc(smelt_combine_acc("
           "smelt_combine_acc(smelt_acc, smelt_a0), smelt_a1), smelt_a2), smelt_a3);\n";
    out += "        }\n";
    out += "        for (; smelt_i < smelt_n; smelt_i += smelt_stride)\n";
    out += "            smelt_acc = smelt_combine_acc(smelt_acc, " + item("smelt_i") + ");\n";
    out += "    }\n";
    out += "    const int64_t smelt_rest = smelt_n - (int64_t)blockIdx.x * blockDim.x;\n";
    out += "    const int smelt_valid = smelt_rest < (int64_t)blockDim.x ? (int)smelt_rest : "
           "(int)blockDim.x;\n";
    out += "    smelt_acc = smelt_block_reduce(smelt_acc, smelt_valid, smelt_warp_acc);\n";
    out += "    if (threadIdx.x == 0) smelt_partials[blockIdx.x] = smelt_acc;\n";
    out += "}\n\n";

    out += d.entry_qualifier + " void " + kReduceFinal + "(const int64_t smelt_count, const " + T +
           " *smelt_partials, " + T + " *smelt_out) {\n";
    out += "    __shared__ " + T + " smelt_warp_acc[32];\n";
    out += "    if (smelt_count <= 0) {\n";
    out += "        if (threadIdx.x == 0) *smelt_out = smelt_neutral_acc();\n";
    out += "        return;\n";
    out += "    }\n";
    out += "    " + T + " smelt_acc = smelt_neutral_acc(); /* never combined in */\n";
    out += "    int64_t smelt_k = threadIdx.x;\n";
    out += "    if (smelt_k < smelt_count) {\n";
    out += "        smelt_acc = smelt_partials[smelt_k];\n";
    out += "        for (smelt_k += blockDim.x; smelt_k < smelt_count; smelt_k += blockDim.x)\n";
    out += "            smelt_acc = smelt_combine_acc(smelt_acc, smelt_partials[smelt_k]);\n";
    out += "    }\n";
    out += "    const int smelt_valid = smelt_count < (int64_t)blockDim.x ? (int)smelt_count : "
           "(int)blockDim.x;\n";
    out += "    smelt_acc = smelt_block_reduce(smelt_acc, smelt_valid, smelt_warp_acc);\n";
    out += "    if (threadIdx.x == 0) *smelt_out = smelt_acc;\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::cuda
