// CUDA kernel of Scan when output does not take last_item: a single pass with decoupled
// look-back (Merrill & Garland, 2016), written in primitives/algorithms/scan_single_pass.kernel
// (its top says how tiles publish and look back); the input is read once and the output written
// once, as in a copy.
//
// In a large grid the look-back pauses (__nanosleep) before its first poll and between polls,
// as CUB's does: hundreds of warps polling without pause flood the L2 slices holding the status
// words and delay the very stores they wait for (smelt_backoff, in the kernel file); the tile
// size and pauses are tuned on an H100 (wrappers.h).
#include "primitives/algorithm_source.h"
#include "primitives/cuda/scan_tile.h"

namespace smelt::primitives::cuda {

std::string single_pass_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    // 8-byte values take two status words per tile, each with a half.
    const int words = w.dtype != Scalar::Bool && scalar_bits(w.dtype) > 32 ? 2 : 1;
    std::string out = scan_title(w, "single pass, decoupled look-back");
    out += scan_header(d, w);
    out += define_line("SMELT_STATUS_WORDS", std::to_string(words));
    out += define_line("SMELT_LOOK_BACK_GROUPS", std::to_string(kScanLookBack));
    out += define_line("SMELT_FIRST_POLL_NS", std::to_string(kScanFirstPollNs) + "u");
    out += define_line("SMELT_POLL_NS", std::to_string(kScanPollNs) + "u");
    out += define_line("SMELT_BACKOFF_GRID", std::to_string(kScanBackoffGrid) + "u");
    return out + algorithm_source("scan_single_pass.kernel");
}

} // namespace smelt::primitives::cuda
