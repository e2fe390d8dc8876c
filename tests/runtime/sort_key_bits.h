// SortOptions::key_bits against std::stable_sort: integer keys in [0, 2^bits), the positions as
// values, for bit counts around the 8-bit digits (1, 8, 9, 14, 16, 17, and the whole key), so a
// sort that skips the passes above key_bits must still order every key and keep equal keys in
// input order. Shared by the cpu, OpenCL (both layouts) and CUDA suites.
#pragma once

#include "array/array.h"
#include "primitives/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace smelt::testing_util {

template <class K> void expect_key_bits_sort(Backend *backend, size_t n) {
    for (int bits : {1, 8, 9, 14, 16, 17, int(8 * sizeof(K)) - (K(-1) < K(0) ? 1 : 0)}) {
        std::mt19937_64 rng(uint64_t(bits) * 7919 + n);
        std::vector<K> keys(n);
        const uint64_t bound = uint64_t(1) << bits;
        for (auto &k : keys)
            k = static_cast<K>(rng() % bound);
        std::vector<int32_t> pos(n);
        std::iota(pos.begin(), pos.end(), 0);
        std::vector<int32_t> want = pos;
        std::stable_sort(want.begin(), want.end(),
                         [&](int32_t a, int32_t b) { return keys[size_t(a)] < keys[size_t(b)]; });
        Array k = Array::from_vector(keys, backend), v = Array::from_vector(pos, backend);
        SortOptions options;
        options.key_bits = bits;
        sort_by_key(k, &v, options);
        EXPECT_EQ(v.to_vector<int32_t>(), want) << bits << " bits, n = " << n;
        std::vector<K> sorted(n);
        for (size_t i = 0; i < n; ++i)
            sorted[i] = keys[size_t(want[i])];
        EXPECT_EQ(k.to_vector<K>(), sorted) << bits << " bits, n = " << n;
    }
}

} // namespace smelt::testing_util
