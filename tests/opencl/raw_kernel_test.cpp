// Low-level kernels (RawKernel) on OpenCL: a work-group reduction through LOCAL_MEM and through
// a LocalMem argument, the work-item builtins against the launch geometry, integer and float
// atomics, the precision switch, and the located errors for what OpenCL cannot run.
#include "opencl_test_util.h"

#include "../runtime/runtime_test_util.h"

#include <gtest/gtest.h>

#ifdef SMELT_HAVE_OPENCL

#include "array/array_ops.h"
#include "primitives/raw_kernel.h"

#include <cmath>
#include <functional>
#include <set>
#include <tuple>

namespace smelt {
namespace {

using testing_util::parse_text;
using testing_util::TempDir;

// Line numbers matter: errors below are expected at these lines.
const char *kKernels = R"(from compyle.api import annotate, declare


@annotate(x='doublep', partial='doublep', n='int')
def block_sum(x, partial, n):
    buf = declare('LOCAL_MEM matrix(64)')
    lid = LID_0
    gid = GID_0 * LDIM_0 + LID_0
    if gid < n:
        buf[lid] = x[gid]
    else:
        buf[lid] = 0.0
    local_barrier()
    s = LDIM_0 // 2
    while s > 0:
        if lid < s:
            buf[lid] += buf[lid + s]
        local_barrier()
        s = s // 2
    if lid == 0:
        partial[GID_0] = buf[0]


@annotate(x='floatp', partial='floatp', buf='lfloatp', n='int')
def block_sum_arg(x, partial, buf, n):
    lid = LID_0
    gid = GID_0 * LDIM_0 + LID_0
    buf[lid] = x[gid] if gid < n else 0.0
    local_barrier()
    s = LDIM_0 // 2
    while s > 0:
        if lid < s:
            buf[lid] += buf[lid + s]
        local_barrier()
        s = s // 2
    if lid == 0:
        partial[GID_0] = buf[0]


@annotate(out='intp')
def geometry(out):
    group = (GID_2 * GDIM_1 + GID_1) * GDIM_0 + GID_0
    item = (LID_2 * LDIM_1 + LID_1) * LDIM_0 + LID_0
    k = 12 * (group * LDIM_0 * LDIM_1 * LDIM_2 + item)
    out[k] = LID_0
    out[k + 1] = LID_1
    out[k + 2] = LID_2
    out[k + 3] = GID_0
    out[k + 4] = GID_1
    out[k + 5] = GID_2
    out[k + 6] = LDIM_0
    out[k + 7] = LDIM_1
    out[k + 8] = LDIM_2
    out[k + 9] = GDIM_0
    out[k + 10] = GDIM_1
    out[k + 11] = GDIM_2


@annotate(counter='intp', seen='intp', down='uintp', n='int')
def count(counter, seen, down, n):
    i = GID_0 * LDIM_0 + LID_0
    if i < n:
        old = atomic_inc(counter[0])
        seen[old] = seen[old] + 1
        atomic_dec(down[0])


@annotate(total='floatp', x='floatp', n='int')
def float_sum(total, x, n):
    i = GID_0 * LDIM_0 + LID_0
    if i < n:
        atomic_add(total[0], x[i])


@annotate(total='longp', dtotal='doublep', n='int')
def wide_sum(total, dtotal, n):
    i = GID_0 * LDIM_0 + LID_0
    if i < n:
        atomic_add(total[i % 3], i)
        atomic_add(dtotal[0], 0.5)


@annotate(x='doublep', factor='double')
def scale(x, factor):
    i = GID_0 * LDIM_0 + LID_0
    x[i] = x[i] * factor + sqrt(2.0) / 3


@annotate(n='int', return_='int')
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@annotate(x='intp')
def calls_fact(x):
    x[0] = fact(5)


def helper(x):
    tmp = declare('LOCAL_MEM matrix(8)')
    tmp[0] = x[0]
    return tmp[0]


@annotate(x='doublep')
def calls_helper(x):
    x[1] = helper(x)


@annotate(x='doublep', return_='double')
def returns(x):
    return x[0]
)";

std::shared_ptr<const ast::Module> kernels() {
    static auto m = parse_text("raw_kernels.py", kKernels);
    return m;
}

// The first diagnostic of a CompileError thrown by `f`: "line:col message".
std::string compile_error(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &e) {
        const Diagnostic &d = e.diagnostics().at(0);
        return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + " " + d.message;
    }
    return "(no CompileError)";
}

