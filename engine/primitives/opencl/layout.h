// Which shape the OpenCL primitives take on a device.
//
//   Cpu  one contiguous chunk of the range per work-item (few work-items, each streaming its
//        own chunk: what CPU caches and prefetchers like; PoCL's default)
//   Gpu  work-groups of kGpuGroupSize over tiles: consecutive work-items load consecutive items
//        (coalesced) into local memory, then each folds a few consecutive items (gpu_wrappers.h,
//        device_sort_gpu.cpp); the default on CL_DEVICE_TYPE_GPU devices
//
// SMELT_OPENCL_LAYOUT=gpu|cpu overrides the default (so CI runs the GPU layout on PoCL); any
// other non-empty value is a UsageError. The layout is read when a primitive is constructed.
#pragma once

#include "backends/opencl/opencl_backend.h"

namespace smelt::primitives::opencl {

enum class Layout { Cpu, Gpu };

Layout layout_for(const smelt::opencl::OpenCLBackend &backend);

} // namespace smelt::primitives::opencl
