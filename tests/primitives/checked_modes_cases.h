// The checked modes (Options::bounds_check, Options::check_finite) in Reduction, Scan, Kernel
// and in the helper functions a kernel calls, as cases any backend's suite runs: the primitive
// tests call them on SMELT_TEST_BACKEND (cpu, opencl), tests/cuda on the GPU.
//
// Oracles: the out-of-range index, its array, its length and the line are known from the data
// and the kernel file (found by text, so the expectations do not restate the code under test);
// in-range runs are compared with hand-written loops and with the same run unchecked.
#pragma once

#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <string>

namespace smelt::testing_util {

inline const Program &checked_kernels() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/checked_kernels.py");
    return p;
}

// "FILE:LINE: error: " for the line of tests/primitives/FILE that contains `text`.
inline std::string checked_site(const std::string &file, const std::string &text) {
    std::ifstream in(std::string(SMELT_TEST_DATA_DIR) + "/primitives/" + file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(text) != std::string::npos)
            return file + ":" + std::to_string(n) + ": error: ";
    ADD_FAILURE() << "no line with '" << text << "' in " << file;
    return "?";
}

inline Options checked_options(const std::string &backend, bool index, bool finite) {
    Options o{backend};
    o.bounds_check = index;
    o.check_finite = finite;
    return o;
}

// The UsageError `run` throws, or "no error".
inline std::string usage_error_of(const std::function<void()> &run) {
    try {
        run();
    } catch (const UsageError &e) {
        return e.what();
    }
    return "no error";
}

inline bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

inline std::vector<double> iota_values(size_t n, double start = 1.0) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = start + static_cast<double>(i);
    return v;
}

// A helper function in an imported kernel file indexes its array parameter out of range: the
// report names the helper's file and line, its parameter and the caller's array's length.
inline void expect_helper_index_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const size_t n = 50;
    Elementwise smoothed(checked_kernels(), "smoothed", checked_options(backend, true, false));
    const auto x = iota_values(n);
    Array X = Array::from_vector(x, &dev), Y = zeros(n, DType::Float64, &dev);
    const std::string m = usage_error_of([&] { smoothed({X, Y}); });
    // Item 0 reads v[-1] and item n-1 reads v[n]: two accesses, either recorded first.
    EXPECT_TRUE(contains(m, checked_site("checked_helpers.py", "v[j - 1] + v[j + 1]")) &&
                (contains(m, "index -1 is out of range") ||
                 contains(m, "index " + std::to_string(n) + " is out of range")) &&
                contains(m, "for 'v' (50 elements) in 'neighbour_sum'") &&
                contains(m, "(bounds-checked run; 2 accesses out of range)"))
        << m;
    // The other items were computed.
    const auto y = Y.to_vector<double>();
    for (size_t i = 1; i + 1 < n; ++i)
        ASSERT_EQ(y[i], x[i - 1] + x[i + 1]) << i;
}

// In range, a checked run (both modes) gives the unchecked run's values and the loop's.
inline void expect_helper_in_range_unchanged(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const size_t n = 1000;
    const auto x = small_values<double>(n + 2, -40, 40, 21);
    Array X = Array::from_vector(x, &dev);
    Array checked = zeros(n, DType::Float64, &dev), plain = zeros(n, DType::Float64, &dev);
    Elementwise(checked_kernels(), "smoothed_inside",
                checked_options(backend, true, true))(n, {X, checked});
    Elementwise(checked_kernels(), "smoothed_inside", Options{backend})(n, {X, plain});
    std::vector<double> want(n);
    for (size_t i = 0; i < n; ++i)
        want[i] = x[i] + x[i + 2];
    EXPECT_EQ(checked.to_vector<double>(), want);
    EXPECT_EQ(plain.to_vector<double>(), want);
}

// A pointer variable carries the length of the array last assigned to it; a matrix's
// dimensions are checked one by one.
inline void expect_local_pointer_and_matrix_checked(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const size_t n = 64;
    const auto x = iota_values(n), y = iota_values(n + 1, -5.0);
    Array X = Array::from_vector(x, &dev), Yl = Array::from_vector(y, &dev);
    Array out = zeros(n, DType::Float64, &dev);
    Elementwise chosen(checked_kernels(), "chosen", checked_options(backend, true, false));
    chosen({X, Yl, out, int32_t(0)}); // y has n + 1 elements: in range
    const auto o = out.to_vector<double>();
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(o[i], y[i + 1]) << i;
    const std::string m = usage_error_of([&] { chosen({X, Yl, out, int32_t(1)}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "out[i] = src[i + 1]") +
                                "index 64 is out of range for 'src' (64 elements) in 'chosen' "
                                "(bounds-checked run; 1 access out of range)"))
        << m;

    Elementwise grid(checked_kernels(), "grid_lookup", checked_options(backend, true, false));
    Array K = Array::from_vector(std::vector<int32_t>{1, 0, 2, 1}, &dev);
    Array G = zeros(4, DType::Float64, &dev);
    const std::string g = usage_error_of([&] { grid({K, G}); });
    EXPECT_TRUE(contains(g, checked_site("checked_kernels.py", "out[i] = g[k[i]][2]") +
                                "index 2 is out of range for 'g' (dimension 0 of length 2) in "
                                "'grid_lookup' (bounds-checked run; 1 access out of range)"))
        << g;
    K = Array::from_vector(std::vector<int32_t>{1, 0, 0, 1}, &dev);
    grid({K, G});
    EXPECT_EQ(G.to_vector<double>(), (std::vector<double>{5, 2, 2, 5})); // g[r][2] = 3r + 2
}

