// Scan against std::inclusive_scan / std::exclusive_scan and hand-written segmented loops: item,
// prev_item, last_item, segments, in-place output, every array dtype and the edge sizes.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace smelt {
namespace {

using namespace testing_util;

template <class T> void inclusive_all_sizes() {
    Scan scan(kernels(), "ident", "store_item", "a+b", dtype_of<T>(), "0", "", test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<T>(n, 0, 9, unsigned(n) + 17);
        std::vector<T> want(n);
        std::inclusive_scan(v.begin(), v.end(), want.begin());
        Array y = to_device(std::vector<T>(n, T(77)));
        scan({{"x", to_device(v)}, {"y", y}});
        ASSERT_EQ(y.template to_vector<T>(), want) << dtype_name(dtype_of<T>()) << " n = " << n;
    }
}

TEST(Scan, InclusiveEveryDtypeAndEdgeSize) {
    inclusive_all_sizes<int32_t>();
    inclusive_all_sizes<int64_t>();
    inclusive_all_sizes<uint32_t>();
    inclusive_all_sizes<float>();
    inclusive_all_sizes<double>();
}

TEST(Scan, ExclusiveViaPrevItem) {
    Scan scan(kernels(), "ident", "store_prev", "a+b", DType::Int64, "0", "", test_options());
    Scan mscan(kernels(), "ident", "store_prev", "max(a, b)", DType::Float64, "-inf", "",
               test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<int64_t>(n, -5, 9, unsigned(n) + 2);
        std::vector<int64_t> want(n);
        std::exclusive_scan(v.begin(), v.end(), want.begin(), int64_t(0));
        Array y = to_device(std::vector<int64_t>(n, -1));
        scan({{"x", to_device(v)}, {"y", y}});
        ASSERT_EQ(y.to_vector<int64_t>(), want) << n;

        auto d = small_values<double>(n, -1000, 1000, unsigned(n) + 8);
        std::vector<double> dwant(n);
        double run = -std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < n; ++i) {
            dwant[i] = run;
            run = std::max(run, d[i]);
        }
        Array dy = to_device(std::vector<double>(n, 0.0));
        mscan({{"x", to_device(d)}, {"y", dy}});
        ASSERT_EQ(dy.to_vector<double>(), dwant) << n;
    }
}

// item, prev_item and last_item of a (segmented) inclusive sum, by a plain loop.
template <class T> struct Expected { std::vector<T> item, prev, last; };
template <class T>
Expected<T> reference(const std::vector<T> &v, const std::vector<int32_t> *flags) {
    const size_t n = v.size();
    Expected<T> e{std::vector<T>(n), std::vector<T>(n), std::vector<T>(n)};
    T acc = 0;
    for (size_t i = 0; i < n; ++i) {
        bool start = i == 0 || (flags && (*flags)[i] != 0);
        e.prev[i] = start ? T(0) : acc;
        acc = start ? v[i] : T(acc + v[i]);
        e.item[i] = acc;
    }
    for (auto &x : e.last)
        x = n ? e.item[n - 1] : T(0);
    return e;
}

template <class T> void all_outputs(bool segmented) {
    Scan scan(kernels(), "ident", "store_all", "a+b", dtype_of<T>(), "0",
              segmented ? "seg_start" : "", test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<T>(n, 0, 9, unsigned(n) + 29);
        auto flags = small_values<int32_t>(n, 0, 40, unsigned(n) + 31);
        for (auto &f : flags)
            f = f == 0;              // segments of about 40 items
        if (n > 2) flags[n - 1] = 1; // a one-item final segment
        Expected<T> want = reference(v, segmented ? &flags : nullptr);
        Array y = to_device(std::vector<T>(n)), yp = to_device(std::vector<T>(n)),
              last = to_device(std::vector<T>(n));
        std::map<std::string, Arg> args = {
            {"x", to_device(v)}, {"y", y}, {"yp", yp}, {"last", last}};
        if (segmented) args.emplace("flags", to_device(flags));
        scan(args);
        const char *what = segmented ? "segmented" : "plain";
        ASSERT_EQ(y.template to_vector<T>(), want.item) << what << " item, n = " << n;
        ASSERT_EQ(yp.template to_vector<T>(), want.prev) << what << " prev_item, n = " << n;
        ASSERT_EQ(last.template to_vector<T>(), want.last) << what << " last_item, n = " << n;
    }
}

