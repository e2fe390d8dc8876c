// Elementwise against hand-written loops: JIT typing from the arguments, annotated parameters,
// dtypes, explicit n, renamed functions, single precision and every kind of call mistake.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace smelt {
namespace {

using namespace testing_util;

template <class T> void expect_close(const std::vector<T> &got, const std::vector<T> &want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        // The kernel is built with -march=native and may fuse a*b+c; allow a few ulps.
        T tol = 4 * std::numeric_limits<T>::epsilon() * (std::abs(want[i]) + 1);
        ASSERT_NEAR(got[i], want[i], tol) << "at " << i;
    }
}

TEST(Elementwise, AxpbMatchesLoop) {
    Elementwise axpb(kernels(), "axpb", test_options());
    for (size_t n : {size_t(0), size_t(1), size_t(33), size_t(1025), size_t(65537)}) {
        auto x = small_values<double>(n, -50, 50, 1), a = small_values<double>(n, -3, 3, 2),
             b = small_values<double>(n, -9, 9, 3);
        for (auto &v : x)
            v *= 0.1;
        Array X = to_device(x), Y = zeros(n, DType::Float64, &test_device()), A = to_device(a),
              B = to_device(b);
        axpb({X, Y, A, B});
        std::vector<double> want(n);
        for (size_t i = 0; i < n; ++i)
            want[i] = a[i] * std::sin(x[i]) + b[i];
        expect_close(Y.to_vector<double>(), want);
    }
    EXPECT_NE(axpb.source().find(elementwise_entry_text()), std::string::npos);
    const std::string call = "axpb((" + spelled(Type::scalar(Scalar::I32)) + ")(smelt_i)";
    EXPECT_NE(axpb.source().find(call), std::string::npos) << axpb.source();
}

template <class T> void scale_shift_case(Elementwise &ew, T a, T b) {
    const size_t n = 1025;
    auto x = small_values<T>(n, 0, 100, 7);
    Array X = to_device(x), Y = to_device(std::vector<T>(n, T(0)));
    ew({X, Y, a, b});
    auto y = Y.template to_vector<T>();
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], static_cast<T>(a * x[i] + b)) << i;
    EXPECT_NE(ew.source().find(std::string("scale_shift(smelt_i, ")), std::string::npos);
    const std::string x_param = spelled(Type::pointer(dtype_to_scalar(dtype_of<T>()))) + "x";
    EXPECT_NE(ew.source().find(x_param), std::string::npos) << ew.source();
}

TEST(Elementwise, JitTypesFromArguments) {
    Elementwise ew(kernels(), "scale_shift", test_options());
    scale_shift_case<double>(ew, 2.5, -1.0);
    scale_shift_case<float>(ew, 0.5f, 3.0f);
    scale_shift_case<int32_t>(ew, 3, -7);
    scale_shift_case<int64_t>(ew, int64_t(5), int64_t(1) << 40);
    scale_shift_case<uint32_t>(ew, 3u, 9u);
    // Back to the first signature: served from memory, same results.
    scale_shift_case<double>(ew, -2.0, 0.25);
}

bool gpu_backend() {
    return test_backend().rfind("cuda", 0) == 0 || test_backend().rfind("opencl", 0) == 0;
}

// The same array passed twice (an in-place update through two names) gets the kernel for
// arrays that may alias; distinct arrays may get restrict pointers and several items per
// thread (GPU backends), where launches too small to fill the device take one item per thread
// (on an H100 below about 4 x 132 x 2048 items; the last size is above it). Either way the
// results are the loop's, at sizes around the tiles.
TEST(Elementwise, AliasedAndDistinctArraysMatchLoop) {
    Elementwise ew(kernels(), "scale_shift", test_options());
    for (size_t n : {size_t(1), size_t(3), size_t(1023), size_t(1024), size_t(1025), size_t(4097),
                     size_t(65537), (size_t(1) << 20) + 3, (size_t(1) << 22) + 5}) {
        auto x = small_values<float>(n, 0, 100, unsigned(n));
        std::vector<float> want(n);
        for (size_t i = 0; i < n; ++i)
            want[i] = 2.0f * x[i] + 1.0f;
        Array X = to_device(x), Y = to_device(std::vector<float>(n, -1.0f));
        ew({X, Y, 2.0f, 1.0f});
        ASSERT_EQ(Y.to_vector<float>(), want) << "distinct, n = " << n;
        if (gpu_backend()) EXPECT_NE(ew.source().find("restrict"), std::string::npos);
        ew({X, X, 2.0f, 1.0f}); // y is x: in place
        ASSERT_EQ(X.to_vector<float>(), want) << "aliased, n = " << n;
        EXPECT_EQ(ew.source().find("restrict"), std::string::npos) << ew.source();
    }
}