// Reduction: the map reads w[k[i]] through a helper; one k is past w's end.
inline void expect_reduction_index_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const size_t n = 300;
    std::vector<int32_t> k(n);
    for (size_t i = 0; i < n; ++i)
        k[i] = static_cast<int32_t>(i % 5);
    const auto w = iota_values(5, 0.5);
    Array W = Array::from_vector(w, &dev);
    Reduction checked(&checked_kernels(), "a+b", "weight_of", DType::Float64, "0",
                      checked_options(backend, true, false));
    Reduction plain(&checked_kernels(), "a+b", "weight_of", DType::Float64, "0", Options{backend});
    double want = 0;
    for (size_t i = 0; i < n; ++i)
        want += w[static_cast<size_t>(k[i])];
    Array K = Array::from_vector(k, &dev);
    EXPECT_EQ(checked({K, W}).as<double>(), want); // exact: halves summed in any order
    EXPECT_EQ(plain({K, W}).as<double>(), want);
    k[137] = 9;
    K = Array::from_vector(k, &dev);
    const std::string m = usage_error_of([&] { checked({K, W}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "return a[j]") +
                                "index 9 is out of range for 'a' (5 elements) in 'element' "
                                "(bounds-checked run; 1 access out of range)"))
        << m;
}

// Reduction, finite mode: the map's value is checked (nothing is stored).
inline void expect_reduction_non_finite_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const size_t n = 257;
    auto x = iota_values(n);
    Reduction sum(&checked_kernels(), "a+b", "inverse", DType::Float64, "0",
                  checked_options(backend, false, true));
    Array X = Array::from_vector(x, &dev);
    EXPECT_TRUE(std::isfinite(sum({X}).as<double>()));
    x[13] = 0.0;
    X = Array::from_vector(x, &dev);
    const std::string m = usage_error_of([&] { sum({X}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "return 1.0 / x[i]") +
                                "'inverse' returned inf for item 13 (finite-checked run; 1 "
                                "non-finite value)"))
        << m;
}

// Scan: the output stores one past the end at the last item; in range, the prefix sums.
inline void expect_scan_index_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const size_t n = 777;
    const auto x = small_values<double>(n, -9, 9, 31);
    std::vector<double> want(n);
    double acc = 0;
    for (size_t i = 0; i < n; ++i)
        want[i] = acc += x[i];
    Array X = Array::from_vector(x, &dev);
    Array Y = zeros(n, DType::Float64, &dev);
    Scan ok(checked_kernels(), "load_item", "store_item", "a+b", DType::Float64, "0", "",
            checked_options(backend, true, true));
    ok({{"x", X}, {"y", Y}});
    EXPECT_EQ(Y.to_vector<double>(), want);

    Scan past(checked_kernels(), "load_item", "store_next", "a+b", DType::Float64, "0", "",
              checked_options(backend, true, false));
    Array Z = zeros(n, DType::Float64, &dev);
    const std::string m = usage_error_of([&] { past({{"x", X}, {"y", Z}}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "y[i + 1] = item") + "index " +
                                std::to_string(n) + " is out of range for 'y' (" +
                                std::to_string(n) +
                                " elements) in 'store_next' "
                                "(bounds-checked run; 1 access out of range)"))
        << m;
}

// Scan, finite mode: sqrt of the one negative prefix sum.
inline void expect_scan_non_finite_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const size_t n = 300;
    std::vector<double> x(n, 1.0);
    x[40] = -42.0; // prefix sums: 1..40, then -2 at 40, then 8, 9, ...
    x[41] = 10.0;
    Array X = Array::from_vector(x, &dev), Y = zeros(n, DType::Float64, &dev);
    Scan roots(checked_kernels(), "load_item", "store_root", "a+b", DType::Float64, "0", "",
               checked_options(backend, false, true));
    const std::string m = usage_error_of([&] { roots({{"x", X}, {"y", Y}}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "y[i] = sqrt(item)") +
                                "'store_root' stored nan into 'y'[40] (finite-checked run; 1 "
                                "non-finite value stored)"))
        << m;
}

