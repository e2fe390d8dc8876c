// The per-call header of the GPU-layout wrappers (gpu_wrappers.h) around the algorithm they
// share, primitives/algorithms/tiled_reduce_scan.kernel.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/opencl/gpu_wrappers.h"

namespace smelt::primitives::opencl {

std::string tiled_header(const codegen::Dialect &d, const TiledCall &c) {
    const size_t items = gpu_items(c.dtype);
    std::string out = "/* ---- per-call header of tiled_reduce_scan.kernel ---- */\n";
    out += define_line("SMELT_T", c.T);
    out += define_line("SMELT_COMBINE(smelt_a, smelt_b)", c.combine + "(smelt_a, smelt_b)");
    out += define_line("SMELT_NEUTRAL", c.neutral);
    out += define_line("SMELT_GROUP_SIZE", std::to_string(kGpuGroupSize));
    out += define_line("SMELT_ITEMS", std::to_string(items));
    // A spare slot every 32 items (16 of 8 bytes): the bank of a slot moves on by one per run
    // of K consecutive items a work-item folds.
    out += define_line("SMELT_PAD_SHIFT", scalar_bits(c.dtype) > 32 ? "4" : "5");
    out += define_line("SMELT_ENTRY_ATTRIBUTES", "__attribute__((reqd_work_group_size(" +
                                                     std::to_string(kGpuGroupSize) + ", 1, 1)))");
    out += define_line("SMELT_USER_PARAMS", c.params);
    out += define_line("SMELT_VALUE(smelt_i)", c.value);
    out += define_line("SMELT_SCAN", c.scan ? "1" : "0");
    out += define_line("SMELT_SEGMENTED", c.segment.empty() ? "0" : "1");
    if (!c.segment.empty()) out += define_line("SMELT_SEGMENT_START(smelt_i)", c.segment);
    // The work-group step is OpenCL's own: a tree or scan through local memory, barrier() at
    // every level (group_tree.kernel, group_scan.kernel; CUDA's tiles use warp shuffles instead).
    out += group_size_macro();
    return out + portable_words(d) + algorithm_source("pair_join.kernel");
}

std::string tiled_kernel(const std::string &entry, bool down, const std::string &output) {
    std::string out = define_line("SMELT_TILED_DOWN", down ? "1" : "0");
    out += define_line("SMELT_ENTRY", entry);
    if (down) out += define_line("SMELT_OUTPUT", output);
    return out + algorithm_source("tiled_reduce_scan.kernel");
}

} // namespace smelt::primitives::opencl
