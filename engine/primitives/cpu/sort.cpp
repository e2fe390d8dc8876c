#include "primitives/cpu/sort.h"

#include "backends/cpu/cpu_backend.h"
#include "primitives/radix_sort.h"
#include "primitives/radix_sort_core.h"
#include "support/error.h"

#include <cstdint>
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

} // namespace smelt

namespace smelt::primitives::cpu {

namespace {

int threads_for(const Array &keys, int num_threads) {
    if (num_threads > 0) return num_threads;
    if (auto *cpu = dynamic_cast<smelt::cpu::CpuBackend *>(&keys.backend()))
        return cpu->num_threads();
    return smelt::cpu::default_num_threads();
}

} // namespace

void sort_by_key(Array &keys, Array *values, int num_threads) {
    radix_sort_host(keys.dtype(), keys.host_data(), values ? values->host_data() : nullptr,
                    values ? dtype_size(values->dtype()) : 0, keys.size(),
                    threads_for(keys, num_threads));
}

Array argsort(const Array &keys, DType index_dtype, int num_threads) {
    Array out(index_dtype, keys.size(), &keys.backend());
    radix_argsort_host(keys.dtype(), keys.host_data(), out.host_data(), index_dtype, keys.size(),
                       threads_for(keys, num_threads));
    return out;
}

} // namespace smelt::primitives::cpu