// Kernel: a LOCAL_MEM matrix read one past its end by the last work-item of each group.
inline void expect_kernel_local_matrix_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const int64_t groups = 4, group = 8, n = groups * group;
    Kernel k(checked_kernels(), "local_shift", checked_options(backend, true, false));
    Array X = Array::from_vector(iota_values(n), &dev), Y = zeros(n, DType::Float64, &dev);
    const std::string m = usage_error_of([&] { k(n, group, {X, Y, int32_t(n)}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "y[gid] = buf[LID_0 + 1]") +
                                "index 8 is out of range for 'buf' (8 elements) in "
                                "'local_shift' (bounds-checked run; 4 accesses out of range)"))
        << m;
}

// Kernel: a LocalMem parameter is checked against the count the launch gives it.
inline void expect_kernel_local_param_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const int64_t group = 16, n = 3 * group;
    Kernel k(checked_kernels(), "param_shift", checked_options(backend, true, false));
    const auto x = iota_values(n);
    Array X = Array::from_vector(x, &dev), Y = zeros(n, DType::Float64, &dev);
    // (lid + 1) % group stays inside the group's elements: a rotation within each group.
    k(n, group, {X, Y, LocalMem(group), int32_t(group)});
    const auto y = Y.to_vector<double>();
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], x[i - i % group + (i % group + 1) % group]) << i;
    // Only 12 elements of local memory for 16 work-items: items 11..15 read 12..15 and 0;
    // items 12..15 also wrote past the end (their writes were redirected to element 0).
    const std::string m = usage_error_of([&] {
        k(n, group, {X, Y, LocalMem(12), int32_t(group)});
    });
    EXPECT_TRUE(contains(m, "is out of range for 'buf' (12 elements) in 'param_shift'")) << m;
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "buf[lid] = x[gid]")) ||
                contains(m, checked_site("checked_kernels.py", "y[gid] = buf[(lid + 1) % n]")))
        << m;
    // Per group: 4 writes (items 12..15) and 4 reads (items 11..14 read 12..15) out of range.
    EXPECT_TRUE(contains(m, "(bounds-checked run; 24 accesses out of range)")) << m;
}

// Kernel: an atomic's index and a helper's access, checked; in range, the same counts.
inline void expect_kernel_atomic_and_helper_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const int64_t n = 64;
    std::vector<int32_t> k(n);
    for (int64_t i = 0; i < n; ++i)
        k[i] = static_cast<int32_t>(i % 6);
    Kernel hist(checked_kernels(), "histogram", checked_options(backend, true, false));
    Array K = Array::from_vector(k, &dev), C = zeros(6, DType::Int32, &dev);
    hist(n, 16, {K, C});
    EXPECT_EQ(C.to_vector<int32_t>(), (std::vector<int32_t>{11, 11, 11, 11, 10, 10}));
    k[20] = 6;
    K = Array::from_vector(k, &dev);
    std::string m = usage_error_of([&] { hist(n, 16, {K, C}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "atomic_inc(counts[k[gid]])") +
                                "index 6 is out of range for 'counts' (6 elements) in "
                                "'histogram' (bounds-checked run; 1 access out of range)"))
        << m;

    Kernel gathered(checked_kernels(), "gathered", checked_options(backend, true, false));
    const auto x = iota_values(2 * n - 8);
    Array X = Array::from_vector(x, &dev), Y = zeros(n, DType::Float64, &dev);
    m = usage_error_of([&] { gathered(n, 16, {X, Y}); });
    // gid * 2 >= 2n - 8 for gid >= n - 4: four reads past the end, at 2n - 8, ..., 2n - 2.
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "return a[j]")) &&
                contains(m, "is out of range for 'a' (" + std::to_string(2 * n - 8) +
                                " elements) in 'element' (bounds-checked run; 4 accesses out of "
                                "range)"))
        << m;
    const auto y = Y.to_vector<double>();
    for (int64_t i = 0; i < n - 4; ++i)
        ASSERT_EQ(y[i], x[2 * i]) << i;
}

// Kernel, finite mode; and in range, both modes leave a work-group sum as it was.
inline void expect_kernel_non_finite_reported(const std::string &backend) {
    Backend &dev = get_backend(backend);
    const int64_t n = 48;
    auto x = iota_values(n);
    Kernel rec(checked_kernels(), "reciprocal", checked_options(backend, true, true));
    Array X = Array::from_vector(x, &dev), Y = zeros(n, DType::Float64, &dev);
    rec(n, 16, {X, Y});
    const auto y = Y.to_vector<double>();
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], 1.0 / x[i]) << i;
    x[30] = 0.0;
    X = Array::from_vector(x, &dev);
    const std::string m = usage_error_of([&] { rec(n, 16, {X, Y}); });
    EXPECT_TRUE(contains(m, checked_site("checked_kernels.py", "y[gid] = 1.0 / x[gid]") +
                                "'reciprocal' stored inf into 'y'[30] (finite-checked run; 1 "
                                "non-finite value stored)"))
        << m;
}

} // namespace smelt::testing_util
