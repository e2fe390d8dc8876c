// Reduction against std::accumulate and hand-written loops: sums, min, max, with and without a
// map function, every array dtype, the edge sizes, and bit-identical repeated runs.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace smelt {
namespace {

using namespace testing_util;

template <class T> void sum_all_sizes() {
    Reduction sum(nullptr, "a+b", "", dtype_of<T>(), "0", test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<T>(n, 0, 9, unsigned(n) + 1);
        Value r = sum({to_device(v)});
        EXPECT_EQ(r.dtype(), dtype_of<T>());
        EXPECT_EQ(r.as<T>(), std::accumulate(v.begin(), v.end(), T(0))) << "n = " << n;
    }
}

TEST(Reduction, SumEveryDtypeAndEdgeSize) {
    sum_all_sizes<int32_t>();
    sum_all_sizes<int64_t>();
    sum_all_sizes<uint32_t>();
    sum_all_sizes<float>();
    sum_all_sizes<double>();
}

TEST(Reduction, SumWrapsLikeTheDtype) {
    Reduction sum(nullptr, "a+b", "", DType::UInt32, "0", test_options());
    std::vector<uint32_t> v(1000, 0xF0000000u);
    uint32_t want = std::accumulate(v.begin(), v.end(), uint32_t(0));
    EXPECT_EQ(sum({to_device(v)}).as<uint32_t>(), want);
}

template <class T> void min_max_all_sizes(const std::string &lo, const std::string &hi) {
    Reduction mn(nullptr, "min(a, b)", "", dtype_of<T>(), hi, test_options());
    Reduction mx(nullptr, "max(a, b)", "", dtype_of<T>(), lo, test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<T>(n, -100000, 100000, unsigned(n) + 5);
        Array a = to_device(v);
        if (n == 0) continue; // the neutral elements, checked below
        EXPECT_EQ(mn({a}).as<T>(), *std::min_element(v.begin(), v.end())) << n;
        EXPECT_EQ(mx({a}).as<T>(), *std::max_element(v.begin(), v.end())) << n;
    }
}

TEST(Reduction, MinAndMax) {
    min_max_all_sizes<int32_t>("-2147483648", "2147483647");
    min_max_all_sizes<double>("-inf", "inf");
    Reduction mn(nullptr, "min(a, b)", "", DType::Int32, "2147483647", test_options());
    EXPECT_EQ(mn({zeros(0, DType::Int32, &test_device())}).as<int32_t>(), 2147483647);
    Reduction mx(nullptr, "max(a, b)", "", DType::Float32, "-INFINITY", test_options());
    EXPECT_EQ(mx({zeros(0, DType::Float32, &test_device())}).as<float>(),
              -std::numeric_limits<float>::infinity());
}

TEST(Reduction, MapFunction) {
    const Program &p = kernels();
    Reduction sumsq(&p, "a+b", "sq", DType::Float64, "0", test_options());
    Reduction isum(&p, "a+b", "sq", DType::Int64, "0", test_options());
    for (size_t n : edge_sizes()) {
        auto v = small_values<double>(n, -20, 20, unsigned(n) + 9);
        double want = 0;
        for (double x : v)
            want += x * x;
        EXPECT_EQ(sumsq({to_device(v)}).as<double>(), want) << n;
        auto w = small_values<int32_t>(n, -1000, 1000, unsigned(n) + 3);
        int64_t iwant = 0;
        for (int32_t x : w)
            iwant += int64_t(x * x);
        EXPECT_EQ(isum({to_device(w)}).as<int64_t>(), iwant) << n; // int32 products, int64 sum
    }
    EXPECT_NE(sumsq.source().find("sq(smelt_i, smelt_p0)"), std::string::npos) << sumsq.source();
}

TEST(Reduction, MapCallingAUserFunctionAndScalarArguments) {
    const Program &p = kernels();
    Reduction mx(&p, "max(a, b)", "clamped", DType::Float64, "-inf", test_options());
    std::vector<double> v = {-3.0, 0.25, 0.5, -1.0};
    EXPECT_EQ(mx({to_device(v)}).as<double>(), 0.5);
    v.push_back(7.0);
    EXPECT_EQ(mx({to_device(v)}).as<double>(), 1.0);

    Reduction tw(&p, "a+b", "twice", DType::Float64, "0", test_options());
    auto x = small_values<double>(5000, 0, 9, 4);
    double want = 0;
    for (double e : x)
        want += 3.0 * e;
    EXPECT_EQ(tw({to_device(x), 3.0}).as<double>(), want);
    EXPECT_EQ(tw({to_device(x), int32_t(3)}).as<double>(), want); // int k: another signature
}

TEST(Reduction, RepeatedRunsGiveIdenticalBits) {
    Reduction sum(nullptr, "a+b", "", DType::Float64, "0", test_options());
    std::mt19937 gen(42);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<double> v(300001);
    for (auto &x : v)
        x = dist(gen) * std::exp(dist(gen) * 20);
    Array a = to_device(v);
    const double first = sum({a}).as<double>();
    for (int k = 0; k < 5; ++k) {
        double again = sum({a}).as<double>();
        EXPECT_EQ(std::memcmp(&first, &again, sizeof first), 0);
    }
    // Rounding differs from a serial sum only by reassociation.
    double serial = std::accumulate(v.begin(), v.end(), 0.0);
    EXPECT_NEAR(first, serial, 1e-9 * std::abs(serial) + 1e-6);
}

TEST(Reduction, SinglePrecisionReducesInFloat) {
    Reduction sum(nullptr, "a+b", "", DType::Float64, "0", test_options(Precision::Single));
    auto v = small_values<float>(1025, 0, 9, 3);
    Value r = sum({to_device(v)});
    EXPECT_EQ(r.dtype(), DType::Float32);
    EXPECT_EQ(r.as<float>(), std::accumulate(v.begin(), v.end(), 0.0f));
    EXPECT_EQ(r.as<double>(), double(r.as<float>())); // as<T>() converts
    const size_t fn = sum.source().find("reduce_ab(float a, float b)");
    EXPECT_NE(fn, std::string::npos) << sum.source();
}

// start(): the value lands in the result Array, where a kernel queued after the call reads it,
// and get() brings the same value to the host.
TEST(Reduction, StartLeavesTheValueOnTheDeviceAndBringsItBack) {
    Reduction mx(nullptr, "max(a, b)", "", DType::Float64, "-inf", test_options());
    Elementwise plus_first(kernels(), "plus_first", test_options());
    for (size_t n : {size_t(1), size_t(33), size_t(300001)}) {
        auto v = small_values<double>(n, -100000, 100000, unsigned(n) + 2);
        const double want = *std::max_element(v.begin(), v.end());
        Array a = to_device(v);
        Array result = zeros(1, DType::Float64, &test_device());
        Array y = zeros(4, DType::Float64, &test_device());
        PendingValue pending = mx.start({a}, result);
        plus_first({y, result}); // queued behind the reduction, before the host has its value
        EXPECT_EQ(pending.get().as<double>(), want) << n;
        const auto got = y.to_vector<double>();
        for (size_t k = 0; k < got.size(); ++k)
            EXPECT_EQ(got[k], want + double(k)) << n;
        EXPECT_EQ(result.to_vector<double>()[0], want);
        EXPECT_EQ(mx({a}).as<double>(), want); // the waiting call agrees
    }
    // No elements: the neutral value.
    Array result = zeros(1, DType::Float64, &test_device());
    EXPECT_EQ(mx.start({zeros(0, DType::Float64, &test_device())}, result).get().as<double>(),
              -std::numeric_limits<double>::infinity());
}

TEST(Reduction, StartMisuseIsAUsageError) {
    Reduction sum(nullptr, "a+b", "", DType::Int64, "0", test_options());
    Array a = to_device(std::vector<int64_t>{1, 2, 3});
    Array result = zeros(1, DType::Int64, &test_device());
    PendingValue first = sum.start({a}, result);
    PendingValue second = sum.start({a}, result);
    EXPECT_THROW(first.get(), UsageError); // started again since
    EXPECT_EQ(second.get().as<int64_t>(), 6);
    EXPECT_THROW(PendingValue().get(), UsageError);
    EXPECT_THROW(sum.start({a}, zeros(1, DType::Float64, &test_device())), UsageError);
    EXPECT_THROW(sum.start({a}, zeros(0, DType::Int64, &test_device())), UsageError);
    // A pending value outlives its Reduction.
    PendingValue kept;
    {
        Reduction again(nullptr, "a+b", "", DType::Int64, "0", test_options());
        kept = again.start({a}, result);
    }
    EXPECT_EQ(kept.get().as<int64_t>(), 6);
}

TEST(Reduction, ExpressionMistakesAreLocated) {
    try {
        Reduction bad(nullptr, "a +* b", "", DType::Float64, "0", test_options());
        FAIL();
    } catch (const CompileError &e) {
        ASSERT_FALSE(e.diagnostics().empty());
        EXPECT_EQ(e.diagnostics()[0].file, "<reduce_expr>");
        EXPECT_NE(e.diagnostics()[0].rendered.find("a +* b"), std::string::npos);
    }
    EXPECT_THROW(Reduction(nullptr, "a + c", "", DType::Float64, "0", test_options()),
                 CompileError);
    EXPECT_THROW(Reduction(nullptr, "a+b", "sq", DType::Float64, "0", test_options()),
                 UsageError); // a map needs a program
    Reduction sum(nullptr, "a+b", "", DType::Float64, "0", test_options());
    EXPECT_THROW(sum({1.0}), UsageError);
    Array a = zeros(3, DType::Float64, &test_device());
    EXPECT_THROW(sum({a, a}), UsageError);
}

// An array shorter than the item count used to be read past its end.
TEST(Reduction, ShortArraysOfTheMapAreUsageErrors) {
    Reduction dot(&kernels(), "a+b", "products", DType::Float64, "0", test_options());
    Array x = full(64, 2.0, DType::Float64, &test_device());
    Array y = full(63, 3.0, DType::Float64, &test_device());
    try {
        dot({x, y});
        FAIL() << "a short array was reduced";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("the map function 'products' indexes 'y' at every "
                                             "item i < 64, but 'y' has 63 elements"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(dot({x, x}).as<double>(), 64 * 4.0);
}

} // namespace
} // namespace smelt