TEST(Scan, ItemPrevItemLastItem) {
    all_outputs<int32_t>(false);
    all_outputs<float>(false);
}

TEST(Scan, SegmentedEveryDtype) {
    all_outputs<int32_t>(true);
    all_outputs<int64_t>(true);
    all_outputs<uint32_t>(true);
    all_outputs<float>(true);
    all_outputs<double>(true);
}

// Output without last_item (on CUDA: the single-pass look-back scan): segments that cross
// tile boundaries, a one-item final segment, sizes of many tiles (2^20 + 3: 586 CUDA tiles)
// with a partial last one.
template <class T> void item_and_prev(bool segmented) {
    Scan scan(kernels(), "ident", "store_item_prev", "a+b", dtype_of<T>(), "0",
              segmented ? "seg_start" : "", test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<T>(n, 0, 9, unsigned(n) + 41);
        auto flags = small_values<int32_t>(n, 0, 5000, unsigned(n) + 43);
        for (auto &f : flags)
            f = f == 0;              // segments of about 5000 items: most cross a tile boundary
        if (n > 2) flags[n - 1] = 1; // a one-item final segment
        Expected<T> want = reference(v, segmented ? &flags : nullptr);
        Array y = to_device(std::vector<T>(n)), yp = to_device(std::vector<T>(n));
        std::map<std::string, Arg> args = {{"x", to_device(v)}, {"y", y}, {"yp", yp}};
        if (segmented) args.emplace("flags", to_device(flags));
        scan(args);
        const char *what = segmented ? "segmented" : "plain";
        ASSERT_EQ(y.template to_vector<T>(), want.item) << what << " item, n = " << n;
        ASSERT_EQ(yp.template to_vector<T>(), want.prev) << what << " prev_item, n = " << n;
    }
}

TEST(Scan, ItemAndPrevItemWithoutLastItem) {
    item_and_prev<int32_t>(false);
    item_and_prev<int32_t>(true);
    item_and_prev<int64_t>(true);
    item_and_prev<uint32_t>(true);
    item_and_prev<float>(true);
    item_and_prev<double>(false);
    item_and_prev<double>(true);
}

// "b if b != 0 else a" (the last non-zero value so far) is associative but not commutative: a
// combine out of index order anywhere (within a tile or across tiles) shows.
TEST(Scan, NonCommutativeCombineKeepsIndexOrder) {
    for (const char *seg : {"", "seg_start"}) {
        Scan scan(kernels(), "ident", "store_item_prev", "b if b != 0 else a", DType::Int64, "0",
                  seg, test_options());
        const bool segmented = *seg != 0;
        for (size_t n : {size_t(1), size_t(1793), size_t(65537), size_t(300007)}) {
            auto v = small_values<int64_t>(n, -3, 3, unsigned(n) + 5);
            for (size_t i = 0; i < n; ++i)
                if (i % 997 != 5) v[i] = 0; // long runs of zeros: values travel far
            auto flags = small_values<int32_t>(n, 0, 3000, unsigned(n) + 6);
            std::vector<int64_t> item(n), prev(n);
            int64_t acc = 0;
            for (size_t i = 0; i < n; ++i) {
                const bool start = i == 0 || (segmented && flags[i] == 0);
                prev[i] = start ? 0 : acc;
                acc = start ? v[i] : (v[i] != 0 ? v[i] : acc);
                item[i] = acc;
            }
            for (auto &f : flags)
                f = f == 0;
            Array y = to_device(std::vector<int64_t>(n)), yp = to_device(std::vector<int64_t>(n));
            std::map<std::string, Arg> args = {{"x", to_device(v)}, {"y", y}, {"yp", yp}};
            if (segmented) args.emplace("flags", to_device(flags));
            scan(args);
            ASSERT_EQ(y.to_vector<int64_t>(), item) << seg << " n = " << n;
            ASSERT_EQ(yp.to_vector<int64_t>(), prev) << seg << " n = " << n;
        }
    }
}

TEST(Scan, OutputOverwritesInputInSegments) {
    Scan scan(kernels(), "ident", "in_place", "a+b", DType::Int32, "0", "seg_start",
              test_options());
    for (size_t n : {size_t(1), size_t(1792), size_t(1793), size_t(500001)}) {
        auto v = small_values<int32_t>(n, -9, 9, unsigned(n) + 11);
        auto flags = small_values<int32_t>(n, 0, 2500, unsigned(n) + 12);
        for (auto &f : flags)
            f = f == 0;
        Expected<int32_t> want = reference(v, &flags);
        Array x = to_device(v);
        scan({{"x", x}, {"flags", to_device(flags)}}); // input reads x, output writes x
        ASSERT_EQ(x.to_vector<int32_t>(), want.item) << n;
    }
}

