// Launch geometry and scratch layout of the CUDA reduction and scan, as functions of the item
// count and the most blocks the device holds at once — nothing else, so the combine order of
// the reduction and the three-kernel scan is the same on every run (and tests can reproduce
// it; see tests/cuda/cuda_emulation_test.cpp). The single-pass scan launches one block per
// kScanTile items.
#pragma once

#include "primitives/cuda/wrappers.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace smelt::primitives::cuda {

// Blocks of smelt_reduce_blocks: one per kReduceBlock items, at most max_blocks (every block
// then owns at least one item, which the block tree relies on).
inline int64_t reduction_blocks(int64_t n, int64_t max_blocks) {
    if (n <= 0) return 0;
    return std::max<int64_t>(1, std::min((n + kReduceBlock - 1) / kReduceBlock, max_blocks));
}

struct ScanGeometry {
    int64_t tiles = 0;     // kScanTile items each
    int64_t per_block = 0; // consecutive tiles per block
    int64_t blocks = 0;    // every block owns at least one tile
};

inline ScanGeometry scan_geometry(int64_t n, int64_t max_blocks) {
    ScanGeometry g;
    if (n <= 0) return g;
    g.tiles = (n + kScanTile - 1) / kScanTile;
    const int64_t most = std::max<int64_t>(1, std::min(g.tiles, max_blocks));
    g.per_block = (g.tiles + most - 1) / most;
    g.blocks = (g.tiles + g.per_block - 1) / g.per_block;
    return g;
}

// Byte offsets in the scratch block: aggregate values and flags, carries, last_item. Values
// take 8 bytes each whatever the dtype (at most 8 bytes).
struct ScanScratch {
    size_t agg_v = 0, agg_f = 0, carry_v = 0, last = 0, bytes = 0;
};

inline ScanScratch scan_scratch(int64_t blocks) {
    auto round = [](size_t v) { return (v + 255) / 256 * 256; };
    ScanScratch s;
    s.agg_f = round(size_t(blocks) * 8);
    s.carry_v = s.agg_f + round(size_t(blocks));
    s.last = s.carry_v + round(size_t(blocks) * 8);
    s.bytes = s.last + 256;
    return s;
}

// Byte offsets in the scratch block of the single-pass scan: the tile counter, then two 8-byte
// status words per tile (one is used for values of up to 4 bytes). All `bytes` must be zero at
// the start of a call.
struct SinglePassScratch {
    size_t counter = 0, status = 0, bytes = 0;
};

inline SinglePassScratch single_pass_scratch(int64_t tiles) {
    SinglePassScratch s;
    s.status = 256;
    s.bytes = s.status + (size_t(tiles) * 16 + 255) / 256 * 256;
    return s;
}

} // namespace smelt::primitives::cuda
