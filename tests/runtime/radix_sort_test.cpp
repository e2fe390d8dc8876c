// Radix sort and argsort against std::stable_sort on (key, original index) pairs with
// operator<, for every key dtype, at the edge sizes around the 8-bit digit and thread-chunk
// boundaries. Keys are compared bit for bit, so the sign of each zero is checked too.
#include "array/array_ops.h"
#include "primitives/radix_sort.h"
#include "runtime/sort_key_bits.h"
#include "support/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace smelt {
namespace {

const size_t kSizes[] = {0,   1,   2,    31,   32,   33,    255,
                         256, 257, 1023, 1024, 1025, 65537, (1u << 20) + 3};

enum class Spread { Wide, Narrow }; // Narrow: few distinct keys, so stability matters

template <class K> std::vector<K> make_keys(size_t n, Spread spread, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<K> keys(n);
    for (auto &k : keys) {
        if constexpr (std::is_floating_point_v<K>) {
            static const K pool[] = {-std::numeric_limits<K>::infinity(),
                                     K(-2.5),
                                     K(-1),
                                     K(-0.0),
                                     K(0.0),
                                     K(0.5),
                                     K(1),
                                     K(3),
                                     std::numeric_limits<K>::infinity()};
            if (spread == Spread::Narrow) {
                k = pool[rng() % 9];
            } else {
                // Magnitudes over many binades, both signs, some exact zeros of either sign.
                double mag = std::ldexp(double(rng() % 1000000) / 1e6, int(rng() % 80) - 40);
                k = static_cast<K>((rng() & 1) ? -mag : mag);
                if (rng() % 50 == 0) k = (rng() & 1) ? K(-0.0) : K(0.0);
            }
        } else {
            uint64_t bits = rng();
            if (spread == Spread::Narrow) {
                bits %= 61;
                if constexpr (std::is_signed_v<K>)
                    k = static_cast<K>(int64_t(bits) - 30);
                else
                    k = static_cast<K>(bits);
            } else {
                k = static_cast<K>(bits); // full range: every digit varies, negatives included
            }
        }
    }
    return keys;
}

// The oracle: indices in the order std::stable_sort puts the keys.
template <class K> std::vector<int64_t> reference_order(const std::vector<K> &keys) {
    std::vector<int64_t> idx(keys.size());
    for (size_t i = 0; i < idx.size(); ++i)
        idx[i] = int64_t(i);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
    return idx;
}

template <class K> bool same_bits(const std::vector<K> &a, const std::vector<K> &b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(K)) == 0);
}

template <class K> class RadixSortTest : public ::testing::Test {};
using KeyTypes = ::testing::Types<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                                  uint64_t, float, double>;
TYPED_TEST_SUITE(RadixSortTest, KeyTypes);

TYPED_TEST(RadixSortTest, MatchesStableSortKeysValuesAndArgsort) {
    using K = TypeParam;
    for (size_t n : kSizes) {
        for (Spread spread : {Spread::Wide, Spread::Narrow}) {
            const std::vector<K> keys = make_keys<K>(n, spread, n * 7 + int(spread));
            const std::vector<int64_t> order = reference_order(keys);
            std::vector<K> want_keys(n);
            for (size_t i = 0; i < n; ++i)
                want_keys[i] = keys[order[i]];
            const int threads = n >= 65537 ? 2 : 1;
            SCOPED_TRACE(::testing::Message()
                         << "n=" << n << " spread=" << int(spread) << " threads=" << threads);

            // Keys alone.
            Array a = Array::from_vector(keys);
            sort_by_key(a, nullptr, {threads});
            EXPECT_TRUE(same_bits(a.to_vector<K>(), want_keys));

            // Keys with int64 values = original positions: checks the permutation itself.
            Array k2 = Array::from_vector(keys);
            Array v = arange(int64_t(n), DType::Int64);
            sort_by_key(k2, &v, {threads});
            EXPECT_TRUE(same_bits(k2.to_vector<K>(), want_keys));
            EXPECT_EQ(v.to_vector<int64_t>(), order);

            // Argsort, both index types; the keys are left alone.
            Array k3 = Array::from_vector(keys);
            EXPECT_EQ(argsort(k3, DType::Int64, {threads}).to_vector<int64_t>(), order);
            std::vector<int32_t> order32(order.begin(), order.end());
            EXPECT_EQ(argsort(k3, DType::Int32, {threads}).to_vector<int32_t>(), order32);
            EXPECT_TRUE(same_bits(k3.to_vector<K>(), keys));
        }
    }
}

