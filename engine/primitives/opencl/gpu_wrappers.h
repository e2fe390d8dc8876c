// The OpenCL C wrappers of Reduction and Scan in the GPU layout (layout.h): work-groups of
// kGpuGroupSize work-items, fixed at compile time (reqd_work_group_size), over tiles of
// kGpuGroupSize * K items (K = gpu_items(dtype)). Per tile:
//
//   load   work-item l evaluates items base + k * W + l, k < K (consecutive work-items take
//          consecutive indices: coalesced) into registers, one tile ahead so the loads overlap
//          the work on the previous tile, then stores them in local memory
//   fold   work-item l folds the K consecutive items [l * K, l * K + K) in index order
//   group  an ordered tree (reduction) or scan (scan) over the W folds in local memory
//
// Group g owns the contiguous run of tiles [g * per, (g + 1) * per) (per = ceil(tiles / G),
// computed in the kernel from n and the group count G), so the split, and with it every combine,
// depends only on n and G: results are deterministic for a device. Items are only ever combined
// with their neighbours in index order (the combine need only be associative). Groups after the
// last tile own nothing and write "no value".
//
// Kernel parameters (user parameters first, in EntryParam order):
//   smelt_reduce_groups(<user>, long n, __global T *gv, __global uchar *gf)
//   smelt_reduce_final  as in the CPU layout (reduction_wrapper.cpp)
//   smelt_scan_up(<user>, long n, __global T *gv, __global uchar *gf)
//   smelt_scan_groups   as in the CPU layout (scan_wrapper.cpp), over the G group totals
//   smelt_scan_down(<user>, long n, __global T *gv, __global uchar *gf)
#pragma once

#include "primitives/opencl/wrappers.h"

namespace smelt::primitives::opencl {

inline constexpr size_t kGpuGroupSize = 256;
// Items per work-item and tile: 16 KiB tiles (16 items up to 4 bytes, 8 of 8 bytes).
inline size_t gpu_items(Scalar s) {
    return scalar_bits(s) > 32 ? 8 : 16;
}
// The fewest items a tile holds, which the host uses to size the grid (a larger real tile only
// leaves trailing groups empty).
inline constexpr size_t kGpuMinTile = kGpuGroupSize * 8;
// Work-groups per compute unit launched at most. On the H100 (132 units, NVIDIA OpenCL) 16 beat
// 8 for float32 at 2^27 (sum 0.85 against 0.83 of copy bandwidth, scan 0.50 against 0.49) and
// tied for float64: more, shorter group runs keep more loads in flight.
inline constexpr int64_t kGpuGroupsPerUnit = 16;

// "__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void NAME(...) {" (kernel_head).
std::string gpu_kernel_head(const codegen::Dialect &d, const std::string &name,
                            const std::vector<EntryParam> &params, const std::string &extra,
                            CallVars &vars);

// "SMELT_INLINE uint smelt_pad(uint j)": the local slot of tile item j, one spare slot every 32
// items (16 for 8-byte types), so that work-items reading runs of K consecutive items in the
// fold hit different banks.
std::string gpu_pad_function(Scalar s);
// Kernel-scope declarations: the tile smelt_tile (and its start flags smelt_sf), the per-work-item
// pairs smelt_lv/smelt_lf, smelt_l, and this group's range [smelt_lo, smelt_hi) of [0, smelt_n).
std::string gpu_tile_setup(const std::string &T, size_t items, bool flags);
// The loop over the group's tiles, "for (long smelt_base = smelt_lo; ...) {" up to the tile in
// local memory: smelt_valid (the tile's items below smelt_hi, a prefix of it), VALUE (and START,
// unless empty, into smelt_sf) stored for those items, a barrier. VALUE and START are spelled
// with smelt_i and evaluated into registers one tile ahead: the next tile's loads are in flight
// while the caller folds this one. The caller closes the loop.
std::string gpu_tile_loop(const std::string &T, size_t items, const std::string &value,
                          const std::string &start);
// Work-item l folds tile items [l * K, l * K + K) in order into (smelt_acc, smelt_fl), restarting
// where START (spelled with smelt_j; empty: never) holds, stores the pair at smelt_lv/lf[l], then
// a barrier.
std::string gpu_fold(const std::string &T, size_t items, const std::string &combine,
                     const std::string &start);
// The in-order tree over smelt_lv/lf[0, local size) (reduction_wrapper.cpp): result in [0].
std::string local_tree(const std::string &indent);
// The rest of a kernel whose group folds its whole run of tiles into one pair (Reduction's
// groups, Scan's up-sweep): per tile gpu_tile_loop(VALUE, LOAD_START), gpu_fold(FOLD_START),
// the tree, the tile's total joined onto the group's carry; then the carry stored at
// smelt_gv/gf[group] and the kernel closed.
std::string gpu_group_total(const std::string &T, size_t items, const std::string &combine,
                            const std::string &value, const std::string &load_start,
                            const std::string &fold_start);

std::string gpu_reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w);
std::string gpu_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w);

// The kernels both layouts share, over a short array of group results (one work-group).
std::string reduce_final_kernel(const codegen::Dialect &d, const std::string &T,
                                const std::string &neutral);
std::string scan_groups_kernel(const codegen::Dialect &d, const std::string &T,
                               const std::string &neutral);

} // namespace smelt::primitives::opencl