TEST(Scan, OutputOverwritesInput) {
    Scan scan(kernels(), "ident", "in_place", "a+b", DType::Float64, "0", "", test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<double>(n, -9, 9, unsigned(n) + 3);
        std::vector<double> want(n);
        std::inclusive_scan(v.begin(), v.end(), want.begin());
        Array x = to_device(v);
        scan({{"x", x}}); // input reads x, output writes x
        ASSERT_EQ(x.to_vector<double>(), want) << n;
    }
}

TEST(Scan, ScalarArgumentAndItemCount) {
    Scan scan(kernels(), "scaled", "store_reversed", "a+b", DType::Int64, "0", "", test_options());
    for (size_t n : {size_t(1), size_t(2), size_t(257), size_t(65537)}) {
        auto v = small_values<int32_t>(n, -9, 9, unsigned(n));
        std::vector<int64_t> want(n), scaled(n);
        for (size_t i = 0; i < n; ++i)
            scaled[i] = 3 * int64_t(v[i]);
        std::inclusive_scan(scaled.begin(), scaled.end(), want.begin());
        std::reverse(want.begin(), want.end()); // output writes y[N - 1 - i]
        Array y = to_device(std::vector<int64_t>(n, 0));
        scan({{"x", to_device(v)}, {"k", int32_t(3)}, {"y", y}});
        ASSERT_EQ(y.to_vector<int64_t>(), want) << n;
    }
}

TEST(Scan, ExplicitCountAndMistakes) {
    Scan scan(kernels(), "ident", "store_item", "a+b", DType::Int32, "0", "", test_options());
    auto v = small_values<int32_t>(100, 0, 9, 5);
    Array y = to_device(std::vector<int32_t>(100, -1));
    scan({{"x", to_device(v)}, {"y", y}}, 10);
    auto got = y.to_vector<int32_t>();
    std::vector<int32_t> want(10);
    std::inclusive_scan(v.begin(), v.begin() + 10, want.begin());
    EXPECT_EQ(std::vector<int32_t>(got.begin(), got.begin() + 10), want);
    EXPECT_EQ(got[10], -1);

    Array x = to_device(v);
    EXPECT_THROW(scan({{"x", x}}), UsageError);                        // y missing
    EXPECT_THROW(scan({{"x", x}, {"y", y}, {"z", x}}), UsageError);    // unknown name
    EXPECT_THROW(scan({{"x", x}, {"y", y}, {"item", x}}), UsageError); // supplied by scan
    EXPECT_THROW(
        Scan(kernels(), "store_item", "store_item", "a+b", DType::Int32, "0", "", test_options()),
        UsageError); // input cannot take item
    EXPECT_THROW(Scan(kernels(), "ident", "nope", "a+b", DType::Int32, "0", "", test_options()),
                 UsageError);
    try {
        Scan bad(kernels(), "ident", "store_item", "a ++", DType::Int32, "0", "", test_options());
        FAIL();
    } catch (const CompileError &e) {
        EXPECT_EQ(e.diagnostics().at(0).file, "<scan_expr>");
    }
}

// An array shorter than the item count used to be read or written past its end: where the input
// or output function indexes it at i, the call is refused.
TEST(Scan, ShortArraysIndexedAtIAreUsageErrors) {
    Scan scan(kernels(), "ident", "store_item", "a+b", DType::Float64, "0", "", test_options());
    Array x = full(100, 1.0, DType::Float64, &test_device());
    Array y = zeros(60, DType::Float64, &test_device());
    try {
        scan({{"x", x}, {"y", y}});
        FAIL() << "a short output array was scanned into";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("the scan indexes 'y' at every item i < 100, but 'y' "
                                             "has 60 elements"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(y.to_vector<double>(), std::vector<double>(60, 0.0));
    Array z = zeros(100, DType::Float64, &test_device());
    scan({{"x", x}, {"y", z}});
    EXPECT_EQ(z.to_vector<double>()[99], 100.0);
}

} // namespace
} // namespace smelt
