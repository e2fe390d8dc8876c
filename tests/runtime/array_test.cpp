// Array handles and array operations against hand-written loops and NumPy's documented results.
#include "array/array_ops.h"
#include "backends/registry.h"
#include "support/error.h"
#include "test_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace smelt {
namespace {

std::string message_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const UsageError &e) {
        return e.what();
    }
    return "(no UsageError)";
}

TEST(Array, WrapsHostMemoryWithoutCopy) {
    std::vector<double> host = {1, 2, 3, 4};
    Array a = Array::wrap(host.data(), host.size());
    EXPECT_EQ(a.host_data(), host.data());
    EXPECT_FALSE(a.owns_memory());
    EXPECT_EQ(a.dtype(), DType::Float64);
    EXPECT_EQ(a.nbytes(), 32u);
    a.data<double>()[2] = 30;
    EXPECT_EQ(host[2], 30); // the same memory
    host[0] = 10;
    a.pull(); // no-op on the CPU: nothing is overwritten
    a.push();
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{10, 2, 30, 4}));
}

TEST(Array, WrapKeepsTheOwnerAlive) {
    auto owner = std::make_shared<std::vector<int32_t>>(std::vector<int32_t>{4, 5, 6});
    std::weak_ptr<std::vector<int32_t>> watch = owner;
    {
        Array a = Array::wrap(owner->data(), owner->size(), DType::Int32, nullptr, owner);
        owner.reset();
        EXPECT_FALSE(watch.expired()); // the array holds it
        EXPECT_EQ(a.to_vector<int32_t>(), (std::vector<int32_t>{4, 5, 6}));
    }
    EXPECT_TRUE(watch.expired());
}

TEST(Array, HandlesShareDataAndCopyIsDeep) {
    Array a = Array::from_vector(std::vector<int32_t>{1, 2, 3});
    EXPECT_TRUE(a.owns_memory());
    Array shared = a;
    Array deep = a.copy();
    a.data<int32_t>()[0] = 7;
    EXPECT_EQ(shared.to_vector<int32_t>(), (std::vector<int32_t>{7, 2, 3}));
    EXPECT_EQ(deep.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 3}));
    EXPECT_NE(deep.host_data(), a.host_data());
}

TEST(Array, ResizeKeepsThePrefix) {
    Array a = arange(5, DType::Int64);
    a.resize(3);
    EXPECT_EQ(a.to_vector<int64_t>(), (std::vector<int64_t>{0, 1, 2}));
    a.resize(6);
    ASSERT_EQ(a.size(), 6u);
    EXPECT_EQ(a.data<int64_t>()[0], 0);
    EXPECT_EQ(a.data<int64_t>()[2], 2);
    a.resize(0);
    EXPECT_EQ(a.size(), 0u);

    // Growing a wrapped array moves it into owned memory; the caller's buffer is left as it was.
    std::vector<float> host = {1, 2};
    Array w = Array::wrap(host.data(), host.size());
    w.resize(4);
    EXPECT_TRUE(w.owns_memory());
    w.data<float>()[0] = 9;
    EXPECT_EQ(host[0], 1);
    EXPECT_EQ(w.data<float>()[1], 2);
}

TEST(Array, WrongTypeAndNullHandleAreUsageErrors) {
    Array a = zeros(3, DType::Float32);
    EXPECT_NE(message_of([&] { a.data<double>(); }).find("float32"), std::string::npos);
    EXPECT_THROW(a.to_vector<int32_t>(), UsageError);
    Array null;
    EXPECT_EQ(null.size(), 0u);
    EXPECT_THROW(null.backend(), UsageError);
    EXPECT_THROW(Array::wrap(static_cast<double *>(nullptr), 3), UsageError);
}

// fill_zero clears exactly its byte range, in order with the writes before it, on the tests'
// backend (a device fill on cuda, the interface's default elsewhere); zeros() gives zeros.
TEST(ArrayOps, FillZeroClearsExactlyItsRange) {
    Backend &b = testing_util::test_device();
    std::vector<int32_t> v(1000);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = int32_t(i) + 1;
    Array a = Array::from_vector(v, &b);
    b.fill_zero(a.buffer(), 40, 400); // elements 10 .. 109
    std::vector<int32_t> expected = v;
    std::fill(expected.begin() + 10, expected.begin() + 110, 0);
    EXPECT_EQ(a.to_vector<int32_t>(), expected);
    EXPECT_EQ(zeros(777, DType::Float64, &b).to_vector<double>(), std::vector<double>(777, 0.0));
    EXPECT_ANY_THROW(b.fill_zero(a.buffer(), 3996, 8)) << "past the buffer's end";
}

TEST(ArrayOps, FactoriesMatchLoops) {
    for (DType t : kAllDTypes) {
        Array z = zeros(37, t), o = ones(37, t), f = full(37, 5.0, t), r = arange(37, t);
        visit_dtype(t, [&]<class T>() {
            for (size_t i = 0; i < 37; ++i) {
                EXPECT_EQ(z.data<T>()[i], T(0));
                EXPECT_EQ(o.data<T>()[i], T(1));
                EXPECT_EQ(f.data<T>()[i], T(5));
                EXPECT_EQ(r.data<T>()[i], T(i));
            }
        });
        EXPECT_EQ(empty(4, t).size(), 4u);
    }
    EXPECT_EQ(arange(0, DType::Int32).size(), 0u);
    // int64 values past 2^53 stay exact.
    Array big = arange(3, DType::UInt64);
    EXPECT_EQ(big.to_vector<uint64_t>(), (std::vector<uint64_t>{0, 1, 2}));
}

