// Backend name → PrimitiveTarget. CUDA adds one line here.
#include "primitives/target.h"

#include "primitives/cpu/cpu_target.h"
#include "primitives/cuda/cuda_target.h"
#include "support/error.h"
#ifdef SMELT_HAVE_OPENCL
#include "backends/opencl/opencl_backend.h"
#include "primitives/opencl/opencl_target.h"
#endif

namespace smelt::primitives {

const PrimitiveTarget &primitive_target(const std::string &backend_name) {
    if (backend_name == "cpu") return cpu::cpu_target();
#ifdef SMELT_HAVE_OPENCL
    if (backend_name == "opencl") return opencl::opencl_target();
#endif
    if (backend_name == "cuda") return cuda::cuda_target();
    throw UsageError("the parallel primitives are not available on backend '" + backend_name +
                     "' yet (available: cpu, opencl, cuda)");
}

} // namespace smelt::primitives

namespace smelt::primitives {

const PrimitiveTarget &primitive_target(Backend &backend) {
#ifdef SMELT_HAVE_OPENCL
    if (auto *cl = dynamic_cast<smelt::opencl::OpenCLBackend *>(&backend))
        return opencl::opencl_target(opencl::layout_for(*cl));
#endif
    return primitive_target(backend.name());
}

} // namespace smelt::primitives
