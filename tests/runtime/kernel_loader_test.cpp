// compile_or_load with a real compiler: in-process and disk hits without recompiling, a miss
// for each key part a caller can change, damaged entries rebuilt, and four processes building
// one key at the same time.
#include "array/array_ops.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/kernel_loader.h"
#include "support/debug.h"

#include "runtime_test_util.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

namespace smelt {
namespace {

namespace fs = std::filesystem;
using testing_util::add_kernel_source;
using testing_util::ScopedEnv;
using testing_util::TempDir;

// Runs add_const(x, 1.5) from `module` on 100 elements; true when every result is right.
bool module_works(Backend &backend, const Module &module) {
    Array x = arange(100, DType::Float64, &backend);
    const KernelArg args[] = {KernelArg::of(x.buffer()), KernelArg::of(1.5)};
    backend.launch(module.function("add_const"), LaunchDims::linear(100), args);
    std::vector<double> got = x.to_vector<double>();
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != double(i) + 1.5) return false;
    return true;
}

ModuleSource source(const std::string &tag) {
    return {add_kernel_source(tag), {"add_const"}, "elementwise", "(doublep, double)", {}};
}

TEST(KernelLoader, SecondUseIsAHitWithoutCompiling) {
    TempDir dir;
    cpu::CpuBackend first({}, DiskCache(dir.path()));
    auto m1 = first.compile(source("hit"));
    auto m2 = first.compile(source("hit"));
    EXPECT_EQ(m1, m2);
    EXPECT_EQ(first.loader().stats().builds, 1u);
    EXPECT_EQ(first.loader().stats().memory_hits, 1u);
    EXPECT_TRUE(module_works(first, *m1));

    // A fresh process (here: a fresh backend, so an empty in-process map) finds it on disk.
    cpu::CpuBackend second({}, DiskCache(dir.path()));
    auto m3 = second.compile(source("hit"));
    EXPECT_EQ(second.loader().stats().builds, 0u);
    EXPECT_EQ(second.loader().stats().disk_hits, 1u);
    EXPECT_TRUE(module_works(second, *m3));
}

TEST(KernelLoader, DebugLinesReportMissCompileAndHit) {
    TempDir dir;
    std::string out;
    debug::set_level_for_testing(1);
    debug::set_sink_for_testing([&](std::string_view s) { out += s; });
    cpu::CpuBackend(cpu::CpuOptions{}, DiskCache(dir.path())).compile(source("debug"));
    cpu::CpuBackend(cpu::CpuOptions{}, DiskCache(dir.path())).compile(source("debug"));
    debug::set_sink_for_testing({});
    debug::set_level_for_testing(-1);
    EXPECT_NE(out.find("smelt: cache miss: elementwise [(doublep, double)]"), std::string::npos)
        << out;
    EXPECT_NE(out.find("-march=native"), std::string::npos) << out;
    EXPECT_NE(out.find("compile: done in"), std::string::npos) << out;
    EXPECT_NE(out.find("smelt: cache hit: elementwise"), std::string::npos) << out;
}

// The command-line tools' notice: one line on stderr at the first build, none on a cache hit,
// none for later builds of the process, none with the notice off (the library's default).
TEST(KernelLoader, CompileNoticeOnTheFirstBuildOnly) {
    TempDir dir;
    const std::string line = "smelt: compiling kernels for cpu (once: later runs load them";
    set_compile_notice(true);
    ::testing::internal::CaptureStderr();
    cpu::CpuBackend(cpu::CpuOptions{}, DiskCache(dir.path())).compile(source("notice"));
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(line), std::string::npos) << err;

    set_compile_notice(true); // armed again: a disk hit still says nothing
    ::testing::internal::CaptureStderr();
    cpu::CpuBackend(cpu::CpuOptions{}, DiskCache(dir.path())).compile(source("notice"));
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.find("compiling kernels"), std::string::npos) << err;

    ::testing::internal::CaptureStderr(); // a build, after the hit: the first, so one line
    cpu::CpuBackend(cpu::CpuOptions{}, DiskCache(dir.path())).compile(source("notice 2"));
    cpu::CpuBackend(cpu::CpuOptions{}, DiskCache(dir.path())).compile(source("notice 3"));
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.find(line), err.rfind(line)) << err;
    EXPECT_NE(err.find(line), std::string::npos) << err;

    set_compile_notice(false);
    ::testing::internal::CaptureStderr();
    cpu::CpuBackend(cpu::CpuOptions{}, DiskCache(dir.path())).compile(source("notice 4"));
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.find("compiling kernels"), std::string::npos) << err;
}

