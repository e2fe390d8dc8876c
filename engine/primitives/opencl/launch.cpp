#include "primitives/opencl/launch.h"

#include "support/error.h"

#include <algorithm>

namespace smelt::primitives::opencl {

size_t group_size(smelt::opencl::OpenCLBackend &b, void *kernel) {
    size_t max = 0;
    smelt::opencl::check(clGetKernelWorkGroupInfo(static_cast<cl_kernel>(kernel), b.device_id(),
                                                  CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max,
                                                  nullptr),
                         "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)");
    const size_t cap = std::min({kMaxGroupSize, max, b.device().max_work_group_size});
    size_t w = 1;
    while (w * 2 <= cap)
        w *= 2;
    return w;
}

int64_t group_count(int64_t n, int64_t per_group) {
    return std::clamp<int64_t>((n + per_group - 1) / per_group, 1, kMaxGroups);
}

int64_t gpu_group_count(smelt::opencl::OpenCLBackend &b, int64_t n) {
    const int64_t most =
        std::max<int64_t>(1, static_cast<int64_t>(b.device().compute_units) * kGpuGroupsPerUnit);
    const auto tile = static_cast<int64_t>(kGpuMinTile);
    return std::clamp<int64_t>((n + tile - 1) / tile, 1, most);
}

LaunchDims gpu_dims(int64_t groups) {
    const auto w = static_cast<int64_t>(kGpuGroupSize);
    return LaunchDims::linear(groups * w, w);
}

smelt::opencl::OpenCLBackend &as_opencl(Backend &backend) {
    auto *b = dynamic_cast<smelt::opencl::OpenCLBackend *>(&backend);
    SMELT_INTERNAL_ASSERT(b, "OpenCL primitive launched on backend " << backend.name());
    return *b;
}

ScratchBuffer::ScratchBuffer(Backend &b, size_t bytes)
    : backend(b), buffer(b.allocate(std::max<size_t>(bytes, 1))) {}

} // namespace smelt::primitives::opencl
