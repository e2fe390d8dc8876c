#include "common/domain/device_choice.h"

#include "common/domain/mpi_env.h"

#include "backends/registry.h"
#include "support/backend_table.h"

#include <algorithm>
#include <cstdlib>

namespace smelt::apps::mpi {

std::string backend_for_rank(const std::string &backend) {
    if (!distributed() || backend.find(':') != std::string::npos) return backend; // device named
    // Only the backends whose rows take a device (NAME:DEVICE) have one to pick.
    const smelt::BackendRow *row = smelt::find_backend_row(backend);
    if (!row || !row->takes_device || backend != row->name) return backend;
    if (backend == "cuda") {
        const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
        if (visible && *visible && std::string(visible).find(',') == std::string::npos)
            return "cuda:0";
    } else if (const char *d = std::getenv("SMELT_OPENCL_DEVICE"); backend == "opencl" && d && *d) {
        return backend;
    }
    // Round robin over the node's devices: more ranks than GPUs share them, and a CPU OpenCL
    // (PoCL) has one device, shared by all. Counted without opening a device: a backend made
    // here would hold a context on device 0 in every rank. An unavailable backend counts 0, and
    // the rank's own run reports it, naming the device.
    const size_t count = std::max<size_t>(smelt::device_count(backend), 1);
    return backend + ":" + std::to_string(size_t(local_rank()) % count);
}

} // namespace smelt::apps::mpi