TEST(KernelLoader, EachKeyPartIsAMiss) {
    TempDir dir;
    cpu::CpuBackend backend({}, DiskCache(dir.path()));
    backend.compile(source("parts"));
    size_t builds = 1;
    std::vector<std::pair<const char *, ModuleSource>> variants;
    variants.push_back({"source", source("parts, edited")});
    variants.push_back({"signature", source("parts")});
    variants.back().second.signature = "(doublep, float)";
    variants.push_back({"primitive", source("parts")});
    variants.back().second.primitive = "reduction";
    variants.push_back({"flags", source("parts")});
    variants.back().second.extra_flags = {"-DSOMETHING=1"};
    for (const auto &[what, src] : variants) {
        EXPECT_NE(backend.loader().key_for(src).hex(),
                  backend.loader().key_for(source("parts")).hex())
            << what;
        EXPECT_TRUE(module_works(backend, *backend.compile(src))) << what;
        EXPECT_EQ(backend.loader().stats().builds, ++builds) << what;
    }
    // Serial mode changes the flags; another compiler changes its path and version.
    cpu::CpuBackend serial({.serial = true}, DiskCache(dir.path()));
    serial.compile(source("parts"));
    EXPECT_EQ(serial.loader().stats().builds, 1u);
    if (fs::exists("/usr/bin/clang++")) {
        const ToolchainKey before = backend.toolchain_key({});
        ScopedEnv cxx("SMELT_CXX", "/usr/bin/clang++");
        cpu::CpuBackend clang({}, DiskCache(dir.path()));
        EXPECT_NE(clang.toolchain_key({}).compiler, before.compiler);
        EXPECT_NE(clang.toolchain_key({}).compiler_version, before.compiler_version);
        EXPECT_TRUE(module_works(clang, *clang.compile(source("parts"))));
        EXPECT_EQ(clang.loader().stats().builds, 1u);
        EXPECT_EQ(clang.loader().stats().disk_hits, 0u);
    }
    EXPECT_EQ(DiskCache(dir.path()).info().entries,
              builds + 1 + (fs::exists("/usr/bin/clang++") ? 1 : 0));
}

TEST(KernelLoader, DamagedEntriesAreRebuiltNotLoaded) {
    // Each case builds an entry without loading it (a loaded .so must not be changed under the
    // process), damages it, and checks that the next compile rebuilds a working module.
    const std::vector<std::pair<const char *, void (*)(const fs::path &)>> damage = {
        {"truncated .so", [](const fs::path &so) { fs::resize_file(so, fs::file_size(so) / 2); }},
        {"garbage .so",
         [](const fs::path &so) {
             std::string bytes = testing_util::slurp(so);
             for (size_t i = 0; i < bytes.size(); i += 7)
                 bytes[i] = char(0xAA);
             testing_util::spew(so, bytes); // same size: only the checksum can tell
         }},
        {"empty .so", [](const fs::path &so) { testing_util::spew(so, ""); }},
        {"garbage meta",
         [](const fs::path &so) { testing_util::spew(so.parent_path() / "meta.txt", "x"); }},
    };
    TempDir dir;
    for (const auto &[what, hurt] : damage) {
        cpu::CpuBackend backend({}, DiskCache(dir.path()));
        ModuleSource src = source(std::string("damaged: ") + what);
        fs::path so = backend.loader().ensure_built(src);
        hurt(so);
        auto module = backend.compile(src);
        EXPECT_EQ(backend.loader().stats().corrupt_rebuilt, 1u) << what;
        EXPECT_EQ(backend.loader().stats().builds, 2u) << what;
        EXPECT_TRUE(module_works(backend, *module)) << what;
        EXPECT_EQ(backend.loader()
                      .disk_cache()
                      .lookup(backend.loader().layout(), backend.loader().key_for(src))
                      .status,
                  DiskCache::Status::Hit)
            << what;
    }
}

TEST(KernelLoader, FourProcessesBuildingOneKeyAllSucceed) {
    TempDir dir;
    // No OpenMP in this kernel: a forked child must not rely on the parent's thread pool.
    const ModuleSource src{
        add_kernel_source("concurrent", /*openmp=*/false), {"add_const"}, "elementwise"};
    int gate[2];
    ASSERT_EQ(::pipe(gate), 0);
    std::vector<pid_t> children;
    for (int c = 0; c < 4; ++c) {
        pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(gate[1]);
            char byte;
            (void)::read(gate[0], &byte,
                         1); // returns when the parent closes the pipe: all start together
            int code = 0;
            try {
                cpu::CpuBackend backend({.num_threads = 1}, DiskCache(dir.path()));
                code = module_works(backend, *backend.compile(src)) ? 0 : 2;
            } catch (...) {
                code = 3;
            }
            ::_exit(code);
        }
        children.push_back(pid);
    }
    ::close(gate[0]);
    ::close(gate[1]);
    for (pid_t pid : children) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
    }
    DiskCache cache(dir.path());
    EXPECT_EQ(cache.info().entries, 1u);
    EXPECT_EQ(cache.info().temporary, 0u);
    cpu::CpuBackend after({}, DiskCache(dir.path()));
    EXPECT_TRUE(module_works(after, *after.compile(src)));
    EXPECT_EQ(after.loader().stats().disk_hits, 1u);
}

} // namespace
} // namespace smelt
