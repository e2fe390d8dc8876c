// Arrays on the OpenCL backend (device memory + host mirror): the same operations as on the
// CPU, checked against hand-written loops, std::stable_sort, and data written by a kernel.
#include "opencl_test_util.h"

#include <gtest/gtest.h>

#ifdef SMELT_HAVE_OPENCL

#include "array/array_ops.h"
#include "primitives/radix_sort.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace smelt {
namespace {

// Adds one to every element on the device, so tests see data that only the device holds.
const char *kAddSource = R"(
__kernel void add_one(__global long *x, long n) {
    long i = get_global_id(0);
    if (i < n) x[i] += 1;
}
)";

void add_one_on_device(opencl::OpenCLBackend &cl, Array &a) {
    auto module = cl.compile({kAddSource, {"add_one"}});
    KernelArg args[] = {KernelArg::of(a.buffer()), KernelArg::of(int64_t(a.size()))};
    cl.launch(module->function("add_one"), LaunchDims::linear(static_cast<int64_t>(a.size())),
              args);
}

TEST(OpenCLArray, FromVectorToVectorAndWrap) {
    SMELT_OPENCL_OR_SKIP(cl);
    std::vector<int16_t> small = {-3, 0, 7, 32767};
    Array a = Array::from_vector(small, cl);
    EXPECT_EQ(&a.backend(), cl);
    EXPECT_EQ(a.to_vector<int16_t>(), small);
    std::vector<double> d = {0.5, -1.25, 1e300};
    EXPECT_EQ(Array::from_vector(d, cl).to_vector<double>(), d);
    EXPECT_TRUE(Array::from_vector(std::vector<float>{}, cl).to_vector<float>().empty());

    // wrap(): the caller's memory is the host mirror; data reaches the device on wrap and comes
    // back by pull().
    std::vector<int64_t> host = {10, 20, 30};
    Array w = Array::wrap(host.data(), host.size(), cl);
    EXPECT_EQ(w.host_data(), host.data());
    EXPECT_FALSE(w.owns_memory());
    add_one_on_device(*cl, w);
    EXPECT_EQ(host, (std::vector<int64_t>{10, 20, 30})); // not pulled yet
    w.pull();
    EXPECT_EQ(host, (std::vector<int64_t>{11, 21, 31}));
    host[0] = 100;
    w.push();
    EXPECT_EQ(w.to_vector<int64_t>(), (std::vector<int64_t>{100, 21, 31}));
}

