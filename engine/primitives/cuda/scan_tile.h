// Text shared by the two CUDA scans (scan_wrapper.cpp: reduce-then-scan in three kernels, used
// when output takes last_item; scan_single_pass.cpp: one kernel with decoupled look-back): the
// spelled user calls, the helpers, and the scan of one tile of kScanTile items by a block.
//
// A tile: every warp loads 32 * kScanItems consecutive items warp-striped (coalesced) into shared
// memory, each lane folds its kScanItems consecutive items in order, the lanes are combined by
// an ordered warp scan (shuffles up; lower lanes on the left), the warp totals go to shared
// memory. Output rescans each lane's items from the value before the tile and calls output
// warp-striped again.
//
// Segments travel as (start flag, value) pairs combined by
//     (fa, a) ⊕ (fb, b) = (fa | fb, fb ? b : combine(a, b)),
// which is associative, so the combine only has to be associative (no commutativity: every
// fold keeps index order). Index 0 always starts a segment, so the value before the first tile
// is never combined in, and `neutral` is only ever prev_item at a segment start. Items beyond n
// are never combined: the valid items of a tile are a prefix of it, and every combine takes its
// left operand from lower indices.
#pragma once

#include "codegen/dialect.h"
#include "primitives/cuda/wrappers.h"

#include <string>

namespace smelt::primitives::cuda {

// The user's side of a scan spelled with the kernels' variables (index smelt_i, n smelt_n, item
// smelt_item, prev_item smelt_prev, last_item smelt_last).
struct ScanText {
    std::string T;      // the accumulator type
    std::string params; // ", double *smelt_p0 /* x */, ..." (kernel parameters after n)
    std::string input;  // input(i) converted to T
    std::string output; // the output call
    std::string start;  // whether item i starts a segment
    bool segmented = false;
};

// Whether the tile's item at (smelt_warp, j) starts a segment: stored in shared memory for a
// segmented scan; else only index 0 does.
std::string tile_flag(const ScanText &s, const std::string &j);

ScanText scan_text(const codegen::Dialect &d, const ScanWrapper &w);

// The ordered inclusive warp scan of each lane's (smelt_lf, smelt_lv) by shuffles up (lower
// lanes on the left), in place; `indent` is the text's indentation.
std::string warp_inclusive_scan(const std::string &T, const std::string &indent);

// smelt_run: the value before this lane's first item, from smelt_pv (the value before the
// warp's first item) and the lane to the left's inclusive (smelt_lf, smelt_lv).
std::string lane_start_value(const std::string &T, const std::string &indent);

// smelt_shfl_*_acc, smelt_combine_acc, smelt_neutral_acc and smelt_seg_fold(a, b, fb).
std::string scan_helpers(const codegen::Dialect &d, const ScanWrapper &w, const std::string &T);

// The shared arrays of a tile (smelt_s_val and, when segmented, smelt_s_flag per warp; the warp
// totals smelt_s_wv/wf) and smelt_lane, smelt_warp.
std::string tile_shared(const ScanText &s);

// Scans the tile starting at smelt_tile whose valid items end at smelt_hi: leaves the lane's
// inclusive fold in (smelt_lf, smelt_lv), its count in smelt_cnt, the warp totals in
// smelt_s_w*, and the number of warps holding items in smelt_warps, after a __syncthreads.
std::string tile_scan(const ScanText &s);

// Calls output for the tile's items, given smelt_cv: the value before the tile (any value in
// the first tile: index 0 starts a segment). `after_prefix` runs after every warp has read the
// warp totals (the three-kernel scan moves its carry on and synchronises there).
std::string tile_output(const ScanText &s, const std::string &after_prefix);

} // namespace smelt::primitives::cuda
