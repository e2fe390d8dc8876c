// sort_by_key and argsort for arrays on the CUDA backend, on the device (CUB's radix sort;
// backends/cuda/cub_sort.h), with the CPU sort's meaning (primitives/radix_sort.h): stable,
// ascending, -0.0 equal to +0.0 (their order and signs kept), NaNs last as the canonical NaN.
//
//   int32/uint32/int64/uint64 keys with no value or a 4- or 8-byte value: CUB sorts the arrays
//       in place (ping-ponging with scratch memory).
//   other keys (floats, 8- and 16-bit integers) or value sizes, and argsort: the keys are mapped
//       to order-preserving unsigned integers, CUB sorts (mapped key, index) pairs, and keys and
//       values are gathered through the sorted indices from copies of the originals.
//
// The CUDA primitive target's sort (cuda_target.cpp) calls these. At most INT32_MAX keys.
#pragma once

#include "array/array.h"

namespace smelt::primitives::cuda {

// key_bits: SortOptions::key_bits (the native integer path sorts bits [0, key_bits) only).
void sort_by_key(Array &keys, Array *values, int key_bits = 0);
Array argsort(const Array &keys, DType index_dtype);

} // namespace smelt::primitives::cuda
