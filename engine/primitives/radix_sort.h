// Stable radix sort of array keys, with optional values moved along, and argsort.
//
// Keys may have any dtype. Order is ascending by value: ints and floats as with operator<, with
// -0.0 and +0.0 equal (their relative order is kept) and NaNs last. Equal keys keep their input
// order (stable), so the results equal std::stable_sort's.
#pragma once

#include "array/array.h"

namespace smelt {

struct SortOptions {
    int num_threads = 0; // 0: the keys' backend's thread count
    // Integer keys known to lie in [0, 2^key_bits): a device sort may then look at the low
    // key_bits bits only (fewer radix passes: cell indices below 2^16 take two of CUB's four
    // on int32). Keys outside that range come out in an unspecified order. 0: every bit. The
    // CPU's host sort, and floating-point keys, use every bit whatever this says.
    int key_bits = 0;
};

// Sorts `keys` in place; `values` (same length, any dtype) is permuted with them.
void sort_by_key(Array &keys, Array *values = nullptr, const SortOptions &options = {});

// Indices (int64 or int32) that sort `keys` stably: keys[idx[0]] <= keys[idx[1]] <= ...
Array argsort(const Array &keys, DType index_dtype = DType::Int64, const SortOptions &options = {});

// The same on host memory, for engine code and benchmarks. value_size: 0 (no values), 1, 2, 4
// or 8 bytes per value.
void radix_sort_host(DType key_dtype, void *keys, void *values, size_t value_size, size_t n,
                     int num_threads);
void radix_argsort_host(DType key_dtype, const void *keys, void *indices, DType index_dtype,
                        size_t n, int num_threads);

} // namespace smelt
