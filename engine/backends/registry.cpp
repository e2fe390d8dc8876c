#include "backends/registry.h"

#include "backends/cpu/cpu_backend.h"
#include "support/error.h"
#ifdef SMELT_HAVE_OPENCL
#include "backends/opencl/device_select.h"
#include "backends/opencl/opencl_backend.h"
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

} // namespace

std::vector<BackendStatus> list_backends() {
    return {
        {"cpu", true, "C++ with OpenMP, built by the system compiler"},
        {"cpu:serial", true, "C++ without OpenMP, one thread"},
        opencl_status(),
        {"cuda", false, "not implemented yet in this version of smelt"},
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
    } else {
        for (const auto &b : list_backends())
            if (b.name == spec)
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
