// Launch geometry shared by the OpenCL primitives: work-group sizes and group counts.
#pragma once

#include "backends/opencl/opencl_backend.h"
#include "primitives/opencl/gpu_wrappers.h"

#include <cstddef>
#include <cstdint>

namespace smelt::primitives::opencl {

// The largest power of two <= min(kMaxGroupSize, the kernel's CL_KERNEL_WORK_GROUP_SIZE, the
// device's maximum).
size_t group_size(smelt::opencl::OpenCLBackend &b, void *kernel);

// ceil(n / per_group) clamped to [1, kMaxGroups]: a fixed split for a given n and device.
int64_t group_count(int64_t n, int64_t per_group);

inline constexpr int64_t kMaxGroups = 1024;

// GPU layout: ceil(n / kGpuMinTile) groups, at most kGpuGroupsPerUnit per compute unit (at least
// one), so the grid fills the device and depends only on n and the device.
int64_t gpu_group_count(smelt::opencl::OpenCLBackend &b, int64_t n);
// The NDRange of `groups` work-groups of kGpuGroupSize.
LaunchDims gpu_dims(int64_t groups);

// Downcast with an internal error for any other backend.
smelt::opencl::OpenCLBackend &as_opencl(Backend &backend);

// A device buffer released when it goes out of scope (after the launches using it have been
// queued: OpenCL frees it once they have run).
struct ScratchBuffer {
    Backend &backend;
    Buffer buffer;
    ScratchBuffer(Backend &b, size_t bytes);
    ~ScratchBuffer() { backend.release(buffer); }
    ScratchBuffer(const ScratchBuffer &) = delete;
    ScratchBuffer &operator=(const ScratchBuffer &) = delete;
};

} // namespace smelt::primitives::opencl
