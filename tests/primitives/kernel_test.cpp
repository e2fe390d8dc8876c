// smelt::Kernel (Compyle's low-level Kernel) against hand-written loops: a work-group sum through
// LOCAL_MEM and local_barrier (JIT-typed, two specialisations), LocalMem arguments to annotated
// and unannotated parameters, a LOCAL_MEM scalar and a LOCAL_MEM matrix passed to helpers,
// atomic_inc counting, the work-item names against the launch
// geometry, and the mistakes (sizes, arguments, source errors, the CPU backend).
//
// Work-groups exist only on OpenCL and CUDA: these tests run on SMELT_TEST_BACKEND=opencl
// (ctest's opencl.Kernel.*, PoCL here) or cuda, and skip on the CPU, where the refusal itself is
// tested.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

namespace smelt {
namespace {

using namespace testing_util;

const Program &low_level_kernels() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/low_level_kernels.py");
    return p;
}

bool gpu_test_backend() {
    return test_backend().rfind("opencl", 0) == 0 || test_backend().rfind("cuda", 0) == 0;
}

#define SMELT_GPU_BACKEND_OR_SKIP()                                                                \
    if (!gpu_test_backend())                                                                       \
    GTEST_SKIP() << "Kernel needs work-groups (opencl or cuda); SMELT_TEST_BACKEND is "            \
                 << test_backend()

template <class T>
std::vector<T> group_sums(const std::vector<T> &x, int64_t group, int64_t groups) {
    std::vector<T> want(groups, T(0));
    for (size_t i = 0; i < x.size(); ++i)
        want[i / group] += x[i];
    return want;
}

TEST(Kernel, WorkGroupSumThroughLocalMemoryAndBarriers) {
    SMELT_GPU_BACKEND_OR_SKIP();
    Kernel k(low_level_kernels(), "group_sum", test_options());
    EXPECT_EQ(k.source(), "");
    const int64_t n = 1000, group = 64, groups = (n + group - 1) / group;
    // Small integers: every partial sum is exact, so any order gives the loop's result.
    auto x = small_values<double>(n, -50, 50, 11);
    Array X = to_device(x), P = zeros(groups, DType::Float64, &test_device());
    k(groups * group, group, {X, P, int32_t(n)});
    EXPECT_EQ(P.to_vector<double>(), group_sums(x, group, groups));
    EXPECT_NE(k.source().find(spelled(Type::pointer(Scalar::F64)) + "x"), std::string::npos)
        << k.source();

    // float32 arrays: a second specialisation of the same Kernel, with 32-item groups.
    auto xf = small_values<float>(n, 0, 9, 12);
    const int64_t fgroup = 32, fgroups = (n + fgroup - 1) / fgroup;
    Array XF = to_device(xf), PF = zeros(fgroups, DType::Float32, &test_device());
    k(fgroups * fgroup, fgroup, {XF, PF, int32_t(n)});
    EXPECT_EQ(PF.to_vector<float>(), group_sums(xf, fgroup, fgroups));
    EXPECT_NE(k.source().find(spelled(Type::pointer(Scalar::F32)) + "x"), std::string::npos)
        << k.source();
    // Back to float64: the first specialisation again, same results.
    P = zeros(groups, DType::Float64, &test_device());
    k(groups * group, group, {X, P, int64_t(n)}); // an int64 n is converted to the int parameter
    EXPECT_EQ(P.to_vector<double>(), group_sums(x, group, groups));
}

std::vector<int32_t> reversed_groups(const std::vector<int32_t> &x, int64_t group) {
    std::vector<int32_t> want(x.size());
    const int64_t n = static_cast<int64_t>(x.size());
    for (int64_t i = 0; i < n; ++i) {
        int64_t partner = (i / group) * group + (group - 1 - i % group);
        want[i] = partner < n ? x[partner] : -1; // past the end the group holds -1
    }
    return want;
}

TEST(Kernel, LocalMemArgumentsForAnnotatedAndUnannotatedParameters) {
    SMELT_GPU_BACKEND_OR_SKIP();
    const int64_t n = 300, group = 128, groups = (n + group - 1) / group;
    std::vector<int32_t> x(n);
    std::iota(x.begin(), x.end(), 7);
    Array X = to_device(x);
    for (const char *func : {"reverse_groups", "reverse_groups_untyped"}) {
        SCOPED_TRACE(func);
        Kernel k(low_level_kernels(), func, test_options());
        Array Y = full(n, -2, DType::Int32, &test_device());
        // The annotated parameter is lintp: LocalMem needs no dtype there, but may have the right
        // one; the unannotated one is typed by it.
        k(groups * group, group, {X, Y, LocalMem(group, DType::Int32), int32_t(n)});
        EXPECT_EQ(Y.to_vector<int32_t>(), reversed_groups(x, group));
    }
    Kernel typed(low_level_kernels(), "reverse_groups", test_options());
    Array Y = zeros(n, DType::Int32, &test_device());
    typed(groups * group, group, {X, Y, LocalMem(group), int32_t(n)});
    EXPECT_EQ(Y.to_vector<int32_t>(), reversed_groups(x, group));

    // LocalMem where an array is expected and the other way round, a wrong dtype, no dtype for an
    // unannotated parameter, and no elements.
    EXPECT_THROW(typed(group, group, {LocalMem(group), Y, LocalMem(group), 1}), UsageError);
    EXPECT_THROW(typed(group, group, {X, Y, Y, 1}), UsageError);
    EXPECT_THROW(typed(group, group, {X, Y, LocalMem(group, DType::Float64), 1}), UsageError);
    EXPECT_THROW(typed(group, group, {X, Y, LocalMem(0), 1}), UsageError);
    Kernel untyped(low_level_kernels(), "reverse_groups_untyped", test_options());
    try {
        untyped(group, group, {X, Y, LocalMem(group), 1});
        FAIL() << "LocalMem without a dtype cannot type a parameter";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("parameter 'buf' of 'reverse_groups_untyped'"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Kernel, LocalScalarAndLocalMatrixPassedToHelpers) {
    SMELT_GPU_BACKEND_OR_SKIP();
    const int64_t n = 200, group = 32, groups = (n + group - 1) / group;
    auto x = small_values<double>(n, -50, 50, 17); // integers: every sum is exact
    std::vector<double> padded(x);
    padded.resize(groups * group, 0.0);
    std::vector<double> want(n);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t g = i / group;
        double total = 0;
        for (int64_t k = 0; k < group; ++k)
            total += padded[g * group + k];
        want[i] = padded[g * group + (group - 1 - i % group)] + total;
    }
    Kernel k(low_level_kernels(), "group_reverse_plus_total", test_options());
    Array X = to_device(x), out = zeros(n, DType::Float64, &test_device());
    k(groups * group, group, {X, out, int32_t(n)});
    EXPECT_EQ(out.to_vector<double>(), want);
}

TEST(Kernel, AtomicIncCountsAndHandsOutEverySlotOnce) {
    SMELT_GPU_BACKEND_OR_SKIP();
    const int64_t n = 5000, group = 64;
    auto x = small_values<double>(n, 0, 99, 13);
    const double threshold = 41.5;
    std::vector<int32_t> want;
    for (int64_t i = 0; i < n; ++i)
        if (x[i] > threshold) want.push_back(static_cast<int32_t>(i));
    Array X = to_device(x), counter = zeros(1, DType::Int32, &test_device());
    Array slots = full(n, -1, DType::Int32, &test_device());
    Kernel k(low_level_kernels(), "count_above", test_options());
    k((n + group - 1) / group * group, group, {X, counter, slots, n, threshold});
    ASSERT_EQ(counter.to_vector<int32_t>()[0], static_cast<int32_t>(want.size()));
    // Each old value went to exactly one work-item: the first count slots hold every index
    // above the threshold once (in an order the hardware chose), the rest are untouched.
    std::vector<int32_t> got = slots.to_vector<int32_t>();
    std::vector<int32_t> filled(got.begin(), got.begin() + want.size());
    std::sort(filled.begin(), filled.end());
    EXPECT_EQ(filled, want);
    EXPECT_TRUE(
        std::all_of(got.begin() + want.size(), got.end(), [](int32_t v) { return v == -1; }));
}

TEST(Kernel, WorkItemNamesMatchTheLaunchGeometry) {
    SMELT_GPU_BACKEND_OR_SKIP();
    Kernel k(low_level_kernels(), "geometry", test_options());
    const int items = 8 * 6 * 2;
    Array out = full(12 * items, -1, DType::Int32, &test_device());
    k({8, 6, 2}, {4, 3, 1}, {out});
    std::vector<int32_t> got = out.to_vector<int32_t>();
    // Every work-item, by its global coordinates (x, y, z): LID, GID, LDIM, GDIM as Compyle names
    // them (GID the group's index, GDIM the number of groups).
    std::multiset<std::vector<int32_t>> want, have;
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 6; ++y)
            for (int x = 0; x < 8; ++x)
                want.insert({x % 4, y % 3, 0, x / 4, y / 3, z, 4, 3, 1, 2, 2, 2});
    for (int i = 0; i < items; ++i)
        have.insert(std::vector<int32_t>(got.begin() + 12 * i, got.begin() + 12 * i + 12));
    EXPECT_EQ(have, want);

    // One dimension: the global index GID_0 * LDIM_0 + LID_0 covers [0, global) once.
    Kernel f(low_level_kernels(), "fill", test_options());
    Array x = zeros(96, DType::Float64, &test_device());
    f(96, 32, {x, 2.5});
    EXPECT_EQ(x.to_vector<double>(), std::vector<double>(96, 2.5));
}

TEST(Kernel, SizeAndCallMistakesAreUsageErrors) {
    SMELT_GPU_BACKEND_OR_SKIP();
    Kernel f(low_level_kernels(), "fill", test_options());
    Array x = zeros(64, DType::Float64, &test_device());
    try {
        f(100, 32, {x, 1.0});
        FAIL() << "a global size that is not a multiple of the work-group size";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("not a multiple of the work-group size 32"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(f(64, 0, {x, 1.0}), UsageError);
    EXPECT_THROW(f(-64, 32, {x, 1.0}), UsageError);
    EXPECT_THROW(f(64, 32, {x}), UsageError); // argument count
    Array on_cpu = zeros(64, DType::Float64, &get_backend("cpu"));
    EXPECT_THROW(f(64, 32, {on_cpu, 1.0}), UsageError); // another backend
    EXPECT_THROW(Kernel(low_level_kernels(), "no_such", test_options()), UsageError);
    // A global size of 0 compiles (mistakes show) and runs nothing.
    f(0, 32, {x, 3.0});
    EXPECT_EQ(x.to_vector<double>(), std::vector<double>(64, 0.0));
}

TEST(Kernel, MistakesInTheSourceAreLocatedInTheFile) {
    SMELT_GPU_BACKEND_OR_SKIP();
    Kernel k(low_level_kernels(), "bad_kernel", test_options());
    Array x = zeros(32, DType::Float64, &test_device());
    try {
        k(32, 32, {x});
        FAIL() << "bad_kernel uses an undefined name";
    } catch (const CompileError &e) {
        const Diagnostic &d = e.diagnostics().at(0);
        EXPECT_NE(d.file.find("low_level_kernels.py"), std::string::npos) << d.file;
        EXPECT_EQ(d.loc.line, 77) << e.what();
        EXPECT_NE(d.message.find("undefined_name"), std::string::npos) << d.message;
    }
}

TEST(Kernel, CpuBackendsAreRefused) {
    // Runs on every test backend: the refusal does not need a device.
    for (const char *cpu : {"cpu", "cpu:serial"}) {
        try {
            Kernel(low_level_kernels(), "fill", Options{cpu});
            FAIL() << "Kernel on " << cpu;
        } catch (const UsageError &e) {
            const std::string msg = e.what();
            EXPECT_NE(msg.find("needs the opencl or cuda backend"), std::string::npos) << msg;
            EXPECT_NE(msg.find("use Elementwise"), std::string::npos) << msg;
        }
    }
}

} // namespace
} // namespace smelt
