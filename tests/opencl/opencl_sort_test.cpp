// The device radix sort of OpenCL arrays against std::stable_sort on (key, position) pairs with
// operator<: every key dtype, keys alone, keys with values, argsort with both index types. Keys
// are compared bit for bit (zeros keep their signs, NaNs their payloads).
#include "opencl_test_util.h"
#include "runtime/sort_key_bits.h"

#include <gtest/gtest.h>

#ifdef SMELT_HAVE_OPENCL

#include "array/array_ops.h"
#include "primitives/radix_sort.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace smelt {
namespace {

// Bit-for-bit equality (NaN keys keep their bits); memcmp must not see the null data of an empty
// vector.
template <class K> bool same_bits(const std::vector<K> &a, const std::vector<K> &b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(K)) == 0);
}

// Wide keys over the whole range, or few distinct ones (so stability shows); floats include
// zeros of both signs, infinities and NaNs.
template <class K> std::vector<K> make_keys(size_t n, bool narrow, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<K> keys(n);
    for (auto &k : keys) {
        if constexpr (std::is_floating_point_v<K>) {
            const K pool[] = {-std::numeric_limits<K>::infinity(),
                              K(-2.5),
                              K(-0.0),
                              K(0.0),
                              K(1),
                              std::numeric_limits<K>::infinity(),
                              std::numeric_limits<K>::quiet_NaN()};
            if (narrow)
                k = pool[rng() % 7];
            else
                k = static_cast<K>(std::ldexp(double(int64_t(rng() % 2000001) - 1000000) / 1e6,
                                              int(rng() % 80) - 40));
        } else {
            k = static_cast<K>(narrow ? rng() % 7 : rng());
        }
    }
    return keys;
}

// Stable order by operator<, with NaNs last (as the sort defines).
template <class K> std::vector<int64_t> reference_order(const std::vector<K> &keys) {
    std::vector<int64_t> idx(keys.size());
    for (size_t i = 0; i < idx.size(); ++i)
        idx[i] = int64_t(i);
    auto is_nan = [](K k) {
        if constexpr (std::is_floating_point_v<K>)
            return std::isnan(k);
        else
            return false;
    };
    std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) {
        if (is_nan(keys[a]) || is_nan(keys[b])) return !is_nan(keys[a]) && is_nan(keys[b]);
        return keys[a] < keys[b];
    });
    return idx;
}

template <class K> void check_dtype(opencl::OpenCLBackend *cl, const std::vector<size_t> &sizes) {
    for (size_t n : sizes) {
        for (bool narrow : {false, true}) {
            SCOPED_TRACE(::testing::Message() << dtype_name(dtype_of<K>()) << " n=" << n
                                              << (narrow ? " narrow" : " wide"));
            const std::vector<K> keys = make_keys<K>(n, narrow, n * 3 + narrow);
            const std::vector<int64_t> order = reference_order(keys);
            std::vector<K> want(n);
            for (size_t i = 0; i < n; ++i)
                want[i] = keys[order[i]];

            Array k = Array::from_vector(keys, cl);
            Array v = arange(int64_t(n), DType::Int64, cl);
            sort_by_key(k, &v);
            std::vector<K> got = k.to_vector<K>();
            ASSERT_TRUE(same_bits(got, want));
            ASSERT_EQ(v.to_vector<int64_t>(), order);

            Array alone = Array::from_vector(keys, cl);
            sort_by_key(alone);
            got = alone.to_vector<K>();
            ASSERT_TRUE(same_bits(got, want));

            Array kk = Array::from_vector(keys, cl);
            ASSERT_EQ(argsort(kk, DType::Int64).to_vector<int64_t>(), order);
            std::vector<int32_t> order32(order.begin(), order.end());
            ASSERT_EQ(argsort(kk, DType::Int32).to_vector<int32_t>(), order32);
            got = kk.to_vector<K>(); // argsort leaves the keys alone
            ASSERT_TRUE(same_bits(got, keys));
        }
    }
}

const std::vector<size_t> kSmall = {0, 1, 2, 31, 33, 255, 257, 4097};
const std::vector<size_t> kLarge = {0, 1, 2, 31, 33, 255, 257, 4097, 65537, (size_t(1) << 20) + 3};

TEST(OpenCLRadixSort, MatchesStableSortEveryDtype) {
    SMELT_OPENCL_OR_SKIP(cl);
    check_dtype<int8_t>(cl, kSmall);
    check_dtype<uint8_t>(cl, kSmall);
    check_dtype<int16_t>(cl, kSmall);
    check_dtype<uint16_t>(cl, kSmall);
    check_dtype<int32_t>(cl, kLarge);
    check_dtype<uint32_t>(cl, kSmall);
    check_dtype<int64_t>(cl, kSmall);
    check_dtype<uint64_t>(cl, kSmall);
    check_dtype<float>(cl, kLarge);
    check_dtype<double>(cl, kSmall);
}

TEST(OpenCLRadixSort, KeyBitsSortTheLowBitsOnly) {
    SMELT_OPENCL_OR_SKIP(cl);
    for (size_t n : {size_t(33), size_t(70001)}) {
        testing_util::expect_key_bits_sort<int32_t>(cl, n);
        testing_util::expect_key_bits_sort<uint32_t>(cl, n);
        testing_util::expect_key_bits_sort<int64_t>(cl, n);
    }
}

TEST(OpenCLRadixSort, ValuesOfEverySizeMoveWithKeys) {
    SMELT_OPENCL_OR_SKIP(cl);
    const size_t n = 70001;
    const std::vector<int32_t> keys = make_keys<int32_t>(n, true, 5);
    const std::vector<int64_t> order = reference_order(keys);
    auto check = [&]<class V>() {
        std::vector<V> values(n);
        for (size_t i = 0; i < n; ++i)
            values[i] = static_cast<V>(i * 3 + 1);
        Array k = Array::from_vector(keys, cl), v = Array::from_vector(values, cl);
        sort_by_key(k, &v);
        std::vector<V> want(n);
        for (size_t i = 0; i < n; ++i)
            want[i] = values[order[i]];
        EXPECT_EQ(v.to_vector<V>(), want) << dtype_name(dtype_of<V>());
    };
    check.operator()<uint8_t>();
    check.operator()<int16_t>();
    check.operator()<float>();
    check.operator()<double>();
}

TEST(OpenCLRadixSort, ZerosKeepSignsAndNaNsGoLast) {
    SMELT_OPENCL_OR_SKIP(cl);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Array k = Array::from_vector(std::vector<float>{nan, 0.f, -0.f, -3.f, -nan, 0.f}, cl);
    Array v = arange(6, DType::Int32, cl);
    sort_by_key(k, &v);
    std::vector<float> got = k.to_vector<float>();
    EXPECT_EQ(v.to_vector<int32_t>(), (std::vector<int32_t>{3, 1, 2, 5, 0, 4}));
    EXPECT_EQ(got[0], -3.f);
    EXPECT_FALSE(std::signbit(got[1]));
    EXPECT_TRUE(std::signbit(got[2]));
    EXPECT_TRUE(std::isnan(got[4]) && std::isnan(got[5]));
}

} // namespace
} // namespace smelt

#else

TEST(OpenCLRadixSort, Skipped) {
    GTEST_SKIP() << "no OpenCL device: smelt was built without OpenCL";
}

#endif
