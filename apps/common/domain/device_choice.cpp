#include "common/domain/device_choice.h"

#include "common/domain/mpi_env.h"

#include "backends/registry.h"
#include "support/backend_table.h"

#include <cstdlib>
#include <vector>

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
    // (PoCL) has one device, shared by all; beside GPUs an OpenCL CPU device is left out, as
    // plain "opencl" leaves it (smelt::rank_devices). Listed without opening a device: a
    // backend made here would hold a context on device 0 in every rank. An unavailable backend
    // lists none: device 0, and the rank's own run reports it, naming the device.
    const std::vector<size_t> devices = smelt::rank_devices(backend);
    const size_t device = devices.empty() ? 0 : devices[size_t(local_rank()) % devices.size()];
    return backend + ":" + std::to_string(device);
}

} // namespace smelt::apps::mpi
