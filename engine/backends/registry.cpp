#include "backends/registry.h"

#include "backends/cpu/cpu_backend.h"
#include "support/error.h"

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

} // namespace

std::vector<BackendStatus> list_backends() {
    return {
        {"cpu", true, "C++ with OpenMP, built by the system compiler"},
        {"cpu:serial", true, "C++ without OpenMP, one thread"},
        {"opencl", false, "not implemented yet in this version of smelt"},
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
