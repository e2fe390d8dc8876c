// Backend name → PrimitiveTarget. OpenCL and CUDA add one line each here.
#include "primitives/target.h"

#include "primitives/cpu/cpu_target.h"
#include "primitives/cuda/cuda_target.h"
#include "support/error.h"

namespace smelt::primitives {

const PrimitiveTarget &primitive_target(const std::string &backend_name) {
    if (backend_name == "cpu") return cpu::cpu_target();
    if (backend_name == "cuda") return cuda::cuda_target();
    throw UsageError("the parallel primitives are not available on backend '" + backend_name +
                     "' yet (available: cpu, cuda)");
}

} // namespace smelt::primitives
