// The CPU toolchain end to end: a generated source compiles, loads and runs through the launch
// ABI; compiler failures surface as BackendError with the compiler's message and the kept source.
#include "array/array_ops.h"
#include "backends/cpu/compiler.h"
#include "backends/cpu/cpu_backend.h"
#include "support/error.h"

#include "runtime_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace smelt {
namespace {

using testing_util::add_kernel_source;
using testing_util::ScopedEnv;
using testing_util::TempDir;

TEST(CpuCompiler, GoodSourceCompilesAndRunsThroughLaunch) {
    TempDir dir;
    cpu::CpuBackend backend({}, DiskCache(dir.path()));
    ModuleSource src{add_kernel_source("good"), {"add_const"}, "test", "(doublep, double)", {}};
    std::shared_ptr<Module> module = backend.compile(src);
    Array x = arange(1000, DType::Float64, &backend);
    const KernelArg args[] = {KernelArg::of(x.buffer()), KernelArg::of(2.5)};
    backend.launch(module->function("add_const"), LaunchDims::linear(1000), args);
    std::vector<double> got = x.to_vector<double>();
    for (size_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got[i], double(i) + 2.5);
    // The generated source is kept beside the binary.
    EXPECT_EQ(testing_util::slurp(module->path().parent_path() / "kernel.cpp"), src.source);
}

TEST(CpuCompiler, SerialModeBuildsWithoutOpenMP) {
    TempDir dir;
    cpu::CpuBackend backend({.serial = true}, DiskCache(dir.path()));
    EXPECT_EQ(backend.num_threads(), 1);
    EXPECT_EQ(backend.toolchain_key({}).flags.find("-fopenmp"), std::string::npos);
    std::shared_ptr<Module> module = backend.compile({add_kernel_source("serial"), {"add_const"}});
    Array x = zeros(10, DType::Float64, &backend);
    const KernelArg args[] = {KernelArg::of(x.buffer()), KernelArg::of(1.0)};
    backend.launch(module->function("add_const"), LaunchDims::linear(10), args);
    EXPECT_EQ(x.to_vector<double>(), std::vector<double>(10, 1.0));
}

TEST(CpuCompiler, BadSourceGivesLogAndKeptSource) {
    TempDir dir;
    cpu::CpuBackend backend({}, DiskCache(dir.path()));
    const std::string source = "extern \"C\" int f() { return undefined_name_xyz; }\n";
    try {
        backend.compile({source, {"f"}, "elementwise"});
        FAIL() << "expected BackendError";
    } catch (const BackendError &e) {
        const std::string what = e.what();
        EXPECT_NE(e.log().find("undefined_name_xyz"), std::string::npos) << e.log();
        EXPECT_NE(what.find("undefined_name_xyz"), std::string::npos);
        EXPECT_NE(what.find("elementwise"), std::string::npos);
        ASSERT_FALSE(e.kept_source().empty());
        EXPECT_NE(what.find(e.kept_source()), std::string::npos);
        EXPECT_EQ(testing_util::slurp(e.kept_source()), source);
        // Messages name the kept file by its own name, not a temporary path.
        EXPECT_NE(e.log().find("kernel.cpp:1:"), std::string::npos) << e.log();
    }
    EXPECT_EQ(DiskCache(dir.path()).info().entries, 0u);
    EXPECT_EQ(DiskCache(dir.path()).info().failed, 1u);
}

TEST(CpuCompiler, MissingEntryPointIsBackendError) {
    TempDir dir;
    cpu::CpuBackend backend({}, DiskCache(dir.path()));
    ModuleSource src{add_kernel_source("missing"), {"add_const", "no_such_entry"}};
    try {
        backend.compile(src);
        FAIL() << "expected BackendError";
    } catch (const BackendError &e) {
        EXPECT_NE(std::string(e.what()).find("no_such_entry"), std::string::npos);
    }
}

TEST(CpuCompiler, UnrunnableCompilerNamesSmeltCxx) {
    TempDir dir;
    ScopedEnv cxx("SMELT_CXX", "/nonexistent/bin/c++");
    cpu::CpuBackend backend({}, DiskCache(dir.path()));
    try {
        backend.compile({add_kernel_source("nocompiler"), {"add_const"}});
        FAIL() << "expected BackendError";
    } catch (const BackendError &e) {
        EXPECT_NE(e.log().find("SMELT_CXX"), std::string::npos) << e.log();
        EXPECT_NE(e.log().find("/nonexistent/bin/c++"), std::string::npos) << e.log();
    }
}

TEST(CpuCompiler, ToolchainComesFromSmeltCxx) {
    ScopedEnv cxx("SMELT_CXX", SMELT_CXX);
    cpu::CxxToolchain tc = cpu::find_toolchain();
    EXPECT_EQ(tc.command, SMELT_CXX);
    EXPECT_NE(tc.version, "unknown");
    EXPECT_FALSE(tc.version.empty());
    std::vector<std::string> flags = cpu::cxx_flags(true, {"-DX=1"});
    for (const char *f : {"-std=c++17", "-O3", "-march=native", "-shared", "-fPIC", "-fopenmp",
                          "-DX=1", "-ffp-contract=off", "-fno-trapping-math", "-fno-finite-loops"})
        EXPECT_NE(std::find(flags.begin(), flags.end(), f), flags.end()) << f;
    EXPECT_EQ(std::find(flags.begin(), flags.end(), "-ffast-math"), flags.end());
    // Fast math trades the one rounding per operation for speed; loops stay kept.
    std::vector<std::string> fast = cpu::cxx_flags(true, {}, true);
    for (const char *f : {"-ffast-math", "-fno-finite-loops"})
        EXPECT_NE(std::find(fast.begin(), fast.end(), f), fast.end()) << f;
    EXPECT_EQ(std::find(fast.begin(), fast.end(), "-ffp-contract=off"), fast.end());
}

TEST(CpuCompiler, FastMathIsPartOfTheCacheKey) {
    cpu::CpuBackend cpu;
    ModuleSource exact, fast;
    fast.fast_math = true;
    const std::string exact_flags = cpu.toolchain_key(exact).flags;
    const std::string fast_flags = cpu.toolchain_key(fast).flags;
    EXPECT_NE(exact_flags, fast_flags);
    EXPECT_NE(exact_flags.find("-ffp-contract=off"), std::string::npos) << exact_flags;
    EXPECT_NE(fast_flags.find("-ffast-math"), std::string::npos) << fast_flags;
}

} // namespace
} // namespace smelt
