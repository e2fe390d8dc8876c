// The device abstraction: memory, toolchain and launch for one backend (cpu, opencl and cuda
// are implementations of this one class).
//
// What each method maps to on each backend:
//
//   Buffer.handle       cpu: host pointer         opencl: cl_mem            cuda: CUdeviceptr
//   allocate/release    new/delete (aligned)      clCreateBuffer/Release    cuMemAlloc/cuMemFree
//   write/read/copy     memcpy                    clEnqueueWrite/Read/Copy  cuMemcpyHtoD/DtoH/DtoD
//   host_stage          memcpy at start()         non-blocking read+event   page-locked + event
//   build               c++ -shared → .so         clBuildProgram → binary   NVRTC → cubin
//   load                dlopen                    clCreateProgramWithBinary cuModuleLoadData
//   Module::function    dlsym                     clCreateKernel            cuModuleGetFunction
//   launch              entry(n, threads, args)   clSetKernelArg+NDRange    cuLaunchKernel(params)
//
// Kernel arguments travel as an array of pointers to the argument values (CUDA's kernelParams
// convention): a buffer argument points at the Buffer's handle, a value argument at its bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace smelt {

// Device memory. Only the backend that allocated it may interpret `handle`.
struct Buffer {
    void *handle = nullptr;
    size_t bytes = 0;
};

// One argument of a launch.
struct KernelArg {
    enum class Kind : uint8_t { Buffer, Value, LocalMemory };
    Kind kind = Kind::Value;
    const Buffer *buffer = nullptr; // Kind::Buffer; must outlive the launch call
    size_t size = 0;                // Value: bytes used in `value`; LocalMemory: bytes requested
    alignas(8) unsigned char value[16] = {};

    static KernelArg of(const Buffer &b) {
        KernelArg a;
        a.kind = Kind::Buffer;
        a.buffer = &b;
        return a;
    }
    template <class T> static KernelArg of(T v) {
        static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 16, "scalar argument");
        KernelArg a;
        a.kind = Kind::Value;
        a.size = sizeof(T);
        std::memcpy(a.value, &v, sizeof(T));
        return a;
    }
    // OpenCL __local / CUDA dynamic shared memory; not meaningful on the CPU.
    static KernelArg local_memory(size_t bytes) {
        KernelArg a;
        a.kind = Kind::LocalMemory;
        a.size = bytes;
        return a;
    }
};

// Launch geometry. The CPU uses only global[0] (the item count n); GPUs use all of it.
// local[0] == 0 lets the backend choose the work-group / block size.
struct LaunchDims {
    int64_t global[3] = {0, 1, 1};
    int64_t local[3] = {0, 1, 1};
    size_t shared_bytes = 0; // CUDA dynamic shared memory

    static LaunchDims linear(int64_t n, int64_t local = 0) {
        LaunchDims d;
        d.global[0] = n;
        d.local[0] = local;
        return d;
    }
};

// A whole translation unit to compile, and everything that identifies it besides the
// toolchain. All fields are part of the cache key.
struct ModuleSource {
    std::string source;                   // complete translation unit (prelude included)
    std::vector<std::string> symbols;     // entry points that must exist after loading
    std::string primitive;                // "elementwise", "reduction", ... or "" (raw)
    std::string signature;                // canonical text of the specialisation
    std::vector<std::string> extra_flags; // added to the backend's compiler flags
    // Header search directories (absolute: builds run in the cache's folders), for external
    // functions' headers: -I on cpu and OpenCL, --include-path with NVRTC. The contents of the
    // quoted #includes of `source` found there are part of the cache key (KernelLoader).
    std::vector<std::string> include_dirs;
    // CPU only: what the shared object is linked with, after the object (Options::libs,
    // spelled as linker arguments by the caller).
    std::vector<std::string> link_args;
    // Allow contraction (FMA) and fast math (Options::fast_math): -ffast-math on cpu,
    // -cl-fast-relaxed-math on OpenCL, --use_fast_math with NVRTC. Off, every backend computes
    // each operation with one rounding, as CPython does. Part of the flags, so of the cache key.
    bool fast_math = false;
};

// A compiled, loaded program. Function handles stay valid while the Module lives.
class Module {
public:
    virtual ~Module() = default;
    // cpu: function pointer; opencl: cl_kernel; cuda: CUfunction. BackendError when missing.
    virtual void *function(const std::string &name) const = 0;
    virtual bool has_function(const std::string &name) const = 0;
    // The file the module was loaded from (in the disk cache), for messages.
    virtual const std::filesystem::path &path() const = 0;
};

