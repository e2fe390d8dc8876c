// CUDA kernels of Scan when output takes last_item: reduce-then-scan in three kernels (upsweep,
// spine, downsweep), written in primitives/algorithms/scan_reduce_then_scan.kernel, since
// last_item needs the total before any output is called. (Without last_item the single-pass
// scan of scan_single_pass.cpp runs instead; it reads the input once.)
//
// G and the tiles per block depend only on n and the device (geometry.h), so the combine order,
// hence every bit of the result, is the same on every run.
#include "primitives/algorithm_source.h"
#include "primitives/cuda/scan_tile.h"

namespace smelt::primitives::cuda {

std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    std::string out = scan_title(w, "reduce-then-scan, three kernels");
    out += scan_header(d, w);
    out += define_line("SMELT_SPINE_WARPS", std::to_string(kSpineBlock / 32));
    return out + algorithm_source("scan_reduce_then_scan.kernel");
}

} // namespace smelt::primitives::cuda