TEST(OpenCLRawKernel, WorkGroupReductionThroughLocalMem) {
    SMELT_OPENCL_OR_SKIP(cl);
    const int n = 1000, group = 64, groups = (n + group - 1) / group;
    std::vector<double> x(n);
    for (int i = 0; i < n; ++i)
        x[i] = (i * 37) % 101 - 50; // integers: every partial sum is exact
    Array xs = Array::from_vector(x, cl);
    Array partial = zeros(groups, DType::Float64, cl);
    RawKernel k(kernels(), "block_sum", {}, Precision::Double, cl);
    EXPECT_NE(k.source().find("__kernel void block_sum("), std::string::npos) << k.source();
    EXPECT_NE(k.source().find("__local double buf[64];"), std::string::npos);
    EXPECT_NE(k.source().find("#line 5 \"raw_kernels.py\""), std::string::npos);
    k.launch(LaunchDims::linear(groups * group, group), {xs, partial, n});
    std::vector<double> got = partial.to_vector<double>();
    for (int g = 0; g < groups; ++g) {
        double want = 0;
        for (int i = g * group; i < std::min(n, (g + 1) * group); ++i)
            want += x[i];
        EXPECT_EQ(got[g], want) << "group " << g;
    }
}

TEST(OpenCLRawKernel, WorkGroupReductionThroughALocalMemArgument) {
    SMELT_OPENCL_OR_SKIP(cl);
    const int n = 500, group = 32, groups = (n + group - 1) / group;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i)
        x[i] = static_cast<float>(i % 9);
    Array xs = Array::from_vector(x, cl);
    Array partial = zeros(groups, DType::Float32, cl);
    RawKernel k(kernels(), "block_sum_arg", {}, Precision::Double, cl);
    EXPECT_NE(k.source().find("__local float *buf"), std::string::npos) << k.source();
    k.launch(LaunchDims::linear(groups * group, group),
             {xs, partial, LocalMem(group, DType::Float32), n});
    std::vector<float> got = partial.to_vector<float>();
    for (int g = 0; g < groups; ++g) {
        float want = 0;
        for (int i = g * group; i < std::min(n, (g + 1) * group); ++i)
            want += x[i];
        EXPECT_EQ(got[g], want) << "group " << g;
    }
    // LocalMem of the wrong dtype, or an Array where local memory is expected.
    EXPECT_THROW(k.launch(LaunchDims::linear(group, group),
                          {xs, partial, LocalMem(group, DType::Float64), n}),
                 UsageError);
    EXPECT_THROW(k.launch(LaunchDims::linear(group, group), {xs, partial, xs, n}), UsageError);
}

TEST(OpenCLRawKernel, WorkItemBuiltinsMatchTheLaunchGeometry) {
    SMELT_OPENCL_OR_SKIP(cl);
    LaunchDims dims;
    dims.global[0] = 8, dims.global[1] = 6, dims.global[2] = 2;
    dims.local[0] = 4, dims.local[1] = 3, dims.local[2] = 1;
    const int items = 8 * 6 * 2;
    Array out = full(12 * items, -1, DType::Int32, cl);
    RawKernel k(kernels(), "geometry", {}, Precision::Double, cl);
    k.launch(dims, {out});
    std::vector<int32_t> got = out.to_vector<int32_t>();
    // Every work-item, by its global coordinates, with what Compyle's names must give.
    std::set<std::vector<int32_t>> want, have;
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 6; ++y)
            for (int x = 0; x < 8; ++x)
                want.insert({x % 4, y % 3, 0, x / 4, y / 3, z, 4, 3, 1, 2, 2, 2});
    for (int k = 0; k < items; ++k)
        have.insert(std::vector<int32_t>(got.begin() + 12 * k, got.begin() + 12 * k + 12));
    EXPECT_EQ(have, want);
}

TEST(OpenCLRawKernel, AtomicIncAndDecFromEveryWorkItem) {
    SMELT_OPENCL_OR_SKIP(cl);
    const int n = 3000;
    Array counter = zeros(1, DType::Int32, cl);
    Array seen = zeros(n, DType::Int32, cl);
    Array down = Array::from_vector(std::vector<uint32_t>{uint32_t(n) + 5}, cl);
    RawKernel k(kernels(), "count", {}, Precision::Double, cl);
    k.launch(LaunchDims::linear(3072, 64), {counter, seen, down, n});
    EXPECT_EQ(counter.to_vector<int32_t>()[0], n);
    // Each old value was returned to exactly one work-item.
    EXPECT_EQ(seen.to_vector<int32_t>(), std::vector<int32_t>(n, 1));
    EXPECT_EQ(down.to_vector<uint32_t>()[0], 5u);
}

TEST(OpenCLRawKernel, AtomicAddOfFloats) {
    SMELT_OPENCL_OR_SKIP(cl);
    const int n = 4000;
    std::vector<float> x(n);
    double want = 0;
    for (int i = 0; i < n; ++i)
        want += x[i] = static_cast<float>(i % 13) * 0.5f; // halves: sums are exact in float
    Array total = zeros(1, DType::Float32, cl);
    Array xs = Array::from_vector(x, cl);
    RawKernel k(kernels(), "float_sum", {}, Precision::Double, cl);
    k.launch(LaunchDims::linear(n), {total, xs, n});
    EXPECT_EQ(total.to_vector<float>()[0], static_cast<float>(want));
}

