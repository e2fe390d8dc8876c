// The CUDA kernels of the primitives, as text around the device functions (CUDA dialect). The
// reduction and the scans are written in primitives/algorithms/*.kernel (reduce_grid_stride,
// scan_reduce_then_scan, scan_single_pass), which spell the entry names below; the wrappers write
// their per-call headers.
// Kernel parameters are passed by value (CUDA's kernelParams): the item count first, then one
// parameter per EntryParam (a pointer or a scalar), then the primitive's own buffers.
//
//   elementwise  smelt_entry(n, params...)                        one thread per item, or
//                                                                 kElementwiseItems (restrict)
//   reduction    smelt_reduce_blocks(n, params..., partials)      kReduceBlock threads, a fixed
//                smelt_reduce_final(count, partials, out)          grid (see cuda_target.cpp)
//   scan         smelt_scan_single(n, params..., counter, status)   one block per tile
//     (output with last_item:)
//                smelt_scan_upsweep(n, params..., agg_v, agg_f, tiles_per_block)
//                smelt_scan_spine(blocks, agg_v, agg_f, carry_v, last)
//                smelt_scan_downsweep(n, params..., carry_v, last, tiles_per_block)
#pragma once

#include "codegen/dialect.h"
#include "primitives/wrapper_spec.h"

#include <string>
#include <vector>

namespace smelt::primitives::cuda {

inline constexpr const char *kElementwiseEntry = "smelt_entry";
// With distinct arrays: the same call, one item per thread (small launches).
inline constexpr const char *kElementwiseEachEntry = "smelt_entry_each";
inline constexpr const char *kReduceBlocks = "smelt_reduce_blocks";
inline constexpr const char *kReduceFinal = "smelt_reduce_final";
inline constexpr const char *kScanSinglePass = "smelt_scan_single";
inline constexpr const char *kScanUpsweep = "smelt_scan_upsweep";
inline constexpr const char *kScanSpine = "smelt_scan_spine";
inline constexpr const char *kScanDownsweep = "smelt_scan_downsweep";

inline constexpr int kElementwiseBlock = 256;
// Items per thread of the elementwise kernel when the arrays are distinct (restrict).
inline constexpr int kElementwiseItems = 4;
inline constexpr int kReduceBlock = 256;
inline constexpr int kScanBlock = 256; // 8 warps
// Items per thread and tile (odd: no bank conflicts). Larger tiles mean fewer look-backs (single
// pass on the H100, 2^27 float64: 2.20 TB/s at 11 items, 2.34 at 15, 2.46 at 19); 19 is the most
// whose tile of 8-byte values and segment flags fits the 48 KB of static shared memory.
inline constexpr int kScanItems = 19;
inline constexpr int kScanTile = kScanBlock * kScanItems;
static_assert(kScanTile * 9 + 1024 <= 48 * 1024, "scan tile exceeds static shared memory");
inline constexpr int kSpineBlock = 256;
// The single-pass scan's look-back: groups of 32 tiles read per window, and pauses (ns) before
// the first poll of the status words and between polls, in grids of at least kScanBackoffGrid
// blocks.
inline constexpr int kScanLookBack = 1;
inline constexpr int kScanFirstPollNs = 1500;
inline constexpr int kScanPollNs = 700;
inline constexpr int kScanBackoffGrid = 500;

// ", double *smelt_p0, const int32_t smelt_p1": the user parameters of a kernel, after n;
// vars.params gets the names. restrict_pointers: "double *__restrict__ smelt_p0".
std::string kernel_params(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                          CallVars &vars, bool restrict_pointers = false);

// SMELT_T (the type of `acc`), SMELT_COMBINE, SMELT_NEUTRAL and SMELT_SHFL_T, then
// primitives/algorithms/warp_value.kernel: smelt_shfl_up_acc / smelt_shfl_down_acc /
// smelt_shfl_idx_acc for values of type `acc` (8- and 16-bit types and bool travel through int),
// smelt_combine_acc(a, b) calling the combine function with its result converted back to `acc`,
// and smelt_neutral_acc().
std::string device_helpers(const codegen::Dialect &d, Scalar acc, const CombineSymbols &ops);

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w);
std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w);
// The scan of the target: single_pass_scan_wrapper (scan_single_pass.cpp), or, when output
// takes last_item, scan_wrapper (scan_wrapper.cpp: reduce-then-scan in three kernels).
std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w);
std::string single_pass_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w);

} // namespace smelt::primitives::cuda
