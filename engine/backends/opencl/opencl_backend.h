// The OpenCL backend: one device of any OpenCL 1.2+ platform found through the ICD loader (PoCL
// on CPUs, NVIDIA's driver on GPUs), one context and one in-order queue on it.
//
//   Buffer.handle    cl_mem (CL_MEM_READ_WRITE); host_addressable() is false, so Arrays keep
//                    a host mirror and move data with push()/pull()
//   write/read       blocking clEnqueueWriteBuffer / clEnqueueReadBuffer: the host memory may
//                    be reused on return, and a read sees every kernel queued before it; reads
//                    of up to 4 KiB land in pinned memory first (pinned_host.h)
//   host_stage       a non-blocking clEnqueueReadBuffer into pinned memory, flushed, and its
//                    event
//   copy, launch     queued (clEnqueueCopyBuffer, clEnqueueNDRangeKernel); synchronize() is
//                    clFinish, flush() clFlush
//   build            clCreateProgramWithSource + clBuildProgram (-cl-std=CL1.2 + extra flags);
//                    the program binary (CL_PROGRAM_BINARIES) is the cached binary
//   load             clCreateProgramWithBinary + clBuildProgram; Module::function → cl_kernel
//
// Launch: KernelArg::Buffer → its cl_mem, Value → its bytes (must match the kernel parameter's
// size), LocalMemory → that many bytes of __local memory. LaunchDims.global is the NDRange
// (1, 2 or 3 dimensions, from the extents above 1); local[0] == 0 lets the driver choose the
// work-group size, otherwise each global extent must be a multiple of the local one (callers
// round up and bound-check in the kernel).
#pragma once

#include "backends/backend.h"
#include "backends/kernel_loader.h"
#include "backends/opencl/cl_api.h"
#include "backends/opencl/device_select.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace smelt::opencl {

class PinnedHost;

struct OpenCLOptions {
    std::string device;           // selection spec (device_select.h); "" → $SMELT_OPENCL_DEVICE
    bool pretend_no_fp64 = false; // tests: behave as if the device lacked cl_khr_fp64
};

struct DeviceDescription {
    DeviceSummary summary;
    size_t flat_index = 0; // the number `smelt devices` and SMELT_OPENCL_DEVICE use
    std::string platform_version, vendor, device_version, driver_version, opencl_c_version;
    std::string extensions;
    cl_uint compute_units = 0;
    cl_ulong global_memory = 0, local_memory = 0;
    size_t max_work_group_size = 0;
    bool fp64 = false;          // cl_khr_fp64
    bool int64_atomics = false; // cl_khr_int64_base_atomics
};

// The text generated OpenCL sources put before any double (the prelude's fp64 pragma); a source
// containing it needs a device with fp64.
bool source_uses_fp64(const std::string &source);

class OpenCLBackend : public Backend {
public:
    // Chooses the device (UsageError listing the devices when the spec matches none, or when
    // there is no OpenCL device) and creates the context and queue.
    explicit OpenCLBackend(OpenCLOptions options = {},
                           std::optional<DiskCache> cache = std::nullopt);
    ~OpenCLBackend() override;
    OpenCLBackend(const OpenCLBackend &) = delete;
    OpenCLBackend &operator=(const OpenCLBackend &) = delete;

    std::string name() const override { return "opencl"; }
    // Every OpenCL device found, the chosen one marked "selected".
    std::vector<DeviceInfo> devices() const override;

    Buffer allocate(size_t bytes) override;
    void release(Buffer &buffer) override;
    void write(const Buffer &dst, size_t dst_offset, const void *src, size_t bytes) override;
    void fill_zero(const Buffer &dst, size_t offset, size_t bytes) override;
    void read(const Buffer &src, size_t src_offset, void *dst, size_t bytes) override;
    void copy(const Buffer &dst, size_t dst_offset, const Buffer &src, size_t src_offset,
              size_t bytes) override;
    bool host_addressable() const override { return false; }
    void synchronize() override;
    // A non-blocking read and its event (backends/opencl/host_stage.cpp).
    std::unique_ptr<HostStage> host_stage(size_t capacity) override;
    void flush() override;

    // compiler: "OpenCL <platform> (<platform version>)", version: the driver and device
    // versions, flags: the build options, device: the device's vendor and name.
    ToolchainKey toolchain_key(const ModuleSource &src) const override;
    std::string source_extension() const override { return ".cl"; }
    std::string binary_extension() const override { return ".clbin"; }
    BuildResult build(const std::filesystem::path &source_path,
                      const std::filesystem::path &binary_path, const ModuleSource &src) override;
    std::shared_ptr<Module> load(const std::filesystem::path &binary_path) override;
    // UsageError naming the precision switch when the source uses double and the device has
    // no fp64; otherwise the KernelLoader's cached compile.
    std::shared_ptr<Module> compile(const ModuleSource &src) override;

    void launch(void *function, const LaunchDims &dims, std::span<const KernelArg> args) override;

    const DeviceDescription &device() const { return device_; }
    bool has_fp64() const { return device_.fp64 && !options_.pretend_no_fp64; }
    std::string build_options(const ModuleSource &src) const;
    cl_device_id device_id() const { return device_id_; }
    cl_context context() const { return context_; }
    cl_command_queue queue() const { return queue_; }
    KernelLoader &loader() { return *loader_; }

private:
    OpenCLOptions options_;
    DeviceDescription device_;
    cl_device_id device_id_ = nullptr;
    cl_context context_ = nullptr;
    cl_command_queue queue_ = nullptr;
    std::mutex launch_mutex_; // clSetKernelArg + enqueue of one cl_kernel must not interleave

    // Blocking reads of up to kPinnedReadBytes go through this pinned buffer (read()).
    static constexpr size_t kPinnedReadBytes = 4096;
    std::mutex small_reads_mutex_;
    std::unique_ptr<PinnedHost> small_reads_;

    // The program build() just made, reused by the load() of its binary that follows (the
    // KernelLoader publishes the entry in between, so it is matched by the binary's hash).
    std::mutex built_mutex_;
    cl_program just_built_ = nullptr;
    std::string just_built_hash_;

    std::optional<KernelLoader> loader_; // last: constructed once the device is open
};

} // namespace smelt::opencl