TEST(OpenCLRawKernel, SixtyFourBitAtomics) {
    SMELT_OPENCL_OR_SKIP(cl);
    if (!cl->device().int64_atomics || !cl->has_fp64())
        GTEST_SKIP() << "the device lacks cl_khr_int64_base_atomics or fp64";
    const int n = 2000;
    Array total = zeros(3, DType::Int64, cl);
    Array dtotal = zeros(1, DType::Float64, cl);
    RawKernel k(kernels(), "wide_sum", {}, Precision::Double, cl);
    k.launch(LaunchDims::linear(2048, 128), {total, dtotal, n});
    std::vector<int64_t> want(3, 0);
    for (int i = 0; i < n; ++i)
        want[i % 3] += i;
    EXPECT_EQ(total.to_vector<int64_t>(), want);
    EXPECT_EQ(dtotal.to_vector<double>()[0], 0.5 * n);
}

TEST(OpenCLRawKernel, DoubleOnADeviceWithoutFp64AndTheSinglePrecisionSwitch) {
    SMELT_OPENCL_OR_SKIP(shared);
    TempDir dir;
    opencl::OpenCLBackend no_fp64({.pretend_no_fp64 = true}, DiskCache(dir.path()));
    try {
        RawKernel k(kernels(), "scale", {}, Precision::Double, &no_fp64);
        FAIL() << "a double kernel must not build on a device without fp64";
    } catch (const UsageError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("scale(x: doublep, factor: double)"), std::string::npos) << msg;
        EXPECT_NE(msg.find("Precision::Single"), std::string::npos) << msg;
    }
    // The same source compiled with the precision switch has no double anywhere and runs.
    RawKernel k(kernels(), "scale", {}, Precision::Single, &no_fp64);
    EXPECT_EQ(k.source().find("double"), std::string::npos) << k.source();
    EXPECT_EQ(k.source().find("cl_khr_fp64"), std::string::npos);
    std::vector<float> x = {1, 2, 3, 4};
    Array xs = Array::from_vector(x, &no_fp64);
    k.launch(LaunchDims::linear(4, 4), {xs, 1.5});
    std::vector<float> got = xs.to_vector<float>();
    for (size_t i = 0; i < x.size(); ++i)
        EXPECT_FLOAT_EQ(got[i], x[i] * 1.5f + std::sqrt(2.0f) / 3.0f);
}

TEST(OpenCLRawKernel, WhatOpenCLCannotRunIsALocatedError) {
    SMELT_OPENCL_OR_SKIP(cl);
    auto make = [&](const char *fn) { RawKernel(kernels(), fn, {}, Precision::Double, cl); };
    std::string recursion = compile_error([&] { make("calls_fact"); });
    EXPECT_EQ(recursion.rfind("93:", 0), 0u) << recursion;
    EXPECT_NE(recursion.find("recursion is not supported on the opencl backend"), std::string::npos)
        << recursion;
    std::string helper = compile_error([&] { make("calls_helper"); });
    EXPECT_EQ(helper.rfind("102:11 ", 0), 0u) << helper; // the declare() in helper
    EXPECT_NE(helper.find("only be declared in the kernel function itself ('calls_helper')"),
              std::string::npos)
        << helper;
    std::string returns = compile_error([&] { make("returns"); });
    EXPECT_NE(returns.find("a low-level kernel returns nothing"), std::string::npos) << returns;
}

TEST(OpenCLRawKernel, ArgumentMistakesAndTheCpuBackendAreUsageErrors) {
    SMELT_OPENCL_OR_SKIP(cl);
    RawKernel k(kernels(), "float_sum", {}, Precision::Double, cl);
    Array total = zeros(1, DType::Float32, cl);
    Array doubles = zeros(4, DType::Float64, cl);
    Array on_cpu = zeros(4, DType::Float32, &get_backend("cpu"));
    EXPECT_THROW(k.launch(LaunchDims::linear(4), {total, doubles}), UsageError);        // count
    EXPECT_THROW(k.launch(LaunchDims::linear(4), {total, doubles, 4}), UsageError);     // dtype
    EXPECT_THROW(k.launch(LaunchDims::linear(4), {total, on_cpu, 4}), UsageError);      // backend
    EXPECT_THROW(k.launch(LaunchDims::linear(4), {total, LocalMem(4), 4}), UsageError); // local
    EXPECT_THROW(RawKernel(kernels(), "float_sum", {}, Precision::Double, &get_backend("cpu")),
                 UsageError);
}

} // namespace
} // namespace smelt

#else

TEST(OpenCLRawKernel, Skipped) {
    GTEST_SKIP() << "no OpenCL device: smelt was built without OpenCL";
}

#endif
