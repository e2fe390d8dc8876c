// Elementwise functions with loops (ElementwiseWrapper::loops): GPU targets run them one item
// per thread even with distinct arrays. Checked on the generated source of the test backend and
// on the results, against a hand-written loop.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

using namespace testing_util;

// row_sums(i, x, y, m): y[i] = sum of row i of the n x m matrix x, through a helper that loops.
TEST(ElementwiseLoops, ALoopInACalledFunctionGivesOneItemPerThread) {
    const int32_t m = 7;
    for (size_t n : {size_t(1), size_t(1000), size_t(300001)}) {
        const std::vector<double> x = small_values<double>(n * m, -50, 50, unsigned(n));
        Array xd = to_device(x);
        Array y = zeros(n, DType::Float64, &test_device());
        Elementwise sums(kernels(), "row_sums", test_options());
        sums(int64_t(n), {xd, y, m});
        std::vector<double> want(n);
        for (size_t i = 0; i < n; ++i)
            for (int32_t k = 0; k < m; ++k)
                want[i] += x[i * size_t(m) + size_t(k)];
        EXPECT_EQ(y.to_vector<double>(), want) << "n = " << n;
        const std::string &src = sums.source();
        if (test_backend() == "cuda" || test_backend() == "opencl") {
            // Distinct arrays, so restrict pointers; the loop leaves one entry, one item each.
            EXPECT_NE(src.find("loops: one item per"), std::string::npos) << src;
            EXPECT_EQ(src.find(elementwise_each_entry()), std::string::npos) << src;
            EXPECT_EQ(src.find("smelt_base"), std::string::npos) << src;
        }
    }
}

// A function without loops keeps the tiled form on GPU targets (its second entry included).
TEST(ElementwiseLoops, StraightLineFunctionsStayTiled) {
    if (test_backend() != "cuda" && test_backend() != "opencl")
        GTEST_SKIP() << "the tiled form is a GPU target's (test backend: " << test_backend() << ")";
    Array x = to_device(small_values<double>(1000, 0, 9, 1));
    Array y = zeros(1000, DType::Float64, &test_device());
    Elementwise sq(kernels(), "scale_shift", test_options());
    sq({x, y, 2.0, 1.0});
    EXPECT_NE(sq.source().find(elementwise_each_entry()), std::string::npos) << sq.source();
    EXPECT_NE(sq.source().find("smelt_base"), std::string::npos) << sq.source();
}

} // namespace
} // namespace smelt
