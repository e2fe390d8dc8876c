// Small pieces of the CPU radix sort: digit planning, chunking and offsets.
#pragma once

#include <cstddef>

namespace smelt::radix {

struct NoValue {};

// Below this many keys, threads and the split cost more than they save.
inline constexpr size_t kParallelMin = size_t(1) << 16;
// Buckets larger than this (a few MiB of keys and values) are split again before LSD passes.
inline constexpr size_t kResplitMin = size_t(1) << 18;

struct Digit {
    int shift = 0;
    int bits = 0;
};

// Splits the bit range [lo, hi) into as few digits of at most max_bits as possible, of even
// width (24 bits → 12 + 12, not 12 + 8 + 4). Returns the count.
inline int plan_digits(int lo, int hi, int max_bits, Digit *out) {
    const int width = hi - lo;
    if (width <= 0) return 0;
    const int count = (width + max_bits - 1) / max_bits;
    for (int j = 0, shift = lo; j < count; ++j) {
        const int bits = width / count + (j < width % count ? 1 : 0);
        out[j] = {shift, bits};
        shift += bits;
    }
    return count;
}

// Wide digits mean fewer passes but bigger histograms; below a few thousand keys the
// histogram work dominates.
inline int max_digit_bits(size_t len) {
    return len >= (size_t(1) << 15) ? 12 : len >= (size_t(1) << 12) ? 11 : 8;
}

inline void chunk_of(size_t n, int t, int nt, size_t &lo, size_t &hi) {
    lo = n * static_cast<size_t>(t) / static_cast<size_t>(nt);
    hi = n * static_cast<size_t>(t + 1) / static_cast<size_t>(nt);
}

// Counts → exclusive offsets over `size` digit values (offset may be count itself); false,
// with offset untouched, when one value holds all `len` keys.
inline bool exclusive_scan(const size_t *count, size_t *offset, size_t size, size_t len) {
    for (size_t b = 0; b < size; ++b)
        if (count[b] == len) return false;
    size_t running = 0;
    for (size_t b = 0; b < size; ++b) {
        const size_t c = count[b];
        offset[b] = running;
        running += c;
    }
    return true;
}

} // namespace smelt::radix
