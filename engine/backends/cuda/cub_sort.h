// CUB's DeviceRadixSort and the small kernels around it, compiled ahead of time by nvcc
// (cub_sort.cu) — the one part of the CUDA backend that uses the CUDA runtime library. All
// work goes to the given stream (the backend's), in order, and never synchronises, so it can
// be recorded into a CUDA graph. Pointers are device addresses; n is at most INT32_MAX.
//
// Only the key types CUB gets directly are instantiated (32- and 64-bit integers, with no
// value, a 4-byte or an 8-byte value), to keep nvcc's compile time modest; other key dtypes are
// first mapped to order-preserving unsigned integers (map_keys) and sorted as an argsort.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

namespace smelt::cuda::cub_sort {

enum class Key : uint8_t { I32, U32, I64, U64 };

// Bytes of CUB temporary storage for sort() with these types and bits.
size_t temp_bytes(Key key, int value_bytes, int n, int end_bit);

// Stable ascending sort of keys[0, n) on bits [0, end_bit), values (value_bytes 0, 4 or 8)
// moved along. alt_keys / alt_values are buffers of the same sizes used for ping-ponging; the
// results always end in keys / values. `temp` holds temp_bytes() bytes.
void sort(Key key, int value_bytes, CUdeviceptr keys, CUdeviceptr alt_keys, CUdeviceptr values,
          CUdeviceptr alt_values, int n, int end_bit, CUdeviceptr temp, size_t temp_size,
          CUstream stream);

// The dtypes map_keys() reads.
enum class Source : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

// mapped[i] = an unsigned key with the same order (uint32 for sources of up to 4 bytes, uint64
// for 8-byte ones): signed integers flip the sign bit, floats map -0.0 like +0.0 and every NaN
// to the largest key, as primitives/radix_keys.h does on the CPU.
void map_keys(Source source, CUdeviceptr keys, CUdeviceptr mapped, int n, CUstream stream);

// index[i] = i, as uint32 or uint64.
void iota(CUdeviceptr index, bool index64, int n, CUstream stream);

// dst[j] = src[index[j]] for elements of elem_bytes (1, 2, 4, 8) and uint32/uint64 indices.
// nan_canonical_bytes 4 / 8: a float / double NaN is written as the canonical quiet NaN the CPU
// sort produces (0x7fffffff / 0x7fffffffffffffff); 0: copied as is.
void gather(int elem_bytes, CUdeviceptr src, CUdeviceptr index, bool index64, CUdeviceptr dst,
            int n, int nan_canonical_bytes, CUstream stream);

} // namespace smelt::cuda::cub_sort
