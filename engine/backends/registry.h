// Backends by name: "cpu" (OpenMP), "cpu:serial", "opencl" / "opencl:DEVICE-SPEC" (when built
// with OpenCL and a device is found), "cuda" / "cuda:N" (when built with the CUDA toolkit and a
// device is present): the rows of the backend table (support/backend_table.h), made once each.
#pragma once

#include "backends/backend.h"
#include "support/backend_table.h"

#include <string>
#include <vector>

namespace smelt {

// The process-wide backend for `spec` ("cpu", "cpu:serial", "opencl"), created on first use.
// UsageError for unknown or unavailable backends, listing the available ones.
Backend &get_backend(const std::string &spec);

// get_backend($SMELT_BACKEND), or "cpu" when unset.
Backend &default_backend();

// The devices `spec`'s row chooses among with "NAME:N": 0 for an unknown or unavailable
// backend, 1 for a backend without device numbers (cpu). Makes no backend, so it opens no
// device (no GPU context).
size_t device_count(const std::string &spec);
// The device numbers the ranks of an MPI job on one node share round robin (the row's
// rank_devices: OpenCL's GPUs before a CPU device); empty for an unknown or unavailable backend.
// Makes no backend.
std::vector<size_t> rank_devices(const std::string &spec);

// Every row of the backend table (support/backend_table.h) with its status here and now.
std::vector<BackendStatus> list_backends();

} // namespace smelt
