// CUB's DeviceRadixSort plus the key-mapping, iota and gather kernels (see cub_sort.h).
// Compiled by nvcc for CMAKE_CUDA_ARCHITECTURES; 12 DeviceRadixSort instantiations in all.
#include "backends/cuda/cub_sort.h"

#include "support/error.h"

#include <cub/device/device_radix_sort.cuh>

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

namespace smelt::cuda::cub_sort {

namespace {

constexpr int kBlock = 256;

void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        throw BackendError(std::string("cuda: ") + what + " failed: " + cudaGetErrorName(e) + " (" +
                               cudaGetErrorString(e) + ")",
                           "", "");
}

unsigned blocks(int n) {
    return static_cast<unsigned>((static_cast<long long>(n) + kBlock - 1) / kBlock);
}

cudaStream_t rt(CUstream s) {
    return reinterpret_cast<cudaStream_t>(s);
}

template <class T> T *dev(CUdeviceptr p) {
    return reinterpret_cast<T *>(static_cast<uintptr_t>(p));
}

// --- order-preserving unsigned keys (the device twin of primitives/radix_keys.h) ---------

template <class S, class U> __device__ U map_one(S k) {
    if constexpr (std::is_same_v<S, float>) {
        unsigned bits = __float_as_uint(k);
        if (bits == 0x80000000u) bits = 0; // -0.0 sorts as +0.0
        unsigned u = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
        return (bits & 0x7fffffffu) > 0x7f800000u ? 0xffffffffu : u; // NaNs last
    } else if constexpr (std::is_same_v<S, double>) {
        unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(k));
        const unsigned long long sign = 0x8000000000000000ull;
        if (bits == sign) bits = 0;
        unsigned long long u = (bits & sign) ? ~bits : (bits | sign);
        return (bits & ~sign) > 0x7ff0000000000000ull ? ~0ull : u;
    } else {
        using US = std::make_unsigned_t<S>;
        constexpr US flip = std::is_signed_v<S> ? US(US(1) << (8 * sizeof(S) - 1)) : US(0);
        return static_cast<U>(static_cast<US>(static_cast<US>(k) ^ flip));
    }
}

template <class S, class U> __global__ void map_kernel(const S *keys, U *mapped, int n) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) mapped[i] = map_one<S, U>(keys[i]);
}

template <class I> __global__ void iota_kernel(I *index, int n) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) index[i] = static_cast<I>(i);
}

template <class E, class I>
__global__ void gather_kernel(const E *src, const I *index, E *dst, int n, int nan_bytes) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    E x = src[index[i]];
    if constexpr (sizeof(E) == 4) {
        if (nan_bytes == 4 && (x & 0x7fffffffu) > 0x7f800000u) x = 0x7fffffffu;
    } else if constexpr (sizeof(E) == 8) {
        if (nan_bytes == 8 && (x & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
            x = 0x7fffffffffffffffull;
    }
    dst[i] = x;
}

template <class S> void map_as(CUdeviceptr keys, CUdeviceptr mapped, int n, CUstream stream) {
    using U = std::conditional_t<sizeof(S) == 8, unsigned long long, unsigned>;
    map_kernel<S, U><<<blocks(n), kBlock, 0, rt(stream)>>>(dev<const S>(keys), dev<U>(mapped), n);
    check(cudaGetLastError(), "launch of the sort key mapping");
}

template <class E>
void gather_as(CUdeviceptr src, CUdeviceptr index, bool index64, CUdeviceptr dst, int n,
               int nan_bytes, CUstream stream) {
    if (index64)
        gather_kernel<E, unsigned long long><<<blocks(n), kBlock, 0, rt(stream)>>>(
            dev<const E>(src), dev<const unsigned long long>(index), dev<E>(dst), n, nan_bytes);
    else
        gather_kernel<E, unsigned><<<blocks(n), kBlock, 0, rt(stream)>>>(
            dev<const E>(src), dev<const unsigned>(index), dev<E>(dst), n, nan_bytes);
    check(cudaGetLastError(), "launch of the sort gather");
}

// --- CUB ------------------------------------------------------------------------------------

template <class K, class V>
size_t sort_typed(CUdeviceptr keys, CUdeviceptr alt_keys, CUdeviceptr values,
                  CUdeviceptr alt_values, int n, int end_bit, CUdeviceptr temp, size_t temp_size,
                  CUstream stream) {
    cub::DoubleBuffer<K> kb(dev<K>(keys), dev<K>(alt_keys));
    void *t = temp ? dev<void>(temp) : nullptr;
    if constexpr (std::is_void_v<V>) {
        check(cub::DeviceRadixSort::SortKeys(t, temp_size, kb, n, 0, end_bit, rt(stream)),
              "cub::DeviceRadixSort::SortKeys");
    } else {
        cub::DoubleBuffer<V> vb(dev<V>(values), dev<V>(alt_values));
        check(cub::DeviceRadixSort::SortPairs(t, temp_size, kb, vb, n, 0, end_bit, rt(stream)),
              "cub::DeviceRadixSort::SortPairs");
        if (temp && vb.Current() != dev<V>(values))
            check(cudaMemcpyAsync(dev<V>(values), vb.Current(), sizeof(V) * size_t(n),
                                  cudaMemcpyDeviceToDevice, rt(stream)),
                  "copy of sorted values");
    }
    if (temp && kb.Current() != dev<K>(keys))
        check(cudaMemcpyAsync(dev<K>(keys), kb.Current(), sizeof(K) * size_t(n),
                              cudaMemcpyDeviceToDevice, rt(stream)),
              "copy of sorted keys");
    return temp_size;
}

template <class K>
size_t sort_key(int value_bytes, CUdeviceptr keys, CUdeviceptr alt_keys, CUdeviceptr values,
                CUdeviceptr alt_values, int n, int end_bit, CUdeviceptr temp, size_t temp_size,
                CUstream stream) {
    switch (value_bytes) {
    case 0:
        return sort_typed<K, void>(keys, alt_keys, values, alt_values, n, end_bit, temp, temp_size,
                                   stream);
    case 4:
        return sort_typed<K, unsigned>(keys, alt_keys, values, alt_values, n, end_bit, temp,
                                       temp_size, stream);
    case 8:
        return sort_typed<K, unsigned long long>(keys, alt_keys, values, alt_values, n, end_bit,
                                                 temp, temp_size, stream);
    }
    throw InternalError("cub_sort: value size " + std::to_string(value_bytes));
}

size_t dispatch(Key key, int value_bytes, CUdeviceptr keys, CUdeviceptr alt_keys,
                CUdeviceptr values, CUdeviceptr alt_values, int n, int end_bit, CUdeviceptr temp,
                size_t temp_size, CUstream stream) {
    switch (key) {
    case Key::I32:
        return sort_key<int>(value_bytes, keys, alt_keys, values, alt_values, n, end_bit, temp,
                             temp_size, stream);
    case Key::U32:
        return sort_key<unsigned>(value_bytes, keys, alt_keys, values, alt_values, n, end_bit, temp,
                                  temp_size, stream);
    case Key::I64:
        return sort_key<long long>(value_bytes, keys, alt_keys, values, alt_values, n, end_bit,
                                   temp, temp_size, stream);
    case Key::U64:
        return sort_key<unsigned long long>(value_bytes, keys, alt_keys, values, alt_values, n,
                                            end_bit, temp, temp_size, stream);
    }
    throw InternalError("cub_sort: unknown key type");
}

} // namespace

