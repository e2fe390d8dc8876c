// sort_by_key and argsort: the checks every backend shares, then the sort of the keys' backend
// (PrimitiveTarget::sort_by_key / argsort: the host radix sort on the CPU, the device radix sort
// on OpenCL, CUB on CUDA). radix_sort_host and radix_argsort_host live with the CPU's sort
// (primitives/cpu/sort.cpp).
#include "primitives/radix_sort.h"

#include "primitives/profile.h"
#include "primitives/target.h"
#include "support/error.h"

#include <cstdint>
#include <limits>
#include <string>

namespace smelt {

void sort_by_key(Array &keys, Array *values, const SortOptions &options) {
    profile::Scope profile(keys.backend(), "sort_by_key", dtype_name(keys.dtype()));
    if (values) {
        values->check_size(keys.size(), "sort_by_key: values");
        if (&values->backend() != &keys.backend())
            throw UsageError("sort_by_key: keys and values live on different backends");
    }
    if (options.key_bits < 0 || options.key_bits > int(8 * dtype_size(keys.dtype())))
        throw UsageError("sort_by_key: key_bits " + std::to_string(options.key_bits) +
                         " outside 0.." + std::to_string(8 * dtype_size(keys.dtype())) +
                         " for keys of dtype " + dtype_name(keys.dtype()));
    primitives::primitive_target(keys.backend()).sort_by_key(keys, values, options);
}

Array argsort(const Array &keys, DType index_dtype, const SortOptions &options) {
    profile::Scope profile(keys.backend(), "argsort", dtype_name(keys.dtype()));
    if (index_dtype == DType::Int32 &&
        keys.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
        throw UsageError("argsort: " + std::to_string(keys.size()) +
                         " keys do not fit int32 indices; use int64");
    if (index_dtype != DType::Int64 && index_dtype != DType::Int32)
        throw UsageError(std::string("argsort: index dtype must be int64 or int32, not ") +
                         dtype_name(index_dtype));
    return primitives::primitive_target(keys.backend())
        .argsort(keys, index_dtype, options.num_threads);
}

} // namespace smelt
