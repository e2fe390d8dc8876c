// The device radix sort's GPU layout (device_sort_gpu.cpp).
#pragma once

#include "array/dtype.h"
#include "backends/opencl/opencl_backend.h"

#include <cstdint>

namespace smelt::primitives::opencl {

// Sorts keys `ka` (n > 0 keys of dtype `key`) with values `va` (value_size bytes each; 0: none),
// using kb/vb as the other half of each ping-pong pair; the result ends in ka/va. `iota`: the
// first pass writes the input positions as values instead of reading va. key_bytes: the low
// bytes of the key to pass over (all of them, unless the keys are known to be below 2^(8 x)).
void gpu_lsd_sort(smelt::opencl::OpenCLBackend &b, DType key, int64_t n, const Buffer &ka,
                  const Buffer &kb, size_t value_size, const Buffer *va, const Buffer *vb,
                  bool iota, int key_bytes);

} // namespace smelt::primitives::opencl
