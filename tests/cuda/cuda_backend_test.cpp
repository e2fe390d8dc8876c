// The CUDA backend itself (needs a GPU; skipped without one): memory, transfers, the registry
// entry, the NVRTC build with its disk cache, and the errors for a failed build, a refused
// launch and an impossible allocation.
#include "cuda_test_util.h"

#ifdef SMELT_HAVE_CUDA

#include "backends/cuda/cuda_module.h"
#include "primitives/cuda/raw_kernel.h"
#include "primitives/program_data.h"

#include <filesystem>
#include <numeric>
#include <unistd.h>

namespace smelt {
namespace {

using namespace testing_util;

std::filesystem::path fresh_dir(const std::string &name) {
    auto p = std::filesystem::temp_directory_path() /
             ("smelt-cuda-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

ModuleSource raw_source(const std::string &func) {
    CompileOptions o;
    o.backend = "cuda";
    auto m = build_ir(*cuda_kernels().data().module, {{func, {}, {}}}, o);
    auto unit = primitives::cuda::raw_kernel_unit(*m, func);
    ModuleSource src;
    src.source = unit.source;
    src.symbols = {unit.entry};
    src.primitive = "raw_kernel";
    src.signature = func;
    return src;
}

TEST(CudaBackend, IsListedWithItsDevice) {
    SMELT_REQUIRE_CUDA();
    bool listed = false;
    for (const auto &b : list_backends())
        listed |= b.name == "cuda" && b.available;
    EXPECT_TRUE(listed);
    auto devices = cuda_dev.devices();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_FALSE(devices[0].name.empty());
    EXPECT_NE(devices[0].detail.find("sm_" + std::to_string(cuda_dev.compute_capability())),
              std::string::npos)
        << devices[0].detail;
    EXPECT_GT(cuda_dev.multiprocessors(), 0);
    EXPECT_FALSE(cuda_dev.host_addressable());
}

TEST(CudaBackend, WriteCopyReadWithOffsets) {
    SMELT_REQUIRE_CUDA();
    std::vector<int32_t> host(1000);
    std::iota(host.begin(), host.end(), -500);
    Buffer a = cuda_dev.allocate(host.size() * 4), b = cuda_dev.allocate(host.size() * 4);
    cuda_dev.write(a, 0, host.data(), host.size() * 4);
    cuda_dev.copy(b, 0, a, 0, host.size() * 4);
    cuda_dev.copy(b, 40, a, 400, 80); // b[10..30) = a[100..120)
    std::vector<int32_t> back(host.size(), 0);
    cuda_dev.read(b, 0, back.data(), back.size() * 4);
    std::vector<int32_t> want = host;
    std::copy(host.begin() + 100, host.begin() + 120, want.begin() + 10);
    EXPECT_EQ(back, want);
    int32_t one = 0;
    cuda_dev.read(b, 4 * 999, &one, 4);
    EXPECT_EQ(one, 499);
    cuda_dev.release(a);
    cuda_dev.release(b);
    EXPECT_EQ(a.handle, nullptr);
    EXPECT_EQ(cuda_dev.allocate(0).handle, nullptr);
}

TEST(CudaBackend, ArraysLiveOnTheDevice) {
    SMELT_REQUIRE_CUDA();
    Array a = Array::from_vector(std::vector<double>{1, 2, 3}, &cuda_dev);
    EXPECT_NE(a.host_data(), a.buffer().handle); // a host mirror, not the device memory
    Array c = a.copy();
    a.data<double>()[0] = 10; // the mirror only, until pushed
    EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{1, 2, 3}));
    a.push();
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{10, 2, 3}));
    a.resize(5);
    EXPECT_EQ(a.to_vector<double>()[2], 3.0);
}

