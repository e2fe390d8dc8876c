#include "backends/cuda/cuda_backend.h"

#include "backends/cuda/cuda_module.h"
#include "backends/cuda/driver_api.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "support/debug.h"
#include "support/error.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace smelt::cuda {

namespace {

constexpr int kDefaultBlock = 256;
constexpr size_t kMaxParams = 64; // launches with more arguments use the heap

void check_range(const Buffer &b, size_t offset, size_t bytes, const char *what) {
    SMELT_INTERNAL_ASSERT(offset <= b.bytes && bytes <= b.bytes - offset,
                          what << ": " << bytes << " bytes at offset " << offset
                               << " outside a buffer of " << b.bytes << " bytes");
}

CUdeviceptr ptr(const Buffer &b, size_t offset) {
    return reinterpret_cast<CUdeviceptr>(b.handle) + offset;
}

std::string join(const std::vector<std::string> &v) {
    std::string out;
    for (const auto &s : v)
        out += (out.empty() ? "" : " ") + s;
    return out;
}

std::string read_file(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string mib(size_t bytes) {
    std::ostringstream os;
    os.precision(1);
    os << std::fixed << double(bytes) / (1024.0 * 1024.0) << " MiB";
    return os.str();
}

} // namespace

bool device_present(std::string *why) {
    std::string reason;
    if (!driver_available(&reason)) {
        if (why) *why = reason;
        return false;
    }
    const DriverApi &api = driver();
    CUresult r = api.cuInit(0);
    if (r != CUDA_SUCCESS) {
        if (why) *why = "cuInit failed: " + result_text(r) + " (no usable NVIDIA GPU)";
        return false;
    }
    int count = 0;
    r = api.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
        if (why)
            *why = r != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + result_text(r)
                                     : std::string("the NVIDIA driver reports no CUDA device");
        return false;
    }
    return true;
}

int device_count() {
    if (!device_present()) return 0;
    int count = 0;
    return driver().cuDeviceGetCount(&count) == CUDA_SUCCESS ? count : 0;
}

