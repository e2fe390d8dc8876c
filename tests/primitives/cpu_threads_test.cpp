// smelt::cpu_threads / set_cpu_threads and Options::threads: the count the CPU backend runs
// with. Observed through a reduction whose combine (a - b) is not associative, so its result
// shows how the range was split: one contiguous chunk per thread, each folded from its first
// element, the chunk results folded in order (the algorithm smelt.h documents).
#include "primitive_test_util.h"
#include "runtime/runtime_test_util.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

using namespace testing_util;

// What the documented algorithm gives for a - b over n ones with t threads.
int64_t chunked_difference(int64_t n, int64_t t) {
    int64_t total = 0;
    for (int64_t k = 0; k < t; ++k) {
        const int64_t len = n / t + (k < n % t ? 1 : 0);
        const int64_t chunk = 1 - (len - 1); // 1 - 1 - 1 ... over the chunk
        total = k == 0 ? chunk : total - chunk;
    }
    return total;
}

class CpuThreads : public ::testing::Test {
protected:
    void SetUp() override {
        if (test_backend() != "cpu") GTEST_SKIP() << "the CPU backend's threads";
        saved_ = cpu_threads();
    }
    void TearDown() override {
        if (saved_ > 0) set_cpu_threads(saved_);
    }
    int saved_ = 0;
};

TEST_F(CpuThreads, TheCountDecidesHowReductionsSplitTheRange) {
    const int64_t n = 12;
    Array ones = Array::from_vector(std::vector<int64_t>(n, 1), &test_device());
    Reduction diff(nullptr, "a-b", "", DType::Int64, "0", test_options());
    ASSERT_NE(chunked_difference(n, 1), chunked_difference(n, 3));
    for (int t : {1, 3, 2}) {
        set_cpu_threads(t);
        EXPECT_EQ(cpu_threads(), t);
        EXPECT_EQ(diff({ones}).as<int64_t>(), chunked_difference(n, t)) << t << " threads";
    }
    // Options::threads sets the same count when a primitive is made.
    Options o = test_options();
    o.threads = 3;
    Reduction diff3(nullptr, "a-b", "", DType::Int64, "0", o);
    EXPECT_EQ(cpu_threads(), 3);
    EXPECT_EQ(diff3({ones}).as<int64_t>(), chunked_difference(n, 3));
    EXPECT_EQ(diff({ones}).as<int64_t>(), chunked_difference(n, 3)) << "process-wide";
}

TEST_F(CpuThreads, ZeroRestoresTheDefaultAndNegativeIsAUsageError) {
    ScopedEnv env("SMELT_NUM_THREADS", "3");
    set_cpu_threads(1);
    set_cpu_threads(0);
    EXPECT_EQ(cpu_threads(), 3);
    EXPECT_THROW(set_cpu_threads(-1), UsageError);
    Options o = test_options();
    o.threads = -2;
    EXPECT_THROW(Elementwise(kernels(), "kernel", o), UsageError);
}

} // namespace
} // namespace smelt
