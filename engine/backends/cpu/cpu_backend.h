// The CPU backend: host memory, the system C++ compiler, dlopen, and OpenMP threads.
//
// Launch ABI of generated CPU entry points (the CPU twin of CUDA's kernelParams):
//
//   extern "C" void NAME(int64_t n, int32_t num_threads, void **args);
//
// args[i] points at argument i: for an array, at its data pointer (`*(double **)args[0]`);
// for a scalar, at its value (`*(int32_t *)args[1]`). The entry runs its own OpenMP loop over
// [0, n) with num_threads threads (1 in serial mode, where the source is built without OpenMP).
#pragma once

#include "backends/backend.h"
#include "backends/kernel_loader.h"

#include <cstdint>
#include <optional>

namespace smelt::cpu {

using EntryFunction = void (*)(int64_t n, int32_t num_threads, void **args);

struct CpuOptions {
    bool serial = false; // build without -fopenmp and run on one thread
    int num_threads = 0; // 0: SMELT_NUM_THREADS, else OMP_NUM_THREADS, else the hardware's
};

// Thread count from SMELT_NUM_THREADS, else OMP_NUM_THREADS (its first entry), else hardware.
int default_num_threads();
// "AMD EPYC 7B13" from /proc/cpuinfo plus a short hash of the instruction-set flags, since
// -march=native binaries are only valid on CPUs with the same extensions.
std::string cpu_model_key();

class CpuBackend : public Backend {
public:
    // cache: the disk cache to use (default: DiskCache::default_root()).
    explicit CpuBackend(CpuOptions options = {}, std::optional<DiskCache> cache = std::nullopt);

    std::string name() const override { return "cpu"; }
    std::vector<DeviceInfo> devices() const override;

    Buffer allocate(size_t bytes) override;
    void release(Buffer &buffer) override;
    void write(const Buffer &dst, size_t dst_offset, const void *src, size_t bytes) override;
    void read(const Buffer &src, size_t src_offset, void *dst, size_t bytes) override;
    void copy(const Buffer &dst, size_t dst_offset, const Buffer &src, size_t src_offset,
              size_t bytes) override;
    bool host_addressable() const override { return true; }
    void synchronize() override {}

    ToolchainKey toolchain_key(const ModuleSource &src) const override;
    std::string source_extension() const override { return ".cpp"; }
    std::string binary_extension() const override { return ".so"; }
    BuildResult build(const std::filesystem::path &source_path,
                      const std::filesystem::path &binary_path, const ModuleSource &src) override;
    std::shared_ptr<Module> load(const std::filesystem::path &binary_path) override;
    std::shared_ptr<Module> compile(const ModuleSource &src) override;

    // Calls an EntryFunction with n = dims.global[0] and this backend's thread count.
    void launch(void *function, const LaunchDims &dims, std::span<const KernelArg> args) override;

    bool serial() const { return options_.serial; }
    int num_threads() const { return options_.serial ? 1 : options_.num_threads; }
    void set_num_threads(int n); // UsageError unless n >= 1
    KernelLoader &loader() { return loader_; }

private:
    // The compiler flags for src: cxx_flags with its include directories and extra flags.
    std::vector<std::string> flags(const ModuleSource &src) const;

    CpuOptions options_;
    KernelLoader loader_;
};

} // namespace smelt::cpu
