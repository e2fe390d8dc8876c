// The OpenCL C wrappers of the primitives: __kernel functions around the device functions, each
// launched over a 1-D NDRange by opencl_target.cpp. Kernel parameters are the user arguments
// (EntryParam order) followed by the wrapper's own (the item count, scratch buffers, __local
// memory), in the order each wrapper's comment gives.
//
// Every associative operator is applied in index order (never reordered for commutativity), and
// the split of [0, n) depends only on the NDRange (global and work-group size), so results are
// deterministic for a given device and work-group size, like the CPU's for a thread count.
#pragma once

#include "codegen/dialect.h"
#include "primitives/wrapper_spec.h"

#include <cstddef>
#include <string>
#include <vector>

namespace smelt::primitives::opencl {

inline constexpr const char *kElementwiseEntry = "smelt_elementwise";
// With distinct arrays: the same call, one item per work-item (small launches on GPUs).
inline constexpr const char *kElementwiseEachEntry = "smelt_elementwise_each";
// Items per work-item of the elementwise kernel when the arrays are distinct (restrict).
inline constexpr int kElementwiseItems = 4;
inline constexpr const char *kReduceGroupsEntry = "smelt_reduce_groups";
inline constexpr const char *kReduceFinalEntry = "smelt_reduce_final";
inline constexpr const char *kScanUpEntry = "smelt_scan_up";
inline constexpr const char *kScanGroupsEntry = "smelt_scan_groups";
inline constexpr const char *kScanDownEntry = "smelt_scan_down";

// The largest work-group size launched. Loops over the levels of a work-group tree or scan
// (primitives/algorithms/group_tree.kernel, group_scan.kernel) run a fixed log2(kMaxGroupSize)
// times, whatever the launch's size (extra levels do nothing), so every work-item meets the same
// barriers: PoCL 3.1 miscompiles barrier loops bounded by get_local_size(0).
inline constexpr size_t kMaxGroupSize = 256;
// "#define SMELT_MAX_GROUP_SIZE 256u", which group_tree.kernel and group_scan.kernel expect.
std::string group_size_macro();

// The user's parameters as entry parameters smelt_p0..., each followed by ", "; vars.params gets
// their names.
std::string user_params(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                        CallVars &vars);

// "__kernel void NAME(<user params>, <extra>) {": the user parameters become smelt_p0...
// (recorded in vars.params).
std::string kernel_head(const codegen::Dialect &d, const std::string &name,
                        const std::vector<EntryParam> &params, const std::string &extra,
                        CallVars &vars);

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w);
std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w);
std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w);

} // namespace smelt::primitives::opencl
