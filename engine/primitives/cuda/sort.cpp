#include "primitives/cuda/sort.h"

#include "support/error.h"

#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/cub_sort.h"
#include "backends/cuda/cuda_backend.h"

#include <climits>
#include <optional>
#endif

namespace smelt::primitives::cuda {

#ifdef SMELT_HAVE_CUDA

namespace {

using smelt::cuda::CudaBackend;
namespace cs = smelt::cuda::cub_sort;

CudaBackend &as_cuda(Backend &b) {
    auto *c = dynamic_cast<CudaBackend *>(&b);
    SMELT_INTERNAL_ASSERT(c, "CUDA sort of an array on backend " << b.name());
    return *c;
}

std::optional<cs::Key> native_key(DType d) {
    switch (d) {
    case DType::Int32:
        return cs::Key::I32;
    case DType::UInt32:
        return cs::Key::U32;
    case DType::Int64:
        return cs::Key::I64;
    case DType::UInt64:
        return cs::Key::U64;
    default:
        return std::nullopt;
    }
}

cs::Source source_of(DType d) {
    switch (d) {
    case DType::Int8:
        return cs::Source::I8;
    case DType::UInt8:
        return cs::Source::U8;
    case DType::Int16:
        return cs::Source::I16;
    case DType::UInt16:
        return cs::Source::U16;
    case DType::Int32:
        return cs::Source::I32;
    case DType::UInt32:
        return cs::Source::U32;
    case DType::Int64:
        return cs::Source::I64;
    case DType::UInt64:
        return cs::Source::U64;
    case DType::Float32:
        return cs::Source::F32;
    case DType::Float64:
        return cs::Source::F64;
    default:
        throw UsageError(std::string("sort: keys of dtype ") + dtype_name(d) +
                         " cannot be sorted on the GPU");
    }
}

// Sub-allocations of one scratch block, each 256-byte aligned.
struct Layout {
    size_t end = 0;
    size_t take(size_t bytes) {
        size_t at = end;
        end += (bytes + 255) / 256 * 256;
        return at;
    }
};

CUdeviceptr device_ptr(const Array &a) {
    return reinterpret_cast<CUdeviceptr>(a.buffer().handle);
}

int checked_count(const Array &keys, const char *what) {
    if (keys.size() > size_t(INT_MAX))
        throw UsageError(std::string(what) + ": the CUDA sort handles at most " +
                         std::to_string(INT_MAX) + " keys, not " + std::to_string(keys.size()));
    return static_cast<int>(keys.size());
}

void copy_device(CudaBackend &b, CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
    b.copy(Buffer{reinterpret_cast<void *>(dst), bytes}, 0,
           Buffer{reinterpret_cast<void *>(src), bytes}, 0, bytes);
}

bool is_float(DType d) {
    return d == DType::Float32 || d == DType::Float64;
}

} // namespace

void sort_by_key(Array &keys, Array *values, int key_bits) {
    CudaBackend &b = as_cuda(keys.backend());
    const int n = checked_count(keys, "sort_by_key");
    if (n <= 1) return;
    b.make_current();
    const CUstream s = b.stream();
    const size_t kbytes = dtype_size(keys.dtype());
    const int vbytes = values ? static_cast<int>(dtype_size(values->dtype())) : 0;
    const CUdeviceptr keys_p = device_ptr(keys), values_p = values ? device_ptr(*values) : 0;

    if (auto key = native_key(keys.dtype()); key && (vbytes == 0 || vbytes == 4 || vbytes == 8)) {
        // Keys in [0, 2^key_bits): their higher bits, sign bit included, are all zero.
        const int end_bit = key_bits > 0 ? key_bits : 8 * int(kbytes);
        const size_t temp = cs::temp_bytes(*key, vbytes, n, end_bit);
        Layout l;
        const size_t alt_k = l.take(n * kbytes), alt_v = l.take(size_t(n) * vbytes),
                     t = l.take(temp);
        const CUdeviceptr base = b.scratch(l.end);
        cs::sort(*key, vbytes, keys_p, base + alt_k, values_p, base + alt_v, n, end_bit, base + t,
                 temp, s);
        return;
    }
    // Mapped keys sorted with their indices, then keys and values gathered from copies.
    const size_t mbytes = kbytes <= 4 ? 4 : 8;
    const cs::Key mkey = mbytes == 4 ? cs::Key::U32 : cs::Key::U64;
    const size_t temp = cs::temp_bytes(mkey, 4, n, 8 * int(kbytes));
    Layout l;
    const size_t mapped = l.take(n * mbytes), alt_mapped = l.take(n * mbytes),
                 index = l.take(size_t(n) * 4), alt_index = l.take(size_t(n) * 4),
                 key_copy = l.take(n * kbytes), value_copy = l.take(size_t(n) * vbytes),
                 t = l.take(temp);
    const CUdeviceptr base = b.scratch(l.end);
    cs::map_keys(source_of(keys.dtype()), keys_p, base + mapped, n, s);
    cs::iota(base + index, false, n, s);
    cs::sort(mkey, 4, base + mapped, base + alt_mapped, base + index, base + alt_index, n,
             8 * int(kbytes), base + t, temp, s);
    copy_device(b, base + key_copy, keys_p, n * kbytes);
    cs::gather(int(kbytes), base + key_copy, base + index, false, keys_p, n,
               is_float(keys.dtype()) ? int(kbytes) : 0, s);
    if (values) {
        copy_device(b, base + value_copy, values_p, size_t(n) * vbytes);
        cs::gather(vbytes, base + value_copy, base + index, false, values_p, n, 0, s);
    }
}

Array argsort(const Array &keys, DType index_dtype) {
    CudaBackend &b = as_cuda(keys.backend());
    if (index_dtype != DType::Int64 && index_dtype != DType::Int32)
        throw UsageError(std::string("argsort: index dtype must be int64 or int32, not ") +
                         dtype_name(index_dtype));
    const int n = checked_count(keys, "argsort");
    Array out(index_dtype, size_t(n), &b);
    if (n == 0) return out;
    b.make_current();
    const CUstream s = b.stream();
    const bool index64 = index_dtype == DType::Int64;
    const int ibytes = index64 ? 8 : 4;
    const size_t kbytes = dtype_size(keys.dtype());
    const CUdeviceptr out_p = device_ptr(out);
    cs::iota(out_p, index64, n, s);
    if (n == 1) return out;

    auto key = native_key(keys.dtype());
    const size_t sbytes = key ? kbytes : (kbytes <= 4 ? 4 : 8); // bytes of a key CUB sorts
    const cs::Key skey = key ? *key : (sbytes == 4 ? cs::Key::U32 : cs::Key::U64);
    const size_t temp = cs::temp_bytes(skey, ibytes, n, 8 * int(kbytes));
    Layout l;
    const size_t sorted = l.take(n * sbytes), alt_sorted = l.take(n * sbytes),
                 alt_index = l.take(size_t(n) * ibytes), t = l.take(temp);
    const CUdeviceptr base = b.scratch(l.end);
    // CUB reorders its key buffer: sort a copy (or the mapped keys), never the caller's keys.
    if (key)
        copy_device(b, base + sorted, device_ptr(keys), n * kbytes);
    else
        cs::map_keys(source_of(keys.dtype()), device_ptr(keys), base + sorted, n, s);
    cs::sort(skey, ibytes, base + sorted, base + alt_sorted, out_p, base + alt_index, n,
             8 * int(kbytes), base + t, temp, s);
    return out;
}

#else

void sort_by_key(Array &, Array *, int) {
    SMELT_INTERNAL_ASSERT(false, "CUDA sort in a build without CUDA");
}

Array argsort(const Array &, DType) {
    SMELT_INTERNAL_ASSERT(false, "CUDA argsort in a build without CUDA");
}

#endif

} // namespace smelt::primitives::cuda