// One array read and written at i (distinct trivially): on GPUs the restrict kernel loads x[i]
// ahead of the call and the call stores x[i].
TEST(Elementwise, InPlaceUpdateOfOneArray) {
    Elementwise ew(kernels(), "kernel", test_options());
    for (size_t n : {size_t(5), size_t(1024), size_t(3001), size_t(262147)}) {
        auto x = small_values<int32_t>(n, -1000, 1000, unsigned(n) + 1);
        Array X = to_device(x);
        ew({X});
        ew({X});
        for (auto &v : x)
            v *= 4;
        ASSERT_EQ(X.to_vector<int32_t>(), x) << n;
    }
}

// An array shorter than n, read at i only where the function checks i: it must not be loaded
// ahead for every i < n.
TEST(Elementwise, ArrayShorterThanCountIsOnlyReadWhereTheFunctionReadsIt) {
    Elementwise ew(kernels(), "copy_head", test_options());
    const size_t n = 100003, m = 37;
    auto t = small_values<double>(m, -50, 50, 3);
    Array X = to_device(std::vector<double>(n, 7.0)), T = to_device(t);
    ew({X, T, int64_t(m)});
    auto x = X.to_vector<double>();
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(x[i], i < m ? t[i] : 7.0) << i;
}

TEST(Elementwise, AnnotatedScalarIsConvertedAndIndexIsLong) {
    Elementwise ew(kernels(), "fill_index", test_options());
    Array x = zeros(300, DType::Float64, &test_device());
    ew({x, int64_t(1000)}); // n is declared int: the int64 value is converted
    auto v = x.to_vector<double>();
    for (size_t i = 0; i < v.size(); ++i)
        ASSERT_EQ(v[i], double(i + 1000));
    ew({x, 2.9}); // a double converts as C converts (truncation)
    EXPECT_EQ(x.to_vector<double>()[10], 12.0);
    EXPECT_NE(ew.source().find("fill_index(smelt_i, "), std::string::npos) << ew.source();
}

TEST(Elementwise, ExplicitCountTouchesOnlyThePrefix) {
    Elementwise ew(kernels(), "scale_shift", test_options());
    std::vector<double> x(100, 1.0);
    Array X = to_device(x), Y = to_device(std::vector<double>(100, -1.0));
    ew(40, {X, Y, 2.0, 1.0});
    auto y = Y.to_vector<double>();
    for (size_t i = 0; i < 100; ++i)
        ASSERT_EQ(y[i], i < 40 ? 3.0 : -1.0) << i;
    ew(0, {X, Y, 2.0, 1.0});
    EXPECT_EQ(Y.to_vector<double>(), y);
}

TEST(Elementwise, FunctionNamedLikeAKeywordIsRenamed) {
    Elementwise ew(kernels(), "kernel", test_options());
    Array x = to_device(std::vector<int32_t>{1, 2, 3});
    ew({x});
    EXPECT_EQ(x.to_vector<int32_t>(), (std::vector<int32_t>{2, 4, 6}));
    EXPECT_NE(ew.source().find("kernel_(smelt_i"), std::string::npos) << ew.source();
}

TEST(Elementwise, SinglePrecisionNeedsFloat32Arrays) {
    Elementwise ew(kernels(), "axpb", test_options(Precision::Single));
    const size_t n = 257;
    std::vector<float> x(n), a(n, 2.0f), b(n, 0.5f);
    for (size_t i = 0; i < n; ++i)
        x[i] = 0.01f * float(i);
    Array X = to_device(x), Y = to_device(std::vector<float>(n)), A = to_device(a),
          B = to_device(b);
    ew({X, Y, A, B});
    std::vector<float> want(n);
    for (size_t i = 0; i < n; ++i)
        want[i] = a[i] * std::sin(x[i]) + b[i];
    expect_close(Y.to_vector<float>(), want);
    // Past the prelude (which defines helpers for every type) nothing is double.
    const size_t fn =
        ew.source().find("SMELT_INLINE void axpb(" + spelled(Type::scalar(Scalar::I32)) + " i, " +
                         spelled(Type::pointer(Scalar::F32)) + "x");
    ASSERT_NE(fn, std::string::npos) << ew.source();
    EXPECT_EQ(ew.source().find("double", fn), std::string::npos) << ew.source().substr(fn);

    Array D = zeros(n, DType::Float64, &test_device());
    try {
        ew({D, Y, A, B});
        FAIL();
    } catch (const UsageError &e) {
        std::string m = e.what();
        EXPECT_NE(m.find("parameter 'x' of 'axpb' is declared doublep (floatp in single "
                         "precision) but is given a float64 array"),
                  std::string::npos)
            << m;
    }
    Elementwise jit(kernels(), "scale_shift", test_options(Precision::Single));
    EXPECT_THROW(jit({D, D, 1.0, 2.0}), UsageError);
}

