// The OpenCL C text of the device radix sort in the CPU and GPU layouts (see
// device_sort_source.cpp and device_sort_gpu_source.cpp for their #defines).
#pragma once

namespace smelt::primitives::opencl {

const char *device_sort_source();
const char *device_sort_gpu_source();

} // namespace smelt::primitives::opencl
