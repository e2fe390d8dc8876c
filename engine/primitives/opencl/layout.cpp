#include "primitives/opencl/layout.h"

#include "support/error.h"

#include <cstdlib>
#include <string>

namespace smelt::primitives::opencl {

Layout layout_for(const smelt::opencl::OpenCLBackend &backend) {
    const char *env = std::getenv("SMELT_OPENCL_LAYOUT");
    const std::string v = env ? env : "";
    if (v == "gpu") return Layout::Gpu;
    if (v == "cpu") return Layout::Cpu;
    if (!v.empty())
        throw UsageError("SMELT_OPENCL_LAYOUT='" + v +
                         "' is not a layout of the OpenCL primitives (gpu or cpu; unset: by "
                         "device type)");
    return backend.device().summary.is_gpu ? Layout::Gpu : Layout::Cpu;
}

} // namespace smelt::primitives::opencl