TEST(CudaBackend, OutOfMemoryIsAClearBackendError) {
    SMELT_REQUIRE_CUDA();
    try {
        cuda_dev.allocate(size_t(1) << 52); // 4 PiB
        FAIL();
    } catch (const BackendError &e) {
        std::string m = e.what();
        EXPECT_NE(m.find("out of device memory"), std::string::npos) << m;
        EXPECT_NE(m.find("MiB free of"), std::string::npos) << m;
    }
    Buffer fine = cuda_dev.allocate(1024); // the device is still usable
    EXPECT_NE(fine.handle, nullptr);
    cuda_dev.release(fine);
}

TEST(CudaBackend, CubinsAreCachedOnDiskAndLoadedWarm) {
    SMELT_REQUIRE_CUDA();
    const auto dir = fresh_dir("cache");
    const ModuleSource src = raw_source("block_sum");
    {
        cuda::CudaBackend cold(0, DiskCache(dir));
        auto m1 = cold.compile(src);
        auto m2 = cold.compile(src);
        EXPECT_EQ(m1.get(), m2.get());
        EXPECT_EQ(cold.loader().stats().builds, 1u);
        EXPECT_EQ(cold.loader().stats().memory_hits, 1u);
        EXPECT_EQ(m1->path().extension(), ".cubin");
        EXPECT_TRUE(m1->has_function(src.symbols[0]));
        EXPECT_FALSE(m1->has_function("no_such_kernel"));
        EXPECT_THROW(m1->function("no_such_kernel"), BackendError);
    }
    cuda::CudaBackend warm(0, DiskCache(dir));
    auto m = warm.compile(src);
    EXPECT_EQ(warm.loader().stats().builds, 0u);
    EXPECT_EQ(warm.loader().stats().disk_hits, 1u);
    // The key holds the NVRTC options and the architecture.
    const ToolchainKey k = warm.toolchain_key(src);
    EXPECT_EQ(k.compiler, "nvrtc");
    EXPECT_NE(k.flags.find("--gpu-architecture=" + warm.arch()), std::string::npos);
    EXPECT_NE(k.device.find(warm.arch()), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(CudaBackend, BuildErrorsCarryTheLogMappedToThePyFileAndTheKeptSource) {
    SMELT_REQUIRE_CUDA();
    const auto dir = fresh_dir("fail");
    cuda::CudaBackend b(0, DiskCache(dir));
    ModuleSource src;
    src.source = "#line 3 \"model.py\"\nextern \"C\" __global__ void k() { not_declared(); }\n";
    src.symbols = {"k"};
    try {
        b.compile(src);
        FAIL();
    } catch (const BackendError &e) {
        EXPECT_NE(e.log().find("model.py:3: error"), std::string::npos) << e.log();
        EXPECT_TRUE(std::filesystem::exists(e.kept_source())) << e.kept_source();
        EXPECT_NE(std::string(e.what()).find("nvrtc"), std::string::npos) << e.what();
    }
    std::filesystem::remove_all(dir);
}

TEST(CudaBackend, RefusedLaunchNamesTheKernel) {
    SMELT_REQUIRE_CUDA();
    const ModuleSource src = raw_source("block_sum");
    auto m = cuda_dev.compile(src);
    void *f = m->function(src.symbols[0]);
    Buffer x = cuda_dev.allocate(64 * 8), p = cuda_dev.allocate(8);
    const KernelArg args[] = {KernelArg::of(x), KernelArg::of(p), KernelArg::of(int32_t(64))};
    LaunchDims dims = LaunchDims::linear(64, 64);
    dims.shared_bytes = size_t(1) << 30; // far beyond any GPU's shared memory
    try {
        cuda_dev.launch(f, dims, args);
        FAIL();
    } catch (const BackendError &e) {
        EXPECT_NE(std::string(e.what()).find("smelt_kernel_block_sum"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(cuda_dev.launch(f, LaunchDims::linear(4096, 4096), args), UsageError);
    cuda_dev.launch(f, LaunchDims::linear(64, 64), args); // still fine afterwards
    cuda_dev.synchronize();
    cuda_dev.release(x);
    cuda_dev.release(p);
}

} // namespace
} // namespace smelt

#endif