TEST(ArrayOps, ArangeAndLinspaceFollowNumPy) {
    // Expected values are NumPy's (np.arange / np.linspace).
    EXPECT_EQ(arange(2.0, 11.0, 3.0, DType::Int32).to_vector<int32_t>(),
              (std::vector<int32_t>{2, 5, 8}));
    EXPECT_EQ(arange(5.0, 0.0, -2.0, DType::Int64).to_vector<int64_t>(),
              (std::vector<int64_t>{5, 3, 1}));
    EXPECT_EQ(arange(0.0, 1.0, 0.25).to_vector<double>(), (std::vector<double>{0, .25, .5, .75}));
    EXPECT_EQ(arange(0.0, 1.0, 0.1).size(), 10u);
    EXPECT_EQ(arange(3.0, 1.0, 1.0).size(), 0u);
    EXPECT_THROW(arange(0.0, 1.0, 0.0), UsageError);

    EXPECT_EQ(linspace(0, 1, 5).to_vector<double>(), (std::vector<double>{0, .25, .5, .75, 1}));
    EXPECT_EQ(linspace(0, 1, 5, DType::Float64, false).to_vector<double>(),
              (std::vector<double>{0, .2, .4, .6000000000000001, .8}));
    EXPECT_EQ(linspace(2, 3, 1).to_vector<double>(), (std::vector<double>{2}));
    EXPECT_EQ(linspace(2, 3, 0).size(), 0u);
    // The last value is exactly `stop`, even where start + i*step would round differently.
    std::vector<double> l = linspace(0.1, 0.7, 7).to_vector<double>();
    EXPECT_EQ(l.back(), 0.7);
    // Integer dtypes floor (NumPy 2): -2.5 → -3.
    EXPECT_EQ(linspace(-5, 0, 3, DType::Int32).to_vector<int32_t>(),
              (std::vector<int32_t>{-5, -3, 0}));
    EXPECT_EQ(linspace(0, 10, 4, DType::Int32).to_vector<int32_t>(),
              (std::vector<int32_t>{0, 3, 6, 10}));
}

TEST(ArrayOps, TakeAndAlignGather) {
    std::mt19937 rng(3);
    std::vector<double> src(1000);
    for (auto &x : src)
        x = double(rng()) / 7.0;
    std::vector<int32_t> idx(2500);
    for (auto &i : idx)
        i = int32_t(rng() % src.size());
    Array out = take(Array::from_vector(src), Array::from_vector(idx));
    std::vector<double> got = out.to_vector<double>();
    ASSERT_EQ(got.size(), idx.size());
    for (size_t i = 0; i < idx.size(); ++i)
        EXPECT_EQ(got[i], src[idx[i]]);

    Array a = Array::from_vector(std::vector<int16_t>{10, 20, 30});
    Array b = Array::from_vector(std::vector<float>{.5f, 1.5f, 2.5f});
    std::vector<Array> al = align({a, b}, Array::from_vector(std::vector<uint64_t>{2, 0, 1, 2}));
    EXPECT_EQ(al[0].to_vector<int16_t>(), (std::vector<int16_t>{30, 10, 20, 30}));
    EXPECT_EQ(al[1].to_vector<float>(), (std::vector<float>{2.5f, .5f, 1.5f, 2.5f}));

    std::string msg = message_of([&] { take(a, Array::from_vector(std::vector<int64_t>{0, 3})); });
    EXPECT_NE(msg.find("indices[1] = 3"), std::string::npos) << msg;
    EXPECT_THROW(take(a, Array::from_vector(std::vector<int64_t>{-1})), UsageError);
    EXPECT_NE(message_of([&] { take(a, b); }).find("integer dtype"), std::string::npos);
}

TEST(ArrayOps, WhereSelectsPerElement) {
    const size_t n = 513;
    std::vector<uint8_t> cond(n);
    std::vector<int64_t> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
        cond[i] = uint8_t(i % 3 == 0 ? 0 : i % 7);
        x[i] = int64_t(i) * 11;
        y[i] = -int64_t(i);
    }
    std::vector<int64_t> got =
        where(Array::from_vector(cond), Array::from_vector(x), Array::from_vector(y))
            .to_vector<int64_t>();
    for (size_t i = 0; i < n; ++i)
        EXPECT_EQ(got[i], cond[i] ? x[i] : y[i]);

    // A float condition is true when non-zero (-0.0 is false, as bool(-0.0) in Python).
    Array fc = Array::from_vector(std::vector<double>{0.5, -0.0, 0.0, -2});
    Array fa = ones(4, DType::Float32), fb = zeros(4, DType::Float32);
    EXPECT_EQ(where(fc, fa, fb).to_vector<float>(), (std::vector<float>{1, 0, 0, 1}));

    EXPECT_NE(message_of([&] { where(fc, fa, zeros(5, DType::Float32)); }).find("where: b has 5"),
              std::string::npos);
    EXPECT_NE(message_of([&] { where(fc, fa, zeros(4, DType::Float64)); }).find("same dtype"),
              std::string::npos);
}

} // namespace
} // namespace smelt