CudaBackend::CudaBackend(int ordinal, std::optional<DiskCache> cache)
    : ordinal_(ordinal), loader_(*this, cache ? std::move(*cache) : DiskCache()) {
    std::string why;
    if (!device_present(&why)) throw BackendError("cuda: no device: " + why, "", "");
    const DriverApi &api = driver();
    int count = 0;
    check(api.cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (ordinal < 0 || ordinal >= count)
        throw BackendError("cuda: no device " + std::to_string(ordinal) + " (" +
                               std::to_string(count) + " found)",
                           "", "");
    check(api.cuDeviceGet(&device_, ordinal), "cuDeviceGet");
    char name[256] = {};
    check(api.cuDeviceGetName(name, sizeof name - 1, device_), "cuDeviceGetName");
    device_name_ = name;
    int major = 0, minor = 0;
    check(api.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_),
          "cuDeviceGetAttribute");
    check(api.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_),
          "cuDeviceGetAttribute");
    cc_ = major * 10 + minor;
    check(api.cuDeviceGetAttribute(&sm_count_, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device_),
          "cuDeviceGetAttribute");
    check(api.cuDeviceTotalMem(&total_memory_, device_), "cuDeviceTotalMem");
    // The primary context: the one the CUDA runtime (and so CUB) uses too.
    check(api.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
    check(api.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
    check(api.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    check(api.cuDeviceGetDefaultMemPool(&pool_, device_), "cuDeviceGetDefaultMemPool");
    // Keep freed memory in the pool across synchronisations (the default threshold, 0, hands it
    // back to the driver at each one); allocate() trims the pool when the device runs out.
    cuuint64_t keep = ~cuuint64_t(0);
    check(api.cuMemPoolSetAttribute(pool_, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep),
          "cuMemPoolSetAttribute");
    const char *sync = std::getenv("SMELT_CUDA_SYNC");
    sync_each_launch_ = sync && *sync && std::strcmp(sync, "0") != 0;
}

CudaBackend::~CudaBackend() {
    // Best effort and silent: at process exit the CUDA runtime may already have torn the
    // primary context down. The primary context itself is not released, because modules held by
    // the loader are unloaded after this body runs.
    const DriverApi &api = driver();
    if (api.cuCtxSetCurrent(context_) != CUDA_SUCCESS) return;
    api.cuStreamSynchronize(stream_);
    for (CUdeviceptr p : retired_scratch_)
        api.cuMemFree(p);
    if (scratch_) api.cuMemFree(scratch_);
    api.cuStreamDestroy(stream_);
}

void CudaBackend::make_current() const {
    check(driver().cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

std::vector<DeviceInfo> CudaBackend::devices() const {
    int version = 0;
    driver().cuDriverGetVersion(&version);
    std::string detail = arch() + ", " + std::to_string(sm_count_) + " SMs, " + mib(total_memory_) +
                         "; driver CUDA " + std::to_string(version / 1000) + "." +
                         std::to_string(version % 1000 / 10) + ", NVRTC " + nvrtc_version();
    return {{device_name_, detail}};
}

Buffer CudaBackend::allocate(size_t bytes) {
    if (bytes == 0) return {};
    make_current();
    const DriverApi &api = driver();
    CUdeviceptr p = 0;
    const bool plain = capturing();
    auto attempt = [&] {
        return plain ? api.cuMemAlloc(&p, bytes) : api.cuMemAllocAsync(&p, bytes, stream_);
    };
    CUresult r = attempt();
    if (r == CUDA_ERROR_OUT_OF_MEMORY && !plain) {
        // Memory the pool keeps may be what is missing: wait for pending frees, hand it back.
        api.cuStreamSynchronize(stream_);
        api.cuMemPoolTrimTo(pool_, 0);
        r = attempt();
    }
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
        size_t free = 0, total = 0;
        api.cuMemGetInfo(&free, &total);
        throw BackendError("cuda: out of device memory: cannot allocate " + mib(bytes) + " (" +
                               mib(free) + " free of " + mib(total) + " on " + device_name_ + ")",
                           "", "");
    }
    check_sync(r, "cuMemAlloc of " + mib(bytes));
    if (plain) {
        std::lock_guard<std::mutex> lock(plain_mutex_);
        plain_allocations_.insert(p);
    }
    return {reinterpret_cast<void *>(p), bytes};
}

void CudaBackend::release(Buffer &buffer) {
    if (buffer.handle) {
        const auto p = reinterpret_cast<CUdeviceptr>(buffer.handle);
        bool plain = false;
        {
            std::lock_guard<std::mutex> lock(plain_mutex_);
            plain = plain_allocations_.erase(p) > 0;
        }
        // Silent: release runs in destructors, possibly after a kernel fault. In stream order:
        // kernels queued before still read the buffer.
        if (driver().cuCtxSetCurrent(context_) == CUDA_SUCCESS) {
            if (plain || driver().cuMemFreeAsync(p, stream_) != CUDA_SUCCESS) driver().cuMemFree(p);
        }
    }
    buffer = {};
}

void CudaBackend::fill_zero(const Buffer &dst, size_t offset, size_t bytes) {
    check_range(dst, offset, bytes, "fill_zero");
    if (bytes) zero(ptr(dst, offset), bytes);
}

void CudaBackend::write(const Buffer &dst, size_t dst_offset, const void *src, size_t bytes) {
    check_range(dst, dst_offset, bytes, "write");
    if (!bytes) return;
    make_current();
    // From pageable memory the call returns once `src` has been staged, so it may be reused.
    check_sync(driver().cuMemcpyHtoDAsync(ptr(dst, dst_offset), src, bytes, stream_),
               "host-to-device copy");
}

void CudaBackend::read(const Buffer &src, size_t src_offset, void *dst, size_t bytes) {
    check_range(src, src_offset, bytes, "read");
    if (!bytes) return;
    make_current();
    if (capturing())
        throw UsageError("cuda: reading device memory to the host while a CUDA graph is being "
                         "recorded; record only device work (no Array reads, no Reduction "
                         "results)");
    check_sync(driver().cuMemcpyDtoHAsync(dst, ptr(src, src_offset), bytes, stream_),
               "device-to-host copy");
    check_sync(driver().cuStreamSynchronize(stream_), "device-to-host copy");
}

void CudaBackend::copy(const Buffer &dst, size_t dst_offset, const Buffer &src, size_t src_offset,
                       size_t bytes) {
    check_range(dst, dst_offset, bytes, "copy (destination)");
    check_range(src, src_offset, bytes, "copy (source)");
    if (!bytes) return;
    make_current();
    check_sync(
        driver().cuMemcpyDtoDAsync(ptr(dst, dst_offset), ptr(src, src_offset), bytes, stream_),
        "device-to-device copy");
}

void CudaBackend::synchronize() {
    make_current();
    check_sync(driver().cuStreamSynchronize(stream_), "synchronize");
}

bool CudaBackend::capturing() const {
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    driver().cuStreamIsCapturing(stream_, &status);
    return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

std::string CudaBackend::kernel_name(void *function) const {
    const char *name = nullptr;
    if (function && driver().cuFuncGetName &&
        driver().cuFuncGetName(&name, reinterpret_cast<CUfunction>(function)) == CUDA_SUCCESS &&
        name)
        return name;
    std::ostringstream os;
    os << "kernel@" << function;
    return os.str();
}

void CudaBackend::check_sync(CUresult r, const std::string &what) {
    if (r == CUDA_SUCCESS) return;
    std::string msg = "cuda: " + what + " failed: " + result_text(r);
    if (last_kernel_) {
        msg += "; the last kernel launched was '" + kernel_name(last_kernel_) + "'";
        if (!sync_each_launch_)
            msg += " (errors inside kernels surface at the next synchronising call; set "
                   "SMELT_CUDA_SYNC=1 to check after every launch)";
    }
    throw BackendError(msg, "", "");
}

namespace {

// Header directories for external functions, then the user's flags.
std::vector<std::string> nvrtc_extra(const ModuleSource &src) {
    std::vector<std::string> out;
    for (const auto &dir : src.include_dirs)
        out.push_back("--include-path=" + dir);
    out.insert(out.end(), src.extra_flags.begin(), src.extra_flags.end());
    return out;
}

} // namespace

ToolchainKey CudaBackend::toolchain_key(const ModuleSource &src) const {
    return {"nvrtc", nvrtc_version(), join(nvrtc_options(arch(), nvrtc_extra(src), src.fast_math)),
            arch() + " (" + device_name_ + ")"};
}

BuildResult CudaBackend::build(const std::filesystem::path &source_path,
                               const std::filesystem::path &binary_path, const ModuleSource &src) {
    NvrtcOutput out = nvrtc_compile(read_file(source_path), source_path.filename().string(),
                                    nvrtc_options(arch(), nvrtc_extra(src), src.fast_math));
    debug::log(1, out.command + " (" + std::to_string(out.seconds) + " s)");
    BuildResult result;
    result.command = out.command;
    result.log = out.log;
    result.seconds = out.seconds;
    if (out.ok) {
        std::ofstream f(binary_path, std::ios::binary);
        f.write(out.binary.data(), static_cast<std::streamsize>(out.binary.size()));
        result.ok = static_cast<bool>(f);
        if (!result.ok) result.log += "cannot write " + binary_path.string() + "\n";
    }
    return result;
}

std::shared_ptr<Module> CudaBackend::load(const std::filesystem::path &binary_path) {
    return std::make_shared<CudaModule>(*this, binary_path, read_file(binary_path));
}

std::shared_ptr<Module> CudaBackend::compile(const ModuleSource &src) {
    return loader_.compile_or_load(src);
}

void CudaBackend::launch(void *function, const LaunchDims &dims, std::span<const KernelArg> args) {
    SMELT_INTERNAL_ASSERT(function != nullptr, "launch of a null function");
    unsigned grid[3], block[3];
    for (int k = 0; k < 3; ++k) {
        int64_t b = dims.local[k] > 0 ? dims.local[k] : (k == 0 ? kDefaultBlock : 1);
        int64_t g = dims.global[k] <= 0 ? 0 : (dims.global[k] + b - 1) / b;
        const int64_t limit = k == 0 ? 0x7fffffff : 65535;
        if (g > limit || b > 1024)
            throw UsageError("cuda: launch of '" + kernel_name(function) + "' with " +
                             std::to_string(g) + " blocks of " + std::to_string(b) +
                             " threads in dimension " + std::to_string(k) +
                             " exceeds the device's limits");
        grid[k] = static_cast<unsigned>(g);
        block[k] = static_cast<unsigned>(b);
    }
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) return;

    void *small_params[kMaxParams];
    uint64_t small_offsets[kMaxParams];
    std::vector<void *> big_params;
    std::vector<uint64_t> big_offsets;
    void **params = small_params;
    uint64_t *offsets = small_offsets;
    if (args.size() > kMaxParams) {
        big_params.resize(args.size());
        big_offsets.resize(args.size());
        params = big_params.data();
        offsets = big_offsets.data();
    }
    size_t shared = dims.shared_bytes;
    for (size_t i = 0; i < args.size(); ++i) {
        const KernelArg &a = args[i];
        switch (a.kind) {
        case KernelArg::Kind::Buffer:
            params[i] = const_cast<void **>(&a.buffer->handle);
            break;
        case KernelArg::Kind::Value:
            params[i] = const_cast<unsigned char *>(a.value);
            break;
        case KernelArg::Kind::LocalMemory:
            shared = (shared + 15) / 16 * 16;
            offsets[i] = shared;
            shared += a.size;
            params[i] = &offsets[i];
            break;
        }
    }
    make_current();
    const DriverApi &api = driver();
    CUfunction f = reinterpret_cast<CUfunction>(function);
    if (shared > 48 * 1024) // above the default limit a kernel must opt in
        check_sync(api.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          static_cast<int>(shared)),
                   "setting " + std::to_string(shared) + " bytes of shared memory for '" +
                       kernel_name(function) + "'");
    CUresult r = api.cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                    static_cast<unsigned>(shared), stream_, params, nullptr);
    if (r != CUDA_SUCCESS) {
        std::ostringstream os;
        os << "cuda: launch of kernel '" << kernel_name(function) << "' (" << grid[0] << "x"
           << grid[1] << "x" << grid[2] << " blocks of " << block[0] << "x" << block[1] << "x"
           << block[2] << " threads, " << shared
           << " bytes of shared memory) failed: " << result_text(r);
        throw BackendError(os.str(), "", "");
    }
    last_kernel_ = function;
    if (sync_each_launch_ && !capturing())
        check_sync(api.cuStreamSynchronize(stream_), "kernel '" + kernel_name(function) + "'");
}

int CudaBackend::resident_blocks(void *function, int block) {
    std::lock_guard<std::mutex> lock(occupancy_mutex_);
    auto key = std::make_pair(function, block);
    if (auto it = occupancy_.find(key); it != occupancy_.end()) return it->second;
    make_current();
    int blocks = 0;
    check(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(
              &blocks, reinterpret_cast<CUfunction>(function), block, 0),
          "occupancy of '" + kernel_name(function) + "'");
    blocks = std::max(blocks, 1);
    occupancy_.emplace(key, blocks);
    return blocks;
}

CUdeviceptr CudaBackend::scratch(size_t bytes) {
    std::lock_guard<std::mutex> lock(scratch_mutex_);
    if (bytes <= scratch_bytes_) return scratch_;
    size_t want = std::max({bytes, 2 * scratch_bytes_, size_t(1) << 20});
    Buffer b = allocate(want);
    if (scratch_) retired_scratch_.push_back(scratch_);
    scratch_ = reinterpret_cast<CUdeviceptr>(b.handle);
    scratch_bytes_ = want;
    return scratch_;
}

void CudaBackend::zero(CUdeviceptr p, size_t bytes) {
    if (!bytes) return;
    make_current();
    check_sync(driver().cuMemsetD8Async(p, 0, bytes, stream_), "cuMemsetD8Async");
}

} // namespace smelt::cuda
