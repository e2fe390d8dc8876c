// Backend lookup by name, and the `smelt` CLI's devices and cache commands run as a process.
#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"
#include "cache/disk_cache.h"
#include "support/error.h"
#include "support/process.h"

#include "runtime_test_util.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

using testing_util::ScopedEnv;
using testing_util::TempDir;

TEST(Registry, CpuBackendsByName) {
    Backend &cpu = get_backend("cpu");
    EXPECT_EQ(cpu.name(), "cpu");
    EXPECT_EQ(&get_backend("cpu"), &cpu); // one per process
    auto &serial = dynamic_cast<cpu::CpuBackend &>(get_backend("cpu:serial"));
    EXPECT_TRUE(serial.serial());
    EXPECT_EQ(serial.num_threads(), 1);
    EXPECT_FALSE(dynamic_cast<cpu::CpuBackend &>(cpu).serial());
    EXPECT_FALSE(cpu.devices().empty());
}

TEST(Registry, UnavailableAndUnknownBackendsSayWhy) {
    // A backend this machine lacks (cuda or opencl without a device; none on a machine with both).
    for (const BackendStatus &b : list_backends()) {
        if (b.available) continue;
        try {
            get_backend(b.name);
            FAIL() << b.name;
        } catch (const UsageError &e) {
            EXPECT_NE(std::string(e.what()).find("not available"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("available: cpu"), std::string::npos) << e.what();
        }
    }
    try {
        get_backend("vulkan");
        FAIL();
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("unknown backend 'vulkan'"), std::string::npos);
    }
    ScopedEnv env("SMELT_BACKEND", "cpu:serial");
    EXPECT_EQ(&default_backend(), &get_backend("cpu:serial"));
}

TEST(Registry, ThreadCountFromEnvironment) {
    {
        ScopedEnv a("SMELT_NUM_THREADS", "3");
        ScopedEnv b("OMP_NUM_THREADS", "5");
        EXPECT_EQ(cpu::default_num_threads(), 3);
    }
    {
        ScopedEnv a("SMELT_NUM_THREADS", std::nullopt);
        ScopedEnv b("OMP_NUM_THREADS", "5,2");
        EXPECT_EQ(cpu::default_num_threads(), 5);
    }
    cpu::CpuBackend b({.num_threads = 4});
    EXPECT_EQ(b.num_threads(), 4);
    EXPECT_THROW(b.set_num_threads(0), UsageError);
}

#ifdef SMELT_CLI
TEST(Cli, DevicesCacheInfoAndClear) {
    TempDir dir;
    ScopedEnv cache_dir("SMELT_CACHE_DIR", dir.path().string());
    ScopedEnv backend("SMELT_BACKEND", std::nullopt);

    ProcessResult devices = run_process({SMELT_CLI, "devices"});
    EXPECT_EQ(devices.exit_status, 0) << devices.output;
    EXPECT_NE(devices.output.find("cpu         available"), std::string::npos) << devices.output;
    EXPECT_NE(devices.output.find("threads"), std::string::npos) << devices.output;
    EXPECT_NE(devices.output.find("cuda        "), std::string::npos) << devices.output;

    // Two entries built through the library show up in `cache info` and go with `cache clear`.
    cpu::CpuBackend cpu({}, DiskCache(dir.path()));
    cpu.compile({testing_util::add_kernel_source("cli one"), {"add_const"}});
    cpu.compile({testing_util::add_kernel_source("cli two"), {"add_const"}});
    ProcessResult info = run_process({SMELT_CLI, "cache", "info"});
    EXPECT_EQ(info.exit_status, 0) << info.output;
    EXPECT_NE(info.output.find(dir.path().string()), std::string::npos) << info.output;
    EXPECT_NE(info.output.find("entries:      2 (cpu: 2)"), std::string::npos) << info.output;

    ProcessResult clear = run_process({SMELT_CLI, "cache", "clear"});
    EXPECT_EQ(clear.exit_status, 0) << clear.output;
    EXPECT_NE(clear.output.find("removed 2 entries"), std::string::npos) << clear.output;
    EXPECT_EQ(DiskCache(dir.path()).info().entries, 0u);

    ProcessResult version = run_process({SMELT_CLI, "--version"});
    EXPECT_NE(version.output.find(SMELT_VERSION), std::string::npos) << version.output;
    ProcessResult bad = run_process({SMELT_CLI, "cache", "frobnicate"});
    EXPECT_NE(bad.exit_status, 0);
}
#endif

} // namespace
} // namespace smelt
