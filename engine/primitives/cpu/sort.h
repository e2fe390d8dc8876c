// sort_by_key and argsort for arrays on the CPU backend: the host radix sort
// (radix_sort_core.h) on the arrays' memory, with the backend's thread count unless the call
// names one. The CPU primitive target's sort (cpu_target.cpp) calls these; radix_sort_host and
// radix_argsort_host (primitives/radix_sort.h) are defined here too.
#pragma once

#include "array/array.h"

namespace smelt::primitives::cpu {

// num_threads: 0 for the keys' backend's thread count.
void sort_by_key(Array &keys, Array *values, int num_threads);
Array argsort(const Array &keys, DType index_dtype, int num_threads);

} // namespace smelt::primitives::cpu
