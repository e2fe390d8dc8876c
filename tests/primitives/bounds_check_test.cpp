// The bounds-checked mode (Options::bounds_check, SMELT_BOUNDS_CHECK=1): an index out of range
// in an Elementwise kernel is reported after the launch as file.py:LINE, the array, the index
// and the array's length, on every backend; in-range kernels compute what they computed.
#include "primitive_test_util.h"
#include "runtime/runtime_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <string>

namespace smelt {
namespace {

using namespace testing_util;

// The line of tests/primitives/kernels.py that contains `text`.
int kernels_line(const std::string &text) {
    std::ifstream in(std::string(SMELT_TEST_DATA_DIR) + "/primitives/kernels.py");
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(text) != std::string::npos) return n;
    return -1;
}

Options checked_options() {
    Options o = test_options();
    o.bounds_check = true;
    return o;
}

std::string error_of(Elementwise &k, const std::vector<Arg> &args) {
    try {
        k(args);
    } catch (const UsageError &e) {
        return e.what();
    }
    return "no error";
}

TEST(BoundsCheck, AnIndexPastTheEndIsReportedWithFileLineArrayAndIndex) {
    const size_t n = 100;
    Elementwise shifted(kernels(), "shifted", checked_options());
    Array x = to_device(small_values<double>(n, -9, 9, 4));
    Array y = zeros(n, DType::Float64, &test_device());
    const std::string m = error_of(shifted, {x, y});
    const std::string where =
        "kernels.py:" + std::to_string(kernels_line("x[i + 3]")) + ": error: ";
    EXPECT_NE(m.find(where), std::string::npos) << m;
    // Items 97..99 read x[100..102]; which of them is recorded first depends on the schedule.
    EXPECT_TRUE(m.find("index 100 ") != std::string::npos ||
                m.find("index 101 ") != std::string::npos ||
                m.find("index 102 ") != std::string::npos)
        << m;
    EXPECT_NE(m.find("is out of range for 'x' (100 elements) in 'shifted'"), std::string::npos)
        << m;
    EXPECT_NE(m.find("3 accesses out of range"), std::string::npos) << m;
    // The in-range items were computed.
    const auto xv = x.to_vector<double>(), yv = y.to_vector<double>();
    for (size_t i = 0; i + 3 < n; ++i)
        ASSERT_EQ(yv[i], xv[i + 3]) << i;
}

// int + and - inside an index are exact (docs/LANGUAGE.md): a sum past int's range is that
// index, out of range as in CPython, not the negative number a 32-bit wrap would give; sums
// that end in range give the element whatever their operands.
TEST(BoundsCheck, IntSumsInAnIndexAreExact) {
    Elementwise summed(kernels(), "summed_index", checked_options());
    Array x = to_device(small_values<double>(10, -9, 9, 5));
    Array y = zeros(4, DType::Float64, &test_device());
    summed({y, x, int32_t(2147483000), int32_t(-2147482999)});
    const auto xv = x.to_vector<double>(), yv = y.to_vector<double>();
    for (size_t i = 0; i < 4; ++i)
        EXPECT_EQ(yv[i], xv[i + 1]) << i;
    const std::string m = error_of(summed, {y, x, int32_t(2147483647), int32_t(1)});
    // Items 0..3 read x[2^31 + i]; which is recorded first depends on the schedule.
    EXPECT_TRUE(std::regex_search(m, std::regex("index 21474836(4[89]|5[01]) "))) << m;
    EXPECT_EQ(m.find("index -"), std::string::npos) << m;
    EXPECT_NE(m.find("is out of range for 'x' (10 elements) in 'summed_index'"), std::string::npos)
        << m;
}

TEST(BoundsCheck, LocalMatricesAreCheckedAgainstTheirExtent) {
    Elementwise lookup(kernels(), "local_lookup", checked_options());
    Array k = to_device(std::vector<int32_t>{0, 3, 1, 4, 2});
    Array out = zeros(5, DType::Float64, &test_device());
    const std::string m = error_of(lookup, {k, out});
    EXPECT_NE(m.find("kernels.py:" + std::to_string(kernels_line("out[i] = m[k[i]]")) +
                     ": error: index 4 is out of range for 'm' (4 elements) in 'local_lookup' "
                     "(bounds-checked run; 1 access out of range)"),
              std::string::npos)
        << m;
    k = to_device(std::vector<int32_t>{0, 3, 1, 2, 2});
    lookup({k, out});
    EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{0, 4.5, 1.5, 3, 3}));
}

TEST(BoundsCheck, InRangeKernelsGiveTheSameResultsAndTheEnvironmentTurnsItOn) {
    ScopedEnv on("SMELT_BOUNDS_CHECK", "1");
    Elementwise axpb(kernels(), "axpb", test_options());
    const size_t n = 1025;
    auto x = small_values<double>(n, -50, 50, 1), a = small_values<double>(n, -3, 3, 2),
         b = small_values<double>(n, -9, 9, 3);
    Array X = to_device(x), Y = zeros(n, DType::Float64, &test_device()), A = to_device(a),
          B = to_device(b);
    axpb({X, Y, A, B});
    const auto y = Y.to_vector<double>();
    for (size_t i = 0; i < n; ++i) // sin may differ in the last bit between libraries
        ASSERT_NEAR(y[i], a[i] * std::sin(x[i]) + b[i], 1e-14 * (std::fabs(a[i]) + 10)) << i;
    EXPECT_NE(axpb.source().find("smelt_checked_index("), std::string::npos);
    Elementwise shifted(kernels(), "shifted", test_options());
    Array small = zeros(10, DType::Float64, &test_device());
    EXPECT_NE(error_of(shifted, {small, small}).find("out of range for 'x'"), std::string::npos);
}

// Where a simulation first goes non-finite: the first NaN or infinity stored into an array.
TEST(CheckFinite, TheFirstNonFiniteStoreIsReportedWithFileLineArrayAndIndex) {
    Options o = test_options();
    o.check_finite = true;
    Elementwise rr(kernels(), "reciprocal_root", o);
    std::vector<double> x(64, 4.0);
    Array X = to_device(x), Y = zeros(64, DType::Float64, &test_device());
    rr({X, Y}); // all finite: no error, the values
    EXPECT_EQ(Y.to_vector<double>(), std::vector<double>(64, 0.5));
    const std::string where = "kernels.py:" + std::to_string(kernels_line("1.0 / sqrt(x[i])")) +
                              ": error: 'reciprocal_root' stored ";
    x[37] = 0.0; // 1/sqrt(0) = inf
    X = to_device(x);
    std::string m = error_of(rr, {X, Y});
    EXPECT_NE(m.find(where + "inf into 'y'[37] (finite-checked run; 1 non-finite value stored)"),
              std::string::npos)
        << m;
    x[37] = 4.0;
    x[5] = -1.0; // sqrt(-1) = nan
    X = to_device(x);
    m = error_of(rr, {X, Y});
    EXPECT_NE(m.find(where + "nan into 'y'[5]"), std::string::npos) << m;
}

} // namespace
} // namespace smelt
