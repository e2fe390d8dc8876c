// Float to integer conversion (docs/LANGUAGE.md, "Float to integer"): CPython's int() where
// CPython gives a value, and the same saturated result on every backend where C would be
// undefined (NaN, infinities, values outside the type). Expected values are written out by hand.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace smelt {
namespace {

using namespace testing_util;

TEST(FloatToInt, TruncatesLikeCPythonAndSaturatesWhereCIsUndefined) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> x = {2.5, -2.5,         0.999, -0.999, 2147483647.9, -2147483648.9,
                                   3e9, -3e9,         1e300, -1e300, inf,          -inf,
                                   nan, 4294967295.5, 1e19,  9.2e18};
    constexpr int32_t imax = INT32_MAX, imin = INT32_MIN;
    constexpr int64_t lmax = INT64_MAX, lmin = INT64_MIN;
    constexpr uint32_t umax = UINT32_MAX;
    const std::vector<int32_t> want_i = {2,    -2,   0,    0,    imax, imin, imax, imin,
                                         imax, imin, imax, imin, 0,    imax, imax, imax};
    const std::vector<int64_t> want_l = {
        2,    -2,   0,    0,    2147483647, -2147483648, 3000000000, -3000000000,
        lmax, lmin, lmax, lmin, 0,          4294967295,  lmax,       9200000000000000000};
    const std::vector<uint32_t> want_u = {2,    0, 0,    0, 2147483647, 0,    3000000000u, 0,
                                          umax, 0, umax, 0, 0,          umax, umax,        umax};
    const size_t n = x.size();
    Elementwise f2i(kernels(), "float_to_int", test_options());
    Array X = to_device(x), K = zeros(n, DType::Int32, &test_device()),
          L = zeros(n, DType::Int64, &test_device()), U = zeros(n, DType::UInt32, &test_device());
    f2i({X, K, L, U});
    const auto k = K.to_vector<int32_t>();
    const auto l = L.to_vector<int64_t>();
    const auto u = U.to_vector<uint32_t>();
    for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(k[i], want_i[i]) << "int(" << x[i] << ")";
        EXPECT_EQ(l[i], want_l[i]) << "cast(" << x[i] << ", 'long')";
        EXPECT_EQ(u[i], want_u[i]) << "cast(" << x[i] << ", 'uint')";
    }
}

} // namespace
} // namespace smelt