TYPED_TEST(RadixSortTest, ThreadCountsGiveTheSameResult) {
    using K = TypeParam;
    const size_t n = 200003; // not a multiple of any thread count used
    for (Spread spread : {Spread::Wide, Spread::Narrow}) {
        const std::vector<K> keys = make_keys<K>(n, spread, 99);
        const std::vector<int64_t> order = reference_order(keys);
        for (int threads : {1, 2, 3, 8}) {
            Array idx = argsort(Array::from_vector(keys), DType::Int64, {threads});
            EXPECT_EQ(idx.to_vector<int64_t>(), order) << "threads=" << threads;
        }
    }
}

// Keys concentrated in a few top-bit buckets (normal floats: sign and exponent barely vary;
// ints clustered around a few large offsets) take the re-split and LSD-fallback paths.
template <class K> void check_skewed(const std::vector<K> &keys) {
    const std::vector<int64_t> order = reference_order(keys);
    for (int threads : {1, 2}) {
        Array k = Array::from_vector(keys);
        Array v = arange(int64_t(keys.size()), DType::Int64);
        sort_by_key(k, &v, {threads});
        EXPECT_EQ(v.to_vector<int64_t>(), order)
            << dtype_name(dtype_of<K>()) << " threads=" << threads;
    }
}

TEST(RadixSort, SkewedDistributionsMatchStableSort) {
    const size_t n = (1u << 20) + 3;
    std::mt19937_64 rng(11);
    std::normal_distribution<double> normal;
    std::vector<double> d(n);
    std::vector<float> f(n);
    std::vector<int64_t> clustered(n);
    std::vector<int32_t> mostly_zero(n);
    for (size_t i = 0; i < n; ++i) {
        d[i] = std::round(normal(rng) * 1e4) / 1e4; // ties, so stability is checked too
        f[i] = static_cast<float>(d[i]);
        clustered[i] = int64_t(rng() % 3) * (int64_t(1) << 50) + int64_t(rng() % 100000);
        mostly_zero[i] = rng() % 10 ? 0 : int32_t(rng());
    }
    check_skewed(d);
    check_skewed(f);
    check_skewed(clustered);
    check_skewed(mostly_zero);
}

// Values of every size move with their keys (values are raw bytes to the sort).
template <class V> void check_value_type() {
    const size_t n = 70001;
    const std::vector<int32_t> keys = make_keys<int32_t>(n, Spread::Narrow, 5);
    std::vector<V> values(n);
    for (size_t i = 0; i < n; ++i)
        values[i] = static_cast<V>(i * 3 + 1);
    const std::vector<int64_t> order = reference_order(keys);
    Array k = Array::from_vector(keys), v = Array::from_vector(values);
    sort_by_key(k, &v, {2});
    std::vector<V> want(n);
    for (size_t i = 0; i < n; ++i)
        want[i] = values[order[i]];
    EXPECT_TRUE(same_bits(v.to_vector<V>(), want)) << dtype_name(dtype_of<V>());
}

TEST(RadixSort, ValuesOfEverySizeMoveWithKeys) {
    check_value_type<uint8_t>();
    check_value_type<int16_t>();
    check_value_type<float>();
    check_value_type<double>();
    check_value_type<uint64_t>();
}

