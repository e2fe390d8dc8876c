// Backends by name: "cpu" (OpenMP), "cpu:serial", "opencl" / "opencl:DEVICE-SPEC" (when built
// with OpenCL and a device is found), "cuda" / "cuda:N" (when built with the CUDA toolkit and a
// device is present).
// backend is written.
#pragma once

#include "backends/backend.h"

#include <string>
#include <vector>

namespace smelt {

// The process-wide backend for `spec` ("cpu", "cpu:serial", "opencl"), created on first use.
// UsageError for unknown or unavailable backends, listing the available ones.
Backend &get_backend(const std::string &spec);

// get_backend($SMELT_BACKEND), or "cpu" when unset.
Backend &default_backend();

struct BackendStatus {
    std::string name;
    bool available = false;
    std::string note; // why not available, or how to select it
};
std::vector<BackendStatus> list_backends();

} // namespace smelt
