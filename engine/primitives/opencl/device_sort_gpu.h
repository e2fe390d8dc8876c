// The device radix sort's GPU layout (device_sort_gpu.cpp) and the pieces both layouts share.
#pragma once

#include "array/dtype.h"
#include "backends/opencl/opencl_backend.h"

#include <cstdint>
#include <string>

namespace smelt::primitives::opencl {

// "uchar", "ushort", "uint", "ulong" for 1, 2, 4, 8 bytes (UsageError otherwise).
const char *unsigned_type(size_t bytes);
// The #defines KT, KIND, FLOAT_INF, CT, HAS_VALUES, VT, IOTA of the sort sources.
std::string sort_defines(DType key, size_t value_size, bool iota, bool wide_counts);
// The cache entry's signature: "keys=int32,value_bytes=4[,iota][,wide]".
std::string sort_signature(DType key, size_t value_size, bool iota, bool wide_counts);

// Sorts keys `ka` (n > 0 keys of dtype `key`) with values `va` (value_size bytes each; 0: none),
// using kb/vb as the other half of each ping-pong pair; the result ends in ka/va. `iota`: the
// first pass writes the input positions as values instead of reading va.
void gpu_lsd_sort(smelt::opencl::OpenCLBackend &b, DType key, int64_t n, const Buffer &ka,
                  const Buffer &kb, size_t value_size, const Buffer *va, const Buffer *vb,
                  bool iota);

} // namespace smelt::primitives::opencl