TEST(RadixSort, EqualKeysKeepInputOrder) {
    // Hand-checkable case: keys with repeats, values record the input position.
    Array k = Array::from_vector(std::vector<int32_t>{3, -1, 3, 0, -1, 3, 0});
    Array v = Array::from_vector(std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6});
    sort_by_key(k, &v);
    EXPECT_EQ(k.to_vector<int32_t>(), (std::vector<int32_t>{-1, -1, 0, 0, 3, 3, 3}));
    EXPECT_EQ(v.to_vector<int32_t>(), (std::vector<int32_t>{1, 4, 3, 6, 0, 2, 5}));
}

TEST(RadixSort, ExtremeIntegersAndZerosOfBothSigns) {
    const int64_t lo = std::numeric_limits<int64_t>::min(),
                  hi = std::numeric_limits<int64_t>::max();
    Array k = Array::from_vector(std::vector<int64_t>{hi, 0, lo, -1, 1, lo, hi});
    sort_by_key(k);
    EXPECT_EQ(k.to_vector<int64_t>(), (std::vector<int64_t>{lo, lo, -1, 0, 1, hi, hi}));

    Array u = Array::from_vector(std::vector<uint64_t>{~0ull, 0, 1ull << 63, 5});
    sort_by_key(u);
    EXPECT_EQ(u.to_vector<uint64_t>(), (std::vector<uint64_t>{0, 5, 1ull << 63, ~0ull}));

    // -0.0 and +0.0 are equal keys: they keep their input order and their signs.
    Array f = Array::from_vector(std::vector<double>{0.0, -1.0, -0.0, 2.0, 0.0, -0.0});
    Array fv = arange(6, DType::Int32);
    sort_by_key(f, &fv);
    std::vector<double> got = f.to_vector<double>();
    EXPECT_EQ(fv.to_vector<int32_t>(), (std::vector<int32_t>{1, 0, 2, 4, 5, 3}));
    EXPECT_EQ(got[0], -1.0);
    EXPECT_EQ((std::vector<bool>{std::signbit(got[1]), std::signbit(got[2]), std::signbit(got[3]),
                                 std::signbit(got[4])}),
              (std::vector<bool>{false, true, false, true}));
}

TEST(RadixSort, NaNsSortLastInInputOrder) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Array k = Array::from_vector(std::vector<float>{nan, 2.f, -nan, -3.f, 1.f, nan});
    Array v = arange(6, DType::Int64);
    sort_by_key(k, &v);
    std::vector<float> got = k.to_vector<float>();
    EXPECT_EQ(std::vector<float>(got.begin(), got.begin() + 3),
              (std::vector<float>{-3.f, 1.f, 2.f}));
    EXPECT_TRUE(std::isnan(got[3]) && std::isnan(got[4]) && std::isnan(got[5]));
    EXPECT_EQ(v.to_vector<int64_t>(), (std::vector<int64_t>{3, 4, 1, 0, 2, 5}));
}

// The host sort looks at every bit whatever key_bits says; the bound is checked everywhere.
TEST(RadixSort, KeyBitsSortTheLowBitsOnly) {
    testing_util::expect_key_bits_sort<int32_t>(nullptr, 70001);
    Array k = Array::from_vector(std::vector<int32_t>{3, 1, 2});
    SortOptions wide;
    wide.key_bits = 33;
    EXPECT_THROW(sort_by_key(k, nullptr, wide), UsageError);
    wide.key_bits = -1;
    EXPECT_THROW(sort_by_key(k, nullptr, wide), UsageError);
}

TEST(RadixSort, MismatchedArraysAreUsageErrors) {
    Array k = Array::from_vector(std::vector<int32_t>{3, 1, 2});
    Array v = Array::from_vector(std::vector<int32_t>{1, 2});
    EXPECT_THROW(sort_by_key(k, &v), UsageError);
    EXPECT_THROW(argsort(k, DType::Float32), UsageError);
    EXPECT_EQ(k.to_vector<int32_t>(), (std::vector<int32_t>{3, 1, 2})); // untouched on error
}

} // namespace
} // namespace smelt