TEST(OpenCLArray, CopyIsDeepAndResizeKeepsDeviceData) {
    SMELT_OPENCL_OR_SKIP(cl);
    Array a = arange(5, DType::Int64, cl);
    add_one_on_device(*cl, a); // device: 1..5
    Array c = a.copy();
    add_one_on_device(*cl, a); // device: 2..6; the copy keeps 1..5
    EXPECT_EQ(c.to_vector<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(a.to_vector<int64_t>(), (std::vector<int64_t>{2, 3, 4, 5, 6}));

    a.resize(3);
    EXPECT_EQ(a.to_vector<int64_t>(), (std::vector<int64_t>{2, 3, 4}));
    a.resize(1000); // grows into a new device buffer; the prefix comes along
    ASSERT_EQ(a.size(), 1000u);
    std::vector<int64_t> grown = a.to_vector<int64_t>();
    EXPECT_EQ(std::vector<int64_t>(grown.begin(), grown.begin() + 3),
              (std::vector<int64_t>{2, 3, 4}));
    a.resize(0);
    EXPECT_TRUE(a.to_vector<int64_t>().empty());
}

// The host mirror of a device array is made on first use, zeroed, and keeps what the host wrote
// until pushed, through copy() and resize() of arrays whose mirror was or was not made.
TEST(OpenCLArray, HostMirrorIsMadeOnFirstUseAndKeepsHostWrites) {
    SMELT_OPENCL_OR_SKIP(cl);
    Array fresh(DType::Int64, 4, cl);
    const auto *h = static_cast<const int64_t *>(fresh.host_data());
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(std::vector<int64_t>(h, h + 4), std::vector<int64_t>(4, 0)); // never pulled
    EXPECT_EQ(Array(DType::Int64, 0, cl).host_data(), nullptr);

    const int64_t values[3] = {5, 6, 8};
    Array a(DType::Int64, 3, cl);
    cl->write(a.buffer(), 0, values, sizeof values); // the device only
    Array untouched = a.copy(); // neither mirror used: the copy's host view is zero
    const auto *u = static_cast<const int64_t *>(untouched.host_data());
    EXPECT_EQ(std::vector<int64_t>(u, u + 3), std::vector<int64_t>(3, 0));
    EXPECT_EQ(untouched.to_vector<int64_t>(), (std::vector<int64_t>{5, 6, 8}));

    Array b(DType::Int64, 3, cl);
    b.data<int64_t>()[1] = 7; // the host view only, until pushed
    Array c = b.copy();       // the copy carries the host view as it is
    EXPECT_EQ(c.data<int64_t>()[1], 7);
    b.resize(50); // grows: the host view's prefix comes along, the rest is zero
    EXPECT_EQ(b.data<int64_t>()[1], 7);
    EXPECT_EQ(b.data<int64_t>()[49], 0);
    b.push();
    EXPECT_EQ(b.to_vector<int64_t>()[1], 7);

    Array grown(DType::Int64, 3, cl);
    cl->write(grown.buffer(), 0, values, sizeof values);
    grown.resize(40); // no host view yet: the device prefix comes along, read back on demand
    const std::vector<int64_t> back = grown.to_vector<int64_t>();
    EXPECT_EQ(std::vector<int64_t>(back.begin(), back.begin() + 3),
              (std::vector<int64_t>{5, 6, 8}));
}

TEST(OpenCLArray, FactoriesTakeAndWhere) {
    SMELT_OPENCL_OR_SKIP(cl);
    EXPECT_EQ(zeros(4, DType::Float32, cl).to_vector<float>(), std::vector<float>(4, 0.0f));
    EXPECT_EQ(full(3, 2.5, DType::Float64, cl).to_vector<double>(), std::vector<double>(3, 2.5));
    EXPECT_EQ(arange(6, DType::Int32, cl).to_vector<int32_t>(),
              (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(arange(1.0, 2.0, 0.25, DType::Float64, cl).to_vector<double>(),
              (std::vector<double>{1.0, 1.25, 1.5, 1.75}));
    EXPECT_EQ(linspace(0, 1, 5, DType::Float64, true, cl).to_vector<double>(),
              (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));

    Array src = arange(10, DType::Int64, cl);
    add_one_on_device(*cl, src); // device: 1..10, the mirror still 0..9
    Array idx = Array::from_vector(std::vector<int32_t>{9, 0, 4, 4}, cl);
    EXPECT_EQ(take(src, idx).to_vector<int64_t>(), (std::vector<int64_t>{10, 1, 5, 5}));
    EXPECT_THROW(take(src, Array::from_vector(std::vector<int32_t>{10}, cl)), UsageError);

    Array cond = Array::from_vector(std::vector<uint8_t>{1, 0, 2, 0}, cl);
    Array a = Array::from_vector(std::vector<double>{1, 2, 3, 4}, cl);
    Array b = Array::from_vector(std::vector<double>{-1, -2, -3, -4}, cl);
    EXPECT_EQ(where(cond, a, b).to_vector<double>(), (std::vector<double>{1, -2, 3, -4}));
    Array on_cpu = zeros(4, DType::Float64, &get_backend("cpu"));
    EXPECT_THROW(where(cond, a, on_cpu), UsageError);
}

// Sorting OpenCL arrays (on the device, primitives/opencl/device_sort.cpp) gives
// std::stable_sort's results; opencl_sort_test.cpp checks every dtype.
TEST(OpenCLArray, SortByKeyAndArgsort) {
    SMELT_OPENCL_OR_SKIP(cl);
    std::mt19937 rng(7);
    std::vector<int32_t> keys(5000);
    for (auto &k : keys)
        k = static_cast<int32_t>(rng() % 100) - 50;
    std::vector<int64_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });

    Array k = Array::from_vector(keys, cl);
    EXPECT_EQ(argsort(k).to_vector<int64_t>(), order);
    Array v = arange(static_cast<int64_t>(keys.size()), DType::Int64, cl);
    sort_by_key(k, &v);
    std::vector<int32_t> sorted_keys(keys.size());
    for (size_t i = 0; i < order.size(); ++i)
        sorted_keys[i] = keys[order[i]];
    EXPECT_EQ(k.to_vector<int32_t>(), sorted_keys);
    EXPECT_EQ(v.to_vector<int64_t>(), order);
}

} // namespace
} // namespace smelt

#else

TEST(OpenCLArray, Skipped) {
    GTEST_SKIP() << "no OpenCL device: smelt was built without OpenCL";
}

#endif
