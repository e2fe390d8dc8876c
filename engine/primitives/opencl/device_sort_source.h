// The OpenCL C text of the device radix sort in the CPU and GPU layouts, each used after
// device_sort_key_map() (see
// device_sort_source.cpp and device_sort_gpu_source.cpp for their #defines).
#pragma once

namespace smelt::primitives::opencl {

// SMELT_SIGN and smelt_map(KT): the order-preserving key map both layouts start from.
const char *device_sort_key_map();
const char *device_sort_source();
const char *device_sort_gpu_source();

} // namespace smelt::primitives::opencl
