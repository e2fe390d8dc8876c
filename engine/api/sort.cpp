#include "primitives/radix_sort.h"

#include "backends/cpu/cpu_backend.h"
#include "primitives/cuda/sort.h"
#include "primitives/radix_sort_core.h"
#include "support/error.h"
#ifdef SMELT_HAVE_OPENCL
#include "primitives/opencl/device_sort.h"
#include "primitives/profile.h"
#endif

#include <cstdint>
#include <limits>
#include <string>

namespace smelt {

namespace {

// Values are moved as raw bytes, so one instantiation per value size serves every dtype.
template <class K>
void sort_with_value_size(K *keys, void *values, size_t value_size, size_t n, int threads) {
    switch (value_size) {
    case 0:
        return radix::radix_sort<K, radix::NoValue>(keys, keys, nullptr, n, threads, false);
    case 1:
        return radix::radix_sort(keys, keys, static_cast<uint8_t *>(values), n, threads, false);
    case 2:
        return radix::radix_sort(keys, keys, static_cast<uint16_t *>(values), n, threads, false);
    case 4:
        return radix::radix_sort(keys, keys, static_cast<uint32_t *>(values), n, threads, false);
    case 8:
        return radix::radix_sort(keys, keys, static_cast<uint64_t *>(values), n, threads, false);
    default:
        throw UsageError("sort: unsupported value size " + std::to_string(value_size) + " bytes");
    }
}

int threads_for(const Array &keys, const SortOptions &options) {
    if (options.num_threads > 0) return options.num_threads;
    if (auto *cpu = dynamic_cast<cpu::CpuBackend *>(&keys.backend())) return cpu->num_threads();
    return cpu::default_num_threads();
}

} // namespace

void radix_sort_host(DType key_dtype, void *keys, void *values, size_t value_size, size_t n,
                     int num_threads) {
    visit_dtype(key_dtype, [&]<class K>() {
        sort_with_value_size(static_cast<K *>(keys), values, value_size, n, num_threads);
    });
}

void radix_argsort_host(DType key_dtype, const void *keys, void *indices, DType index_dtype,
                        size_t n, int num_threads) {
    visit_dtype(key_dtype, [&]<class K>() {
        const K *k = static_cast<const K *>(keys);
        if (index_dtype == DType::Int64)
            radix::radix_sort<K>(k, nullptr, static_cast<uint64_t *>(indices), n, num_threads,
                                 true);
        else if (index_dtype == DType::Int32)
            radix::radix_sort<K>(k, nullptr, static_cast<uint32_t *>(indices), n, num_threads,
                                 true);
        else
            throw UsageError(std::string("argsort: index dtype must be int64 or int32, not ") +
                             dtype_name(index_dtype));
    });
}

void sort_by_key(Array &keys, Array *values, const SortOptions &options) {
    profile::Scope profile(keys.backend(), "sort_by_key", dtype_name(keys.dtype()));
    if (values) {
        values->check_size(keys.size(), "sort_by_key: values");
        if (&values->backend() != &keys.backend())
            throw UsageError("sort_by_key: keys and values live on different backends");
    }
    if (primitives::cuda::is_cuda(keys.backend()))
        return primitives::cuda::sort_by_key(keys, values);
#ifdef SMELT_HAVE_OPENCL
    if (keys.backend().name() == "opencl")
        return primitives::opencl::device_sort_by_key(keys, values);
#endif
    // Other non-host-addressable backends (none yet): pull → sort on the host → push. On the
    // CPU pull/push do nothing.
    keys.pull();
    if (values) values->pull();
    radix_sort_host(keys.dtype(), keys.host_data(), values ? values->host_data() : nullptr,
                    values ? dtype_size(values->dtype()) : 0, keys.size(),
                    threads_for(keys, options));
    keys.push();
    if (values) values->push();
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
#ifdef SMELT_HAVE_OPENCL
    if (keys.backend().name() == "opencl")
        return primitives::opencl::device_argsort(keys, index_dtype);
#endif
    if (primitives::cuda::is_cuda(keys.backend()))
        return primitives::cuda::argsort(keys, index_dtype);
    keys.pull(); // see sort_by_key
    Array out(index_dtype, keys.size(), &keys.backend());
    radix_argsort_host(keys.dtype(), keys.host_data(), out.host_data(), index_dtype, keys.size(),
                       threads_for(keys, options));
    out.push();
    return out;
}

} // namespace smelt
