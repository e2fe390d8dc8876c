// The CUDA backend: the driver API (opened at run time, driver_api.h), NVRTC, one stream.
//
//   memory    cuMemAlloc / cuMemFree (plain device memory, never managed memory)
//   transfers cuMemcpy{HtoD,DtoH,DtoD}Async on the backend's stream; read() waits for it
//   build     NVRTC → CUBIN for this device's architecture (sm_XX from its compute
//             capability), cached on disk by KernelLoader; the key holds the source, the NVRTC
//             options, the architecture and the NVRTC version
//   load      cuModuleLoadData;  launch  cuLaunchKernel on the stream
//
// Everything runs on one non-blocking stream in the order it is issued, so launches, copies and
// the CUB sort never need events between them, and a sequence of calls can be captured into a
// CUDA graph (backends/cuda/cuda_graph.h). The primary context is used, so code built with the
// CUDA runtime (the CUB sort) shares the context and the memory.
//
// Launch ABI (the kernelParams convention of backend.h):
//   - grid[k] = ceil(global[k] / block[k]), block[k] = local[k] (local[0] == 0: 256 threads);
//     global[0] == 0 launches nothing.
//   - dims.shared_bytes of dynamic shared memory are reserved first. Each KernelArg::LocalMemory
//     then gets its own 16-byte-aligned region after them, in argument order, and is passed to
//     the kernel as a uint64_t byte offset into the block's dynamic shared memory (the
//     generated wrapper turns it into a pointer: primitives/cuda/raw_kernel.h).
//
// Errors: a failed cuMemAlloc names the size and the free memory; a refused launch names the
// kernel and its geometry; a fault inside a kernel surfaces at the next synchronising call
// (read, synchronize) and names the last kernel launched — set SMELT_CUDA_SYNC=1 to check after
// every launch and so name the faulting kernel exactly.
#pragma once

#include "backends/backend.h"
#include "backends/kernel_loader.h"

#include <cuda.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace smelt::cuda {

// Whether a usable device exists (driver loads, cuInit succeeds, at least one device); `why`
// gets the reason when not. Never throws.
bool device_present(std::string *why = nullptr);
// The CUDA devices the driver reports (what "cuda:N" numbers); 0 without a driver or device.
int device_count();

class CudaBackend : public Backend {
public:
    // Device `ordinal` (0: the first). BackendError when there is no driver or no such device.
    explicit CudaBackend(int ordinal = 0, std::optional<DiskCache> cache = std::nullopt);
    ~CudaBackend() override;
    CudaBackend(const CudaBackend &) = delete;
    CudaBackend &operator=(const CudaBackend &) = delete;

    std::string name() const override { return "cuda"; }
    std::vector<DeviceInfo> devices() const override;

    Buffer allocate(size_t bytes) override;
    void release(Buffer &buffer) override;
    void write(const Buffer &dst, size_t dst_offset, const void *src, size_t bytes) override;
    void read(const Buffer &src, size_t src_offset, void *dst, size_t bytes) override;
    void copy(const Buffer &dst, size_t dst_offset, const Buffer &src, size_t src_offset,
              size_t bytes) override;
    bool host_addressable() const override { return false; }
    void synchronize() override;
    // Page-locked host memory and an event (backends/cuda/host_stage.cpp).
    std::unique_ptr<HostStage> host_stage(size_t capacity) override;

    ToolchainKey toolchain_key(const ModuleSource &src) const override;
    std::string source_extension() const override { return ".cu"; }
    std::string binary_extension() const override { return ".cubin"; }
    BuildResult build(const std::filesystem::path &source_path,
                      const std::filesystem::path &binary_path, const ModuleSource &src) override;
    std::shared_ptr<Module> load(const std::filesystem::path &binary_path) override;
    std::shared_ptr<Module> compile(const ModuleSource &src) override;

    void launch(void *function, const LaunchDims &dims, std::span<const KernelArg> args) override;

    // --- CUDA specifics (primitives, the CUB sort, graphs, benchmarks) ---
    CUdevice device() const { return device_; }
    CUcontext context() const { return context_; }
    CUstream stream() const { return stream_; }
    void make_current() const;                     // binds the context to the calling thread
    int compute_capability() const { return cc_; } // 90 for sm_90
    std::string arch() const { return "sm_" + std::to_string(cc_); }
    int multiprocessors() const { return sm_count_; }
    std::string device_name() const { return device_name_; }
    KernelLoader &loader() { return loader_; }

    // Device scratch of at least `bytes` for primitives' intermediate results (reduction
    // partials, scan carries, sort temporaries). Stream order makes sharing it safe: each
    // call's kernels finish with it before the next call's start. It only grows, and older
    // blocks are kept until the backend is destroyed, because a recorded CUDA graph may still
    // name them.
    CUdeviceptr scratch(size_t bytes);
    // Sets `bytes` bytes at `p` to zero, in stream order (scratch state of the single-pass scan).
    void zero(CUdeviceptr p, size_t bytes);
    void fill_zero(const Buffer &dst, size_t offset, size_t bytes) override;

    // How many blocks of `block` threads of `function` fit on one SM at once (the occupancy
    // calculator; cached per function and block size). At least 1.
    int resident_blocks(void *function, int block);

    // True while the stream is being captured into a graph (synchronising calls are errors).
    bool capturing() const;
    // The name of a kernel (cuFuncGetName where the driver has it), for messages.
    std::string kernel_name(void *function) const;
    // BackendError for a failed call that may report an earlier kernel's fault (a wait or a
    // copy), naming the last kernel launched.
    void check_sync(CUresult r, const std::string &what);

private:
    int ordinal_ = 0;
    CUdevice device_ = 0;
    CUcontext context_ = nullptr;
    CUstream stream_ = nullptr;
    int cc_ = 0;
    int sm_count_ = 0;
    size_t total_memory_ = 0;
    std::string device_name_;
    bool sync_each_launch_ = false;
    void *last_kernel_ = nullptr;

    std::mutex occupancy_mutex_;
    std::map<std::pair<void *, int>, int> occupancy_;

    // Arrays come from the device's default memory pool in stream order (cuMemAllocAsync), and
    // the pool keeps what is freed for the next allocation: an allocation or free then costs
    // no device synchronisation and no page mapping, where cuMemAlloc/cuMemFree cost both (an
    // MPI rank regrowing its arrays at every neighbour-list rebuild spent most of its time
    // there). Buffers allocated while a graph is recorded use cuMemAlloc instead, so the graph
    // holds no allocation node; `plain_allocations_` remembers them for release().
    CUmemoryPool pool_ = nullptr;
    std::mutex plain_mutex_;
    std::unordered_set<CUdeviceptr> plain_allocations_;

    std::mutex scratch_mutex_;
    CUdeviceptr scratch_ = 0;
    size_t scratch_bytes_ = 0;
    std::vector<CUdeviceptr> retired_scratch_;

    KernelLoader loader_;
};

} // namespace smelt::cuda
