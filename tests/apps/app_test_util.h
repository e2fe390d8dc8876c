// Helpers every app test uses: temporary folders, and the CPU backend on one thread.
#pragma once

#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"

#include <filesystem>
#include <string>
#include <unistd.h>

namespace smelt::apps::test_util {

// A fresh, empty folder under the system's temp directory (removed by the caller).
inline std::filesystem::path fresh_temp_dir(const std::string &name) {
    auto dir = std::filesystem::temp_directory_path() /
               ("smelt_app_" + std::to_string(getpid()) + "_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// The CPU backend on one thread while in scope. Tests that launch thousands of kernels on 100
// particles use it: each OpenMP team wake-up costs milliseconds on a loaded machine. Forces do
// not depend on the thread count (one writer per particle); reduction rounding does.
class SerialCpu {
public:
    SerialCpu() : cpu_(dynamic_cast<smelt::cpu::CpuBackend &>(smelt::get_backend("cpu"))) {
        saved_ = cpu_.num_threads();
        cpu_.set_num_threads(1);
    }
    ~SerialCpu() { cpu_.set_num_threads(saved_); }
    SerialCpu(const SerialCpu &) = delete;
    SerialCpu &operator=(const SerialCpu &) = delete;

private:
    smelt::cpu::CpuBackend &cpu_;
    int saved_ = 1;
};

// Whether the machine has an OpenCL device (PoCL in CI), for tests of the GPU forms that skip
// without one.
inline bool opencl_available() {
    for (const auto &b : smelt::list_backends())
        if (b.name == "opencl" && b.available) return true;
    return false;
}

} // namespace smelt::apps::test_util