struct DeviceInfo {
    std::string name;   // "cpu", "NVIDIA H100 80GB HBM3", ...
    std::string detail; // one line: threads / compute units / memory
};

// What a build step reports. A failed build is not thrown as an exception by the backend, so
// the caller can first move the source to where it is kept and name that path in the error.
struct BuildResult {
    bool ok = false;
    std::string command; // the command line or API call, for SMELT_DEBUG and error messages
    std::string log;     // the compiler's full output
    double seconds = 0;
};

// The parts of a cache key the toolchain contributes (compiler, version, flags, device arch).
struct ToolchainKey {
    std::string compiler;
    std::string compiler_version;
    std::string flags;
    std::string device; // device model / architecture the binary is specific to
};

// A small device-to-host copy that does not make the host wait for it when it is queued: start()
// queues the copy behind the work queued before it and returns; wait() blocks until the bytes
// have landed (not for work queued after start()) and returns them. An app can then queue more
// device work between start() and wait(), and the device stays busy while the host waits.
// One copy in flight per stage: start() again first waits for the one before.
class HostStage {
public:
    virtual ~HostStage() = default;
    // Copies `bytes` bytes (at most the capacity the stage was made with) from `src` at `offset`.
    virtual void start(const Buffer &src, size_t offset, size_t bytes) = 0;
    // The bytes of the last start(); UsageError when nothing was started.
    virtual const void *wait() = 0;
};

// UsageError when a stage of `capacity` bytes is asked to copy `bytes`.
void check_stage_size(size_t bytes, size_t capacity);

class Backend {
public:
    virtual ~Backend() = default;

    virtual std::string name() const = 0; // "cpu", "opencl", "cuda"
    virtual std::vector<DeviceInfo> devices() const = 0;

    // --- memory ---
    virtual Buffer allocate(size_t bytes) = 0; // zero bytes gives an empty Buffer
    virtual void release(Buffer &buffer) = 0;
    virtual void write(const Buffer &dst, size_t dst_offset, const void *src, size_t bytes) = 0;
    virtual void read(const Buffer &src, size_t src_offset, void *dst, size_t bytes) = 0;
    virtual void copy(const Buffer &dst, size_t dst_offset, const Buffer &src, size_t src_offset,
                      size_t bytes) = 0;
    // Sets `bytes` bytes from `offset` to zero, in order with the backend's other work. The
    // default writes zeros from the host; a device backend overrides it with a device fill.
    virtual void fill_zero(const Buffer &dst, size_t offset, size_t bytes);
    // True when Buffer handles are host pointers, so host memory can be wrapped without a copy
    // and host mirrors need no transfers (the CPU; OpenCL on a CPU device could say yes too).
    virtual bool host_addressable() const = 0;
    virtual void synchronize() = 0; // waits for queued work (no-op on the CPU)
    // A stage for reads of up to `capacity` bytes (HostStage). The default copies at start()
    // with read(), which is what the CPU, whose work is done when it returns, needs.
    virtual std::unique_ptr<HostStage> host_stage(size_t capacity);
    // Starts queued work on the device without waiting for it, so it runs while the host does
    // something else (an MPI exchange): OpenCL may hold enqueued commands until a flush or a
    // blocking call. A no-op where launches start at once (CUDA) or run on the caller (CPU).
    virtual void flush() {}

    // --- toolchain (uncached steps; KernelLoader adds the disk and in-process caches) ---
    virtual ToolchainKey toolchain_key(const ModuleSource &src) const = 0;
    virtual std::string source_extension() const = 0; // ".cpp", ".cl", ".cu"
    virtual std::string binary_extension() const = 0; // ".so", ".clbin", ".cubin"
    // Builds source_path into binary_path (both in one private folder).
    virtual BuildResult build(const std::filesystem::path &source_path,
                              const std::filesystem::path &binary_path,
                              const ModuleSource &src) = 0;
    virtual std::shared_ptr<Module> load(const std::filesystem::path &binary_path) = 0;

    // Cached compile: in-process map, then the disk cache, then build() + load().
    virtual std::shared_ptr<Module> compile(const ModuleSource &src) = 0;

    // --- execution ---
    virtual void launch(void *function, const LaunchDims &dims,
                        std::span<const KernelArg> args) = 0;
};

} // namespace smelt
