// Stable LSD radix sort of OpenCL arrays on the device (radix_sort.h's meaning: ascending, -0.0
// and +0.0 equal, NaNs last, equal keys in input order). Keys keep their exact bits: each pass
// computes the digit from the order-preserving map of the key, the key itself moves unchanged.
// The OpenCL primitive target's sort (opencl_target.cpp) calls these with its layout.
#pragma once

#include "array/array.h"
#include "primitives/opencl/layout.h"

namespace smelt::primitives::opencl {

// `keys` and `values` live on the same OpenCL backend (checked by the caller).
// key_bits: SortOptions::key_bits (integer keys: the passes over the low key_bits bits only).
void device_sort_by_key(Array &keys, Array *values, Layout layout, int key_bits = 0);
// Indices of dtype Int32 or Int64 (checked by the caller).
Array device_argsort(const Array &keys, DType index_dtype, Layout layout);

} // namespace smelt::primitives::opencl
