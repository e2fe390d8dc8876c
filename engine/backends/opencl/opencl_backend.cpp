#include "backends/opencl/opencl_backend.h"

#include "backends/opencl/build_log.h"
#include "backends/opencl/pinned_host.h"
#include "backends/opencl/program.h"
#include "support/debug.h"
#include "support/error.h"
#include "support/hash.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace smelt::opencl {

namespace {

void check_range(const Buffer &b, size_t offset, size_t bytes, const char *what) {
    SMELT_INTERNAL_ASSERT(offset <= b.bytes && bytes <= b.bytes - offset,
                          what << ": " << bytes << " bytes at offset " << offset
                               << " outside a buffer of " << b.bytes << " bytes");
}

cl_mem mem(const Buffer &b) {
    return static_cast<cl_mem>(b.handle);
}

bool has_extension(const std::string &list, const std::string &name) {
    size_t at = 0;
    while ((at = list.find(name, at)) != std::string::npos) {
        size_t end = at + name.size();
        bool starts = at == 0 || list[at - 1] == ' ';
        bool ends = end == list.size() || list[end] == ' ';
        if (starts && ends) return true;
        at = end;
    }
    return false;
}

DeviceDescription describe(const FoundDevice &f, size_t flat_index) {
    DeviceDescription d;
    d.summary = f.summary;
    d.flat_index = flat_index;
    d.platform_version = platform_string(f.platform, CL_PLATFORM_VERSION);
    d.vendor = device_string(f.device, CL_DEVICE_VENDOR);
    d.device_version = device_string(f.device, CL_DEVICE_VERSION);
    d.driver_version = device_string(f.device, CL_DRIVER_VERSION);
    d.opencl_c_version = device_string(f.device, CL_DEVICE_OPENCL_C_VERSION);
    d.extensions = device_string(f.device, CL_DEVICE_EXTENSIONS);
    d.compute_units = device_value<cl_uint>(f.device, CL_DEVICE_MAX_COMPUTE_UNITS);
    d.global_memory = device_value<cl_ulong>(f.device, CL_DEVICE_GLOBAL_MEM_SIZE);
    d.local_memory = device_value<cl_ulong>(f.device, CL_DEVICE_LOCAL_MEM_SIZE);
    d.max_work_group_size = device_value<size_t>(f.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    // OpenCL 1.2 made double an optional core feature reported by CL_DEVICE_DOUBLE_FP_CONFIG;
    // the extension string is what 1.1-era drivers report.
    d.fp64 = has_extension(d.extensions, "cl_khr_fp64") ||
             device_value<cl_device_fp_config>(f.device, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
    d.int64_atomics = has_extension(d.extensions, "cl_khr_int64_base_atomics");
    return d;
}

std::string mib(cl_ulong bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

std::string detail_line(const DeviceDescription &d) {
    return d.device_version + ", driver " + d.driver_version + ", " +
           std::to_string(d.compute_units) + " compute units, " + mib(d.global_memory) +
           " global / " + std::to_string(d.local_memory >> 10) + " KiB local memory, fp64 " +
           (d.fp64 ? "yes" : "no");
}

std::string kernel_name(cl_kernel k) {
    size_t size = 0;
    if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size) != CL_SUCCESS) return "?";
    std::string name(size, '\0');
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr);
    while (!name.empty() && name.back() == '\0')
        name.pop_back();
    return name;
}

std::vector<unsigned char> read_bytes(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw BackendError("cannot read OpenCL program binary " + p.string(), "", "");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string bytes_hash(const std::vector<unsigned char> &b) {
    return hash_hex(std::string_view(reinterpret_cast<const char *>(b.data()), b.size()));
}

} // namespace

bool source_uses_fp64(const std::string &source) {
    return source.find("#pragma OPENCL EXTENSION cl_khr_fp64 : enable") != std::string::npos;
}

OpenCLBackend::OpenCLBackend(OpenCLOptions options, std::optional<DiskCache> cache)
    : options_(std::move(options)) {
    std::string spec = options_.device;
    if (spec.empty())
        if (const char *env = std::getenv("SMELT_OPENCL_DEVICE")) spec = env;
    std::vector<FoundDevice> found = find_devices();
    std::vector<DeviceSummary> summaries;
    for (const auto &f : found)
        summaries.push_back(f.summary);
    size_t chosen = select_device(summaries, spec);
    device_ = describe(found[chosen], chosen);
    device_id_ = found[chosen].device;

    cl_int err = CL_SUCCESS;
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(found[chosen].platform), 0};
    context_ = clCreateContext(props, 1, &device_id_, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    queue_ = clCreateCommandQueue(context_, device_id_, 0, &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(context_);
        check(err, "clCreateCommandQueue");
    }
    loader_.emplace(*this, cache ? std::move(*cache) : DiskCache());
    debug::log(1, "opencl: using device " + std::to_string(chosen) + ": " +
                      device_.summary.platform_name + " / " + device_.summary.device_name);
}

OpenCLBackend::~OpenCLBackend() {
    loader_.reset(); // its modules hold programs of this context
    small_reads_.reset();
    if (just_built_) clReleaseProgram(just_built_);
    if (queue_) {
        clFinish(queue_);
        clReleaseCommandQueue(queue_);
    }
    if (context_) clReleaseContext(context_);
}

std::vector<DeviceInfo> OpenCLBackend::devices() const {
    std::vector<DeviceInfo> out;
    std::vector<FoundDevice> found = find_devices();
    for (size_t i = 0; i < found.size(); ++i) {
        DeviceDescription d = describe(found[i], i);
        std::string name = "[" + std::to_string(i) + "] " + d.summary.platform_name + " / " +
                           d.summary.device_name;
        bool selected = found[i].device == device_id_;
        out.push_back({name, detail_line(d) + (selected ? " (selected)" : "")});
    }
    return out;
}

Buffer OpenCLBackend::allocate(size_t bytes) {
    if (bytes == 0) return {};
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    if (err != CL_SUCCESS)
        throw BackendError(describe_error("clCreateBuffer", err) + " allocating " +
                               std::to_string(bytes) + " bytes on " + device_.summary.device_name,
                           "", "");
    return {m, bytes};
}

void OpenCLBackend::release(Buffer &buffer) {
    if (buffer.handle) clReleaseMemObject(mem(buffer));
    buffer = {};
}

void OpenCLBackend::write(const Buffer &dst, size_t dst_offset, const void *src, size_t bytes) {
    check_range(dst, dst_offset, bytes, "write");
    if (bytes == 0) return;
    check(clEnqueueWriteBuffer(queue_, mem(dst), CL_TRUE, dst_offset, bytes, src, 0, nullptr,
                               nullptr),
          "clEnqueueWriteBuffer");
}

void OpenCLBackend::fill_zero(const Buffer &dst, size_t offset, size_t bytes) {
    check_range(dst, offset, bytes, "fill_zero");
    if (bytes == 0) return;
    // A one-byte pattern: any offset and size (a wider pattern needs both to be its multiples).
    const cl_uchar zero = 0;
    check(clEnqueueFillBuffer(queue_, mem(dst), &zero, sizeof zero, offset, bytes, 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer");
}

void OpenCLBackend::read(const Buffer &src, size_t src_offset, void *dst, size_t bytes) {
    check_range(src, src_offset, bytes, "read");
    if (bytes == 0) return;
    if (bytes <= kPinnedReadBytes) {
        // A reduction's value, a count: through pinned memory (pinned_host.h), then copied.
        std::lock_guard<std::mutex> lock(small_reads_mutex_);
        if (!small_reads_)
            small_reads_ = std::make_unique<PinnedHost>(context_, queue_, kPinnedReadBytes);
        check(clEnqueueReadBuffer(queue_, mem(src), CL_TRUE, src_offset, bytes,
                                  small_reads_->data(), 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
        std::memcpy(dst, small_reads_->data(), bytes);
        return;
    }
    check(
        clEnqueueReadBuffer(queue_, mem(src), CL_TRUE, src_offset, bytes, dst, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

void OpenCLBackend::copy(const Buffer &dst, size_t dst_offset, const Buffer &src, size_t src_offset,
                         size_t bytes) {
    check_range(dst, dst_offset, bytes, "copy (destination)");
    check_range(src, src_offset, bytes, "copy (source)");
    if (bytes == 0) return;
    check(clEnqueueCopyBuffer(queue_, mem(src), mem(dst), src_offset, dst_offset, bytes, 0, nullptr,
                              nullptr),
          "clEnqueueCopyBuffer");
}

void OpenCLBackend::synchronize() {
    check(clFinish(queue_), "clFinish");
}

void OpenCLBackend::flush() {
    check(clFlush(queue_), "clFlush");
}

std::string OpenCLBackend::build_options(const ModuleSource &src) const {
    std::string out = "-cl-std=CL1.2";
    // Integer min/max through inline PTX on NVIDIA (a ptxas bug; codegen/nvidia_minmax.cpp).
    if (device_.vendor.find("NVIDIA") != std::string::npos) out += " -DSMELT_NVIDIA_PTX";
    // Without it the source's `#pragma OPENCL FP_CONTRACT OFF` keeps a*b + c two roundings (the
    // OpenCL dialect's head), and no -cl-mad-enable is ever given.
    if (src.fast_math) out += " -cl-fast-relaxed-math";
    // Header directories for external functions (OpenCL splits options at spaces, so a
    // directory with one cannot be given).
    for (const auto &dir : src.include_dirs)
        out += " -I" + dir;
    for (const auto &f : src.extra_flags)
        out += " " + f;
    return out;
}

ToolchainKey OpenCLBackend::toolchain_key(const ModuleSource &src) const {
    return {"OpenCL " + device_.summary.platform_name + " (" + device_.platform_version + ")",
            "driver " + device_.driver_version + "; " + device_.device_version + "; " +
                device_.opencl_c_version,
            build_options(src), device_.vendor + " " + device_.summary.device_name};
}

BuildResult OpenCLBackend::build(const std::filesystem::path &source_path,
                                 const std::filesystem::path &binary_path,
                                 const ModuleSource &src) {
    BuildResult result;
    std::string options = build_options(src);
    result.command = "clBuildProgram(\"" + options + "\") for " + device_.summary.device_name;
    debug::log(1, "compile: (" + source_path.string() + ") " + result.command);
    std::ifstream in(source_path, std::ios::binary);
    std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

    auto t0 = std::chrono::steady_clock::now();
    ProgramBuild built = build_from_source(context_, device_id_, source, options);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.log = built.log;
    result.ok = built.status == CL_SUCCESS;
    debug::log(1, "compile: " + std::string(result.ok ? "done" : "FAILED") + " in " +
                      std::to_string(result.seconds) + " s");
    if (!result.ok) {
        // NVIDIA's log points at lines of `source` (it ignores #line): map them to the .py.
        result.log = describe_error("clBuildProgram", built.status) +
                     (built.log.empty() ? "" : "\n" + map_log_locations(built.log, source));
        if (built.program) clReleaseProgram(built.program);
        return result;
    }
    std::vector<unsigned char> binary;
    try {
        binary = program_binary(built.program);
    } catch (...) {
        clReleaseProgram(built.program);
        throw;
    }
    std::ofstream(binary_path, std::ios::binary)
        .write(reinterpret_cast<const char *>(binary.data()),
               static_cast<std::streamsize>(binary.size()));
    std::lock_guard<std::mutex> lock(built_mutex_);
    if (just_built_) clReleaseProgram(just_built_);
    just_built_ = built.program;
    just_built_hash_ = bytes_hash(binary);
    return result;
}

std::shared_ptr<Module> OpenCLBackend::load(const std::filesystem::path &binary_path) {
    std::vector<unsigned char> binary = read_bytes(binary_path);
    {
        std::lock_guard<std::mutex> lock(built_mutex_);
        if (just_built_ && just_built_hash_ == bytes_hash(binary)) {
            cl_program program = just_built_;
            just_built_ = nullptr;
            return std::make_shared<ProgramModule>(program, binary_path);
        }
    }
    ProgramBuild built = build_from_binary(context_, device_id_, binary);
    if (built.status != CL_SUCCESS) {
        if (built.program) clReleaseProgram(built.program);
        throw BackendError("cannot load OpenCL program binary " + binary_path.string() + ": " +
                               describe_error("clBuildProgram", built.status),
                           built.log, "");
    }
    return std::make_shared<ProgramModule>(built.program, binary_path);
}

std::shared_ptr<Module> OpenCLBackend::compile(const ModuleSource &src) {
    if (source_uses_fp64(src.source) && !has_fp64()) {
        std::string what = src.primitive.empty() ? "an OpenCL program" : src.primitive;
        if (!src.signature.empty()) what += " [" + src.signature + "]";
        throw UsageError(what + " uses double precision, but the OpenCL device '" +
                         device_.summary.device_name +
                         "' has no fp64 support (cl_khr_fp64). Compile in single precision "
                         "(the precision switch: CompileOptions::precision = Precision::Single, "
                         "`--precision single` on the command line), or choose another device "
                         "with SMELT_OPENCL_DEVICE");
    }
    return loader_->compile_or_load(src);
}

void OpenCLBackend::launch(void *function, const LaunchDims &dims,
                           std::span<const KernelArg> args) {
    SMELT_INTERNAL_ASSERT(function != nullptr, "launch of a null kernel");
    auto kernel = static_cast<cl_kernel>(function);
    cl_uint work_dim = 1;
    for (cl_uint k = 1; k < 3; ++k)
        if (dims.global[k] > 1 || dims.local[k] > 1) work_dim = k + 1;
    const bool choose_local = dims.local[0] == 0;
    size_t global[3], local[3];
    for (cl_uint k = 0; k < 3; ++k) {
        if (dims.global[k] < 0 || (!choose_local && dims.local[k] < 1))
            throw UsageError("launch of OpenCL kernel '" + kernel_name(kernel) +
                             "': invalid sizes in dimension " + std::to_string(k) + " (global " +
                             std::to_string(dims.global[k]) + ", local " +
                             std::to_string(dims.local[k]) + ")");
        if (dims.global[k] == 0) return; // nothing to run
        global[k] = static_cast<size_t>(dims.global[k]);
        local[k] = choose_local ? 1 : static_cast<size_t>(dims.local[k]);
        if (!choose_local && global[k] % local[k] != 0)
            throw UsageError("launch of OpenCL kernel '" + kernel_name(kernel) +
                             "': the global size " + std::to_string(global[k]) + " in dimension " +
                             std::to_string(k) + " is not a multiple of the work-group size " +
                             std::to_string(local[k]) +
                             " (round it up and bound-check in the kernel)");
    }

    std::lock_guard<std::mutex> lock(launch_mutex_);
    for (size_t i = 0; i < args.size(); ++i) {
        const KernelArg &a = args[i];
        cl_int err = CL_SUCCESS;
        switch (a.kind) {
        case KernelArg::Kind::Buffer: {
            cl_mem m = mem(*a.buffer); // may be null for an empty array, which OpenCL allows
            err = clSetKernelArg(kernel, static_cast<cl_uint>(i), sizeof(cl_mem), &m);
            break;
        }
        case KernelArg::Kind::Value:
            err = clSetKernelArg(kernel, static_cast<cl_uint>(i), a.size, a.value);
            break;
        case KernelArg::Kind::LocalMemory:
            err = clSetKernelArg(kernel, static_cast<cl_uint>(i), a.size, nullptr);
            break;
        }
        if (err != CL_SUCCESS)
            throw BackendError(describe_error("clSetKernelArg", err) + " for argument " +
                                   std::to_string(i) + " of kernel '" + kernel_name(kernel) + "'",
                               "", "");
    }
    cl_int err = clEnqueueNDRangeKernel(queue_, kernel, work_dim, nullptr, global,
                                        choose_local ? nullptr : local, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
        std::string what = describe_error("clEnqueueNDRangeKernel", err) + " for kernel '" +
                           kernel_name(kernel) + "'";
        if (err == CL_INVALID_WORK_GROUP_SIZE || err == CL_OUT_OF_RESOURCES) {
            size_t max_group = 0;
            clGetKernelWorkGroupInfo(kernel, device_id_, CL_KERNEL_WORK_GROUP_SIZE,
                                     sizeof max_group, &max_group, nullptr);
            what += " (this kernel allows work-groups of at most " + std::to_string(max_group) +
                    " work-items on " + device_.summary.device_name + ")";
        }
        throw BackendError(what, "", "");
    }
}

} // namespace smelt::opencl
