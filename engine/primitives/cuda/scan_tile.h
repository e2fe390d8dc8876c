// The per-call header of the CUDA scans, whose kernels are written in
// primitives/algorithms/scan_reduce_then_scan.kernel (scan_wrapper.cpp: three kernels, used when
// output takes last_item) and scan_single_pass.kernel (scan_single_pass.cpp: one kernel with
// decoupled look-back). Both scan tiles of kScanTile items by a block the same way
// (scan_warp_tile.kernel): warp-striped loads into shared memory, an ordered fold of each lane's
// kScanItems consecutive items, an ordered warp scan by shuffles, then output warp-striped again.
#pragma once

#include "codegen/dialect.h"
#include "primitives/cuda/wrappers.h"

#include <string>

namespace smelt::primitives::cuda {

// "/* Scan: input f, output g, ... with c: WHAT. */" for the top of a scan's wrapper.
std::string scan_title(const ScanWrapper &w, const std::string &what);

// The helpers (device_helpers, scan_seg_fold.kernel) and the macros both scan files take (their
// tops list them): the value type, the user's parameters and calls spelled with the kernels'
// variables (index smelt_i, n smelt_n, item smelt_item, prev_item smelt_prev, last_item
// smelt_last), whether the scan is segmented, the tile sizes; then portable_words(d).
std::string scan_header(const codegen::Dialect &d, const ScanWrapper &w);

} // namespace smelt::primitives::cuda