TEST(Elementwise, CallMistakesAreUsageErrors) {
    Elementwise axpb(kernels(), "axpb", test_options());
    Array d = zeros(8, DType::Float64, &test_device());
    Array i32 = zeros(8, DType::Int32, &test_device());
    auto message = [&](const std::vector<Arg> &args) {
        try {
            axpb(args);
        } catch (const UsageError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message({d, d, d}).find("takes 4 argument(s) after the index, but 3 were given"),
              std::string::npos);
    EXPECT_NE(message({d, i32, d, d})
                  .find("parameter 'y' of 'axpb' is declared doublep but is given a int32 array"),
              std::string::npos)
        << message({d, i32, d, d});
    EXPECT_NE(message({d, d, 2.0, d})
                  .find("parameter 'a' of 'axpb' is declared doublep but is "
                        "given a scalar (double)"),
              std::string::npos);
    EXPECT_THROW(Elementwise(kernels(), "no_such_function", test_options()), UsageError);
    Elementwise scale(kernels(), "scale_shift", test_options());
    EXPECT_THROW(scale(std::vector<Arg>{1.0, 2.0, 3.0, 4.0}), UsageError); // no array: no n
    EXPECT_THROW(scale(-1, {d, d, 1.0, 1.0}), UsageError);
}

// An array shorter than the item count used to be read and written past its end (a crash on
// cpu, a corrupted heap on PoCL): where the kernel indexes it at every i, the call is refused.
TEST(Elementwise, ShortArraysIndexedAtEveryItemAreUsageErrors) {
    auto message = [](const std::function<void()> &call) {
        try {
            call();
        } catch (const UsageError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Backend &dev = test_device();
    Elementwise axpb(kernels(), "axpb", test_options());
    Array x = full(100, 1.0, DType::Float64, &dev), y = zeros(50, DType::Float64, &dev);
    std::string m = message([&] { axpb({x, y, x, x}); });
    EXPECT_NE(m.find("'axpb' indexes 'y' at every item i < 100, but 'y' has 50 elements"),
              std::string::npos)
        << m;
    EXPECT_EQ(y.to_vector<double>(), std::vector<double>(50, 0.0)); // nothing ran
    m = message([&] { axpb(101, {x, x, x, x}); });
    EXPECT_NE(m.find("indexes 'x' at every item i < 101, but 'x' has 100 elements"),
              std::string::npos)
        << m;
    // Typed at the call (JIT) too, and by name.
    Elementwise scale(kernels(), "scale_shift", test_options());
    m = message([&] { scale({x, zeros(7, DType::Float64, &dev), 2.0, 1.0}); });
    EXPECT_NE(m.find("'y' has 7 elements"), std::string::npos) << m;
    m = message([&] { axpb({{"x", x}, {"y", x}, {"a", y}, {"b", x}}); });
    EXPECT_NE(m.find("'a' has 50 elements"), std::string::npos) << m;
    // A guarded access is the kernel's business: copy_head reads t[i] only for i < m.
    Elementwise head(kernels(), "copy_head", test_options());
    Array dst = zeros(10, DType::Float64, &dev);
    Array src = to_device(std::vector<double>{1, 2, 3, 4});
    head({dst, src, int32_t(4)});
    EXPECT_EQ(dst.to_vector<double>(), (std::vector<double>{1, 2, 3, 4, 0, 0, 0, 0, 0, 0}));
}

TEST(Elementwise, KernelMistakesAreLocatedCompileErrors) {
    Elementwise ew(kernels(), "bad_types", test_options());
    Array x = zeros(4, DType::Float64, &test_device());
    try {
        ew({x});
        FAIL();
    } catch (const CompileError &e) {
        ASSERT_FALSE(e.diagnostics().empty());
        const Diagnostic &d = e.diagnostics()[0];
        EXPECT_NE(d.file.find("kernels.py"), std::string::npos);
        EXPECT_EQ(d.loc.line, 68) << d.rendered; // `y = 2.5 + x[i]` in kernels.py
    }
}

TEST(Elementwise, SerialBackendGivesTheSameResults) {
    if (test_backend() != "cpu") GTEST_SKIP() << "compares cpu with cpu:serial";
    Elementwise par(kernels(), "scale_shift", Options{"cpu"});
    Elementwise ser(kernels(), "scale_shift", Options{"cpu:serial"});
    auto x = small_values<int64_t>(70001, -1000, 1000, 11);
    Array X1 = Array::from_vector(x, &get_backend("cpu")),
          Y1 = zeros(x.size(), DType::Int64, &get_backend("cpu"));
    Array X2 = Array::from_vector(x, &get_backend("cpu:serial")),
          Y2 = zeros(x.size(), DType::Int64, &get_backend("cpu:serial"));
    par({X1, Y1, int64_t(3), int64_t(-2)});
    ser({X2, Y2, int64_t(3), int64_t(-2)});
    EXPECT_EQ(Y1.to_vector<int64_t>(), Y2.to_vector<int64_t>());
    EXPECT_EQ(Y1.to_vector<int64_t>()[5], 3 * x[5] - 2);
    EXPECT_THROW(par({X2, Y1, int64_t(3), int64_t(-2)}), UsageError); // array of another backend
}

} // namespace
} // namespace smelt
