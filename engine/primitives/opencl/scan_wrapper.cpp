// OpenCL entries of Scan in the CPU layout (layout.h): a three-kernel blocked scan over one
// contiguous chunk per work-item (the CPU's per-thread chunks, with work-items for threads).
//   smelt_scan_up, smelt_scan_down   primitives/algorithms/scan_chunked_opencl.kernel
//   smelt_scan_groups                primitives/algorithms/scan_groups_opencl.kernel: one
//                                    work-group replaces the group totals by their exclusive
//                                    scan (each group's carry) and stores the total of
//                                    everything (last_item) after them. Shared with the GPU
//                                    layout (gpu_scan_wrapper.cpp).
// after this per-call header.
#include "primitives/algorithm_source.h"
#include "primitives/opencl/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::opencl {

std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ". */\n";
    out += user_param_macros(d, w.params, vars);
    out += scan_macros(d, w, vars);
    out += group_size_macro();
    out += portable_words(d);
    out += algorithm_source("pair_join.kernel");
    out += algorithm_source("chunk_split.kernel");
    out += algorithm_source("chunk_scan.kernel");
    out += algorithm_source("scan_chunked_opencl.kernel") + "\n";
    out += algorithm_source("scan_groups_opencl.kernel");
    return out;
}

} // namespace smelt::primitives::opencl