size_t temp_bytes(Key key, int value_bytes, int n, int end_bit) {
    return dispatch(key, value_bytes, 0, 0, 0, 0, n, end_bit, 0, 0, nullptr);
}

void sort(Key key, int value_bytes, CUdeviceptr keys, CUdeviceptr alt_keys, CUdeviceptr values,
          CUdeviceptr alt_values, int n, int end_bit, CUdeviceptr temp, size_t temp_size,
          CUstream stream) {
    if (n <= 1) return;
    if (!temp) throw InternalError("cub_sort::sort without temporary storage");
    dispatch(key, value_bytes, keys, alt_keys, values, alt_values, n, end_bit, temp, temp_size,
             stream);
}

void map_keys(Source source, CUdeviceptr keys, CUdeviceptr mapped, int n, CUstream stream) {
    if (n <= 0) return;
    switch (source) {
    case Source::I8:
        return map_as<signed char>(keys, mapped, n, stream);
    case Source::U8:
        return map_as<unsigned char>(keys, mapped, n, stream);
    case Source::I16:
        return map_as<short>(keys, mapped, n, stream);
    case Source::U16:
        return map_as<unsigned short>(keys, mapped, n, stream);
    case Source::I32:
        return map_as<int>(keys, mapped, n, stream);
    case Source::U32:
        return map_as<unsigned>(keys, mapped, n, stream);
    case Source::I64:
        return map_as<long long>(keys, mapped, n, stream);
    case Source::U64:
        return map_as<unsigned long long>(keys, mapped, n, stream);
    case Source::F32:
        return map_as<float>(keys, mapped, n, stream);
    case Source::F64:
        return map_as<double>(keys, mapped, n, stream);
    }
}

void iota(CUdeviceptr index, bool index64, int n, CUstream stream) {
    if (n <= 0) return;
    if (index64)
        iota_kernel<unsigned long long>
            <<<blocks(n), kBlock, 0, rt(stream)>>>(dev<unsigned long long>(index), n);
    else
        iota_kernel<unsigned><<<blocks(n), kBlock, 0, rt(stream)>>>(dev<unsigned>(index), n);
    check(cudaGetLastError(), "launch of the sort index initialisation");
}

void gather(int elem_bytes, CUdeviceptr src, CUdeviceptr index, bool index64, CUdeviceptr dst,
            int n, int nan_canonical_bytes, CUstream stream) {
    if (n <= 0) return;
    switch (elem_bytes) {
    case 1:
        return gather_as<unsigned char>(src, index, index64, dst, n, 0, stream);
    case 2:
        return gather_as<unsigned short>(src, index, index64, dst, n, 0, stream);
    case 4:
        return gather_as<unsigned>(src, index, index64, dst, n, nan_canonical_bytes, stream);
    case 8:
        return gather_as<unsigned long long>(src, index, index64, dst, n, nan_canonical_bytes,
                                             stream);
    }
    throw InternalError("cub_sort: element size " + std::to_string(elem_bytes));
}

} // namespace smelt::cuda::cub_sort
