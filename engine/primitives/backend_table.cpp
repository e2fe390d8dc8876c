// The backend table (support/backend_table.h): one row per backend name. A backend this smelt
// was built without keeps its row, with no factory and no target, so that naming it gives the
// reason rather than "unknown backend".
#include "support/backend_table.h"

#include "backends/cpu/cpu_backend.h"
#include "codegen/dialect.h"
#include "primitives/cpu/cpu_target.h"
#include "primitives/cuda/cuda_target.h"
#include "support/error.h"
#ifdef SMELT_HAVE_OPENCL
#include "backends/opencl/device_select.h"
#include "backends/opencl/opencl_backend.h"
#include "primitives/opencl/layout.h"
#include "primitives/opencl/opencl_target.h"
#endif
#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#endif

namespace smelt {

namespace {

BackendStatus cpu_status() {
    return {"cpu", true, "C++ with OpenMP, built by the system compiler"};
}

BackendStatus cpu_serial_status() {
    return {"cpu:serial", true, "C++ without OpenMP, one thread"};
}

std::unique_ptr<Backend> make_cpu(const std::string &, const std::string &) {
    return std::make_unique<cpu::CpuBackend>();
}

std::unique_ptr<Backend> make_cpu_serial(const std::string &, const std::string &) {
    return std::make_unique<cpu::CpuBackend>(cpu::CpuOptions{.serial = true});
}

const primitives::PrimitiveTarget &cpu_target(Backend *) {
    return primitives::cpu::cpu_target();
}

BackendStatus opencl_status() {
#ifdef SMELT_HAVE_OPENCL
    // Asked each time: cheap next to a kernel build, and an ICD may appear while we run
    // (OCL_ICD_VENDORS).
    try {
        if (opencl::find_devices().empty())
            return {"opencl", false,
                    "built with OpenCL, but the ICD loader finds no OpenCL device (install a "
                    "driver such as pocl-opencl-icd, or point OCL_ICD_VENDORS at one)"};
    } catch (const BackendError &e) {
        return {"opencl", false, std::string("OpenCL platform query failed: ") + e.what()};
    }
    return {"opencl", true,
            "OpenCL C 1.2 through the ICD loader; device from SMELT_OPENCL_DEVICE, or "
            "'opencl:SPEC' (first GPU, else first device)"};
#else
    return {"opencl", false, "this smelt was built without OpenCL (no OpenCL headers/library)"};
#endif
}

#ifdef SMELT_HAVE_OPENCL
// "opencl:SPEC" picks the device (backends/opencl/device_select.h); plain "opencl" takes
// SMELT_OPENCL_DEVICE or the default.
std::unique_ptr<Backend> make_opencl(const std::string &, const std::string &device) {
    return std::make_unique<opencl::OpenCLBackend>(opencl::OpenCLOptions{.device = device});
}

// The layout of the OpenCL primitives is chosen per device (primitives/opencl/layout.h).
const primitives::PrimitiveTarget &opencl_target(Backend *backend) {
    if (auto *cl = dynamic_cast<opencl::OpenCLBackend *>(backend))
        return primitives::opencl::opencl_target(primitives::opencl::layout_for(*cl));
    return primitives::opencl::opencl_target();
}

size_t opencl_device_count() {
    try {
        return opencl::find_devices().size();
    } catch (const BackendError &) {
        return 0; // the platform query failed: opencl_status says why
    }
}

std::vector<size_t> opencl_rank_devices() {
    try {
        std::vector<opencl::DeviceSummary> summaries;
        for (const auto &f : opencl::find_devices())
            summaries.push_back(f.summary);
        return opencl::default_devices(summaries);
    } catch (const BackendError &) {
        return {};
    }
}
#else
constexpr auto make_opencl = nullptr;
constexpr auto opencl_target = nullptr;
constexpr auto opencl_device_count = nullptr;
constexpr auto opencl_rank_devices = nullptr;
#endif

BackendStatus cuda_status() {
#ifdef SMELT_HAVE_CUDA
    std::string why;
    if (!cuda::device_present(&why)) return {"cuda", false, why};
    return {"cuda", true,
            "CUDA through the driver API and NVRTC; 'cuda:N' picks device N (default 0)"};
#else
    return {"cuda", false, "this smelt was built without CUDA (no CUDA toolkit found)"};
#endif
}

#ifdef SMELT_HAVE_CUDA
std::unique_ptr<Backend> make_cuda(const std::string &spec, const std::string &device) {
    if (!cuda::device_present()) return nullptr;
    int ordinal = 0;
    if (spec != "cuda") {
        if (device.empty() || device.find_first_not_of("0123456789") != std::string::npos)
            throw UsageError("backend '" + spec + "': expected cuda:N with a device number");
        ordinal = std::stoi(device);
    }
    return std::make_unique<cuda::CudaBackend>(ordinal);
}

size_t cuda_device_count() {
    return size_t(cuda::device_count());
}
#else
constexpr auto make_cuda = nullptr;
constexpr auto cuda_device_count = nullptr;
#endif

// The CUDA primitives' wrappers are generated without the backend (bench/ and `smelt emit` use
// them on machines without CUDA), so the target exists in every build.
const primitives::PrimitiveTarget &cuda_target(Backend *) {
    return primitives::cuda::cuda_target();
}

} // namespace

const std::vector<BackendRow> &backend_rows() {
    static const std::vector<BackendRow> rows = {
        {.name = "cpu",
         .family = "cpu",
         .alias = "cpu:openmp",
         .recursion = true,
         .host_libraries = true,
         .status = cpu_status,
         .make = make_cpu,
         .dialect = codegen::cpp_dialect,
         .target = cpu_target},
        {.name = "cpu:serial",
         .family = "cpu",
         .recursion = true,
         .host_libraries = true,
         .status = cpu_serial_status,
         .make = make_cpu_serial,
         .dialect = codegen::cpp_dialect,
         .target = cpu_target},
        {.name = "opencl",
         .family = "opencl",
         .takes_device = true,
         .work_groups = true,
         .includes_without_spaces = true,
         .local_mem_in_kernel_only = true,
         .status = opencl_status,
         .make = make_opencl,
         .dialect = codegen::opencl_dialect,
         .target = opencl_target,
         .device_count = opencl_device_count,
         .rank_devices = opencl_rank_devices},
        {.name = "cuda",
         .family = "cuda",
         .takes_device = true,
         .work_groups = true,
         .recursion = true,
         .kernel_wrappers = true,
         .status = cuda_status,
         .make = make_cuda,
         .dialect = codegen::cuda_dialect,
         .target = cuda_target,
         .device_count = cuda_device_count},
    };
    return rows;
}

} // namespace smelt
