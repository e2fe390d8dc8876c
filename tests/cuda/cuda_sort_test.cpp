// sort_by_key and argsort on the GPU (CUB; skipped without a GPU) against std::stable_sort:
// every key dtype, values of 1, 4 and 8 bytes or none, -0.0/+0.0 kept in input order with their
// signs, NaNs last as the canonical NaN, the edge sizes.
#include "cuda_test_util.h"
#include "runtime/sort_key_bits.h"

#ifdef SMELT_HAVE_CUDA

#include "primitives/radix_keys.h"
#include "primitives/radix_sort.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

namespace smelt {
namespace {

using namespace testing_util;

// Keys with many duplicates; floats also get -0.0, +0.0, infinities and NaNs of both signs.
template <class K> std::vector<K> make_keys(size_t n, unsigned seed) {
    std::mt19937_64 gen(seed);
    std::vector<K> k(n);
    for (size_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<K>) {
            switch (gen() % 8) {
            case 0:
                k[i] = K(-0.0);
                break;
            case 1:
                k[i] = K(0.0);
                break;
            case 2:
                k[i] = (gen() & 1) ? std::numeric_limits<K>::quiet_NaN()
                                   : -std::numeric_limits<K>::quiet_NaN();
                break;
            case 3:
                k[i] = (gen() & 1) ? std::numeric_limits<K>::infinity()
                                   : -std::numeric_limits<K>::infinity();
                break;
            default:
                k[i] = K(int64_t(gen() % 2001) - 1000) / K(8);
            }
        } else {
            k[i] = static_cast<K>(gen()); // full range: negatives included
            if (gen() % 3 == 0) k[i] = static_cast<K>(gen() % 7);
        }
    }
    return k;
}

template <class K> bool less(K a, K b) {
    return radix::KeyMap<K>::map(a) < radix::KeyMap<K>::map(b);
}

// The stable order of the keys, by the CPU sort's key order.
template <class K> std::vector<size_t> stable_order(const std::vector<K> &keys) {
    std::vector<size_t> idx(keys.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](size_t a, size_t b) { return less(keys[a], keys[b]); });
    return idx;
}

template <class K> K canonical(K k) {
    if constexpr (std::is_floating_point_v<K>)
        if (std::isnan(k)) return radix::KeyMap<K>::unmap(~typename radix::KeyMap<K>::U(0));
    return k;
}

template <class T>
void expect_bits(const std::vector<T> &got, const std::vector<T> &want, const std::string &what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(T)), 0) << what << " at " << i;
}

template <class K, class V> void sort_case(Backend &dev, size_t n, bool with_values) {
    const std::string what = std::string(dtype_name(dtype_of<K>())) + " keys, " +
                             (with_values ? dtype_name(dtype_of<V>()) : "no") +
                             " values, n = " + std::to_string(n);
    const auto keys = make_keys<K>(n, unsigned(n * 7 + sizeof(K) + sizeof(V)));
    std::vector<V> values(n);
    for (size_t i = 0; i < n; ++i)
        values[i] = static_cast<V>(i * 2654435761u);
    const auto order = stable_order(keys);
    std::vector<K> want_k(n);
    std::vector<V> want_v(n);
    for (size_t j = 0; j < n; ++j) {
        want_k[j] = canonical(keys[order[j]]);
        want_v[j] = values[order[j]];
    }
    Array K_ = Array::from_vector(keys, &dev), V_ = Array::from_vector(values, &dev);
    sort_by_key(K_, with_values ? &V_ : nullptr);
    expect_bits(K_.to_vector<K>(), want_k, what + ": keys");
    if (with_values) expect_bits(V_.to_vector<V>(), want_v, what + ": values");

    Array keys_again = Array::from_vector(keys, &dev);
    for (DType idx : {DType::Int64, DType::Int32}) {
        Array perm = argsort(keys_again, idx);
        std::vector<int64_t> got(n);
        if (idx == DType::Int64) {
            got = perm.to_vector<int64_t>();
        } else {
            auto g32 = perm.to_vector<int32_t>();
            std::copy(g32.begin(), g32.end(), got.begin());
        }
        std::vector<int64_t> want(order.begin(), order.end());
        ASSERT_EQ(got, want) << what << ": argsort " << dtype_name(idx);
    }
    expect_bits(keys_again.to_vector<K>(), keys, what + ": argsort leaves its keys alone");
}

template <class K> void all_value_kinds(Backend &dev, size_t n) {
    sort_case<K, uint32_t>(dev, n, false);
    sort_case<K, int32_t>(dev, n, true);
    sort_case<K, double>(dev, n, true);
    sort_case<K, uint8_t>(dev, n, true);
}

TEST(CudaSort, EveryKeyDtypeAgainstStdStableSort) {
    SMELT_REQUIRE_CUDA();
    for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(33), size_t(4097)}) {
        all_value_kinds<int8_t>(cuda_dev, n);
        all_value_kinds<uint8_t>(cuda_dev, n);
        all_value_kinds<int16_t>(cuda_dev, n);
        all_value_kinds<uint16_t>(cuda_dev, n);
        all_value_kinds<int32_t>(cuda_dev, n);
        all_value_kinds<uint32_t>(cuda_dev, n);
        all_value_kinds<int64_t>(cuda_dev, n);
        all_value_kinds<uint64_t>(cuda_dev, n);
        all_value_kinds<float>(cuda_dev, n);
        all_value_kinds<double>(cuda_dev, n);
    }
}

TEST(CudaSort, LargeInputs) {
    SMELT_REQUIRE_CUDA();
    const size_t n = (size_t(1) << 21) + 3;
    sort_case<int32_t, int32_t>(cuda_dev, n, true);
    sort_case<float, int64_t>(cuda_dev, n, true);
    sort_case<uint64_t, uint32_t>(cuda_dev, n, true);
}

TEST(CudaSort, KeyBitsSortTheLowBitsOnly) {
    SMELT_REQUIRE_CUDA();
    for (size_t n : {size_t(33), size_t(70001)}) {
        testing_util::expect_key_bits_sort<int32_t>(&cuda_dev, n);
        testing_util::expect_key_bits_sort<uint32_t>(&cuda_dev, n);
        testing_util::expect_key_bits_sort<int64_t>(&cuda_dev, n);
    }
}

TEST(CudaSort, MistakesAreUsageErrors) {
    SMELT_REQUIRE_CUDA();
    Array k = Array::from_vector(std::vector<int32_t>{3, 1, 2}, &cuda_dev);
    Array short_v = Array::from_vector(std::vector<int32_t>{1, 2}, &cuda_dev);
    EXPECT_THROW(sort_by_key(k, &short_v), UsageError);
    EXPECT_THROW(argsort(k, DType::Float32), UsageError);
}

} // namespace
} // namespace smelt

#endif
