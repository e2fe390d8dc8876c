#include "common/domain/device_choice.h"

#include "common/domain/mpi_env.h"

#include "backends/registry.h"

#include <algorithm>
#include <cstdlib>

namespace smelt::apps::mpi {

std::string backend_for_rank(const std::string &backend) {
    if (!distributed() || backend.empty() || backend.rfind("cpu", 0) == 0) return backend;
    if (backend.find(':') != std::string::npos) return backend; // a device already named
    const std::string local = std::to_string(local_rank());
    if (backend == "cuda") {
        const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
        if (visible && *visible && std::string(visible).find(',') == std::string::npos)
            return "cuda:0";
        return "cuda:" + local;
    }
    if (backend == "opencl") {
        if (const char *d = std::getenv("SMELT_OPENCL_DEVICE"); d && *d) return backend;
        // Round robin over the platform's devices: a CPU OpenCL (PoCL) has one, shared by all.
        const size_t count = smelt::get_backend("opencl").devices().size();
        return "opencl:" + std::to_string(size_t(local_rank()) % std::max<size_t>(count, 1));
    }
    return backend;
}

} // namespace smelt::apps::mpi
