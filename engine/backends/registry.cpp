#include "backends/registry.h"

#include "backends/cpu/cpu_backend.h"
#include "support/error.h"
#ifdef SMELT_HAVE_OPENCL
#include "backends/opencl/device_select.h"
#include "backends/opencl/opencl_backend.h"
#endif
#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#endif

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

namespace smelt {

namespace {

std::string available_names() {
    std::string out;
    for (const auto &b : list_backends())
        if (b.available) out += (out.empty() ? "" : ", ") + b.name;
    return out;
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

} // namespace

std::vector<BackendStatus> list_backends() {
    return {
        {"cpu", true, "C++ with OpenMP, built by the system compiler"},
        {"cpu:serial", true, "C++ without OpenMP, one thread"},
        opencl_status(),
        cuda_status(),
    };
}

Backend &get_backend(const std::string &spec) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<Backend>> backends;
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = backends.find(spec); it != backends.end()) return *it->second;

    std::unique_ptr<Backend> made;
    if (spec == "cpu" || spec == "cpu:openmp") {
        made = std::make_unique<cpu::CpuBackend>();
    } else if (spec == "cpu:serial") {
        made = std::make_unique<cpu::CpuBackend>(cpu::CpuOptions{.serial = true});
#ifdef SMELT_HAVE_OPENCL
    } else if (spec == "opencl" || spec.rfind("opencl:", 0) == 0) {
        // "opencl:SPEC" picks the device (backends/opencl/device_select.h); plain "opencl"
        // takes SMELT_OPENCL_DEVICE or the default.
        std::string device = spec == "opencl" ? "" : spec.substr(7);
        made = std::make_unique<opencl::OpenCLBackend>(opencl::OpenCLOptions{.device = device});
#endif
#ifdef SMELT_HAVE_CUDA
    } else if ((spec == "cuda" || spec.rfind("cuda:", 0) == 0) && cuda::device_present()) {
        int ordinal = 0;
        if (spec != "cuda") {
            const std::string n = spec.substr(5);
            if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos)
                throw UsageError("backend '" + spec + "': expected cuda:N with a device number");
            ordinal = std::stoi(n);
        }
        made = std::make_unique<cuda::CudaBackend>(ordinal);
#endif
    } else {
        for (const auto &b : list_backends())
            if (b.name == spec || spec.rfind(b.name + ":", 0) == 0)
                throw UsageError("backend '" + spec + "' is not available: " + b.note +
                                 " (available: " + available_names() + ")");
        throw UsageError("unknown backend '" + spec + "' (available: " + available_names() + ")");
    }
    return *backends.emplace(spec, std::move(made)).first->second;
}

Backend &default_backend() {
    const char *env = std::getenv("SMELT_BACKEND");
    return get_backend(env && *env ? env : "cpu");
}

} // namespace smelt
