// The OpenCL C wrappers of Reduction and Scan in the GPU layout (layout.h): work-groups of
// kGpuGroupSize work-items, fixed at compile time (reqd_work_group_size), over tiles of
// kGpuGroupSize * K items (K = gpu_items(dtype)). The algorithm is written once in
// primitives/algorithms/tiled_reduce_scan.kernel; the wrappers write its per-call header. Per tile:
//
//   load   work-item l evaluates items base + k * W + l, k < K (consecutive work-items take
//          consecutive indices: coalesced) into registers, one tile ahead so the loads overlap
//          the work on the previous tile, then stores them in local memory
//   fold   work-item l folds the K consecutive items [l * K, l * K + K) in index order
//   group  an ordered tree (reduction) or scan (scan) over the W folds in local memory
//          (group_tree.kernel, group_scan.kernel: OpenCL's own step, over local memory)
//
// Group g owns the contiguous run of tiles [g * per, (g + 1) * per) (per = ceil(tiles / G),
// computed in the kernel from n and the group count G), so the split, and with it every combine,
// depends only on n and G: results are deterministic for a device. Items are only ever combined
// with their neighbours in index order (the combine need only be associative). Groups after the
// last tile own nothing and write "no value".
//
// Kernel parameters (user parameters first, in EntryParam order):
//   smelt_reduce_groups(<user>, long n, __global T *gv, __global uchar *gf)
//   smelt_reduce_final  as in the CPU layout (reduce_final_opencl.kernel)
//   smelt_scan_up(<user>, long n, __global T *gv, __global uchar *gf)
//   smelt_scan_groups   as in the CPU layout (scan_groups_opencl.kernel), over the G group totals
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

// The user's side of a GPU-layout reduction or scan, spelled with the kernel's variables (index
// smelt_i; a scan's item smelt_item, prev_item smelt_prev, last_item smelt_last).
struct TiledCall {
    std::string T;              // the value type
    std::string combine;        // "(T)f": the combine converted to T, called as combine(a, b)
    std::string neutral;        // "(T)f()"
    Scalar dtype = Scalar::F64; // the value's scalar (tile and padding follow its size)
    std::string params;         // the user's parameters, each followed by ", "
    std::string value;          // the value at smelt_i (map, array or input), as T
    bool scan = false;          // a scan: index 0 starts a segment
    std::string segment;        // whether smelt_i starts a segment (segmented scans), or ""
};

// The per-call header of primitives/algorithms/tiled_reduce_scan.kernel (the macros its top
// lists, but the kernel's name, kind and output), then portable_words(d).
std::string tiled_header(const codegen::Dialect &d, const TiledCall &c);
// One kernel of tiled_reduce_scan.kernel: the group totals (reduction, scan up-sweep) or, with
// `down`, the scan's down-sweep calling `output`.
std::string tiled_kernel(const std::string &entry, bool down, const std::string &output = "");

std::string gpu_reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w);
std::string gpu_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w);

} // namespace smelt::primitives::opencl
