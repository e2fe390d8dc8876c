// The OpenCL C text of the device radix sort (see device_sort_source.cpp for its #defines).
#pragma once

namespace smelt::primitives::opencl {

const char *device_sort_source();

} // namespace smelt::primitives::opencl
