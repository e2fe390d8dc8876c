// The CUDA C++ dialect, compiled at run time by NVRTC (backends/cuda/). NVRTC sees no system
// headers, so the prelude head defines the fixed-width integer names and the float constants
// itself; the code needs nothing from the CUDA runtime library.
#include "codegen/dialect.h"
#include "lower/builtins.h"

namespace smelt::codegen {

namespace {

const char *kCudaHead =
    R"(/* CUDA C++ for NVRTC: no system headers, so <stdint.h>'s names and <math.h>'s constants are
   defined here (LP64: 64-bit integers are long long, as nvcc's device side has them). */
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif

/* Device functions with internal linkage; `inline` is a hint only, so recursive functions are
   allowed (they get a call stack). */
#define SMELT_INLINE static __device__ inline
#define SMELT_GLOBAL

)";

// atomicAdd has overloads for unsigned int, unsigned long long, float and double; signed
// integers go through the unsigned type of their width (two's complement: the same bits).
// Shared-memory pointers are generic pointers in CUDA, so the _local_ variants are the same
// instructions.
const char *kCudaAtomics =
    R"(/* Atomics return the old value (atomicAdd; no compare-and-swap loops needed). */
#define SMELT_ATOMIC_INT_OPS(T, UT, S) \
    SMELT_INLINE T smelt_atomic_add_##S(T *p, T v) { return (T)atomicAdd((UT *)p, (UT)v); } \
    SMELT_INLINE T smelt_atomic_inc_##S(T *p) { return (T)atomicAdd((UT *)p, (UT)1); } \
    SMELT_INLINE T smelt_atomic_dec_##S(T *p) { return (T)atomicAdd((UT *)p, (UT)0 - (UT)1); } \
    SMELT_INLINE T smelt_atomic_add_local_##S(T *p, T v) { return smelt_atomic_add_##S(p, v); } \
    SMELT_INLINE T smelt_atomic_inc_local_##S(T *p) { return smelt_atomic_inc_##S(p); } \
    SMELT_INLINE T smelt_atomic_dec_local_##S(T *p) { return smelt_atomic_dec_##S(p); }
#define SMELT_ATOMIC_FLOAT_OPS(T, UT, S) \
    SMELT_INLINE T smelt_atomic_add_##S(T *p, T v) { return atomicAdd(p, v); } \
    SMELT_INLINE T smelt_atomic_inc_##S(T *p) { return atomicAdd(p, (T)1); } \
    SMELT_INLINE T smelt_atomic_dec_##S(T *p) { return atomicAdd(p, (T)-1); } \
    SMELT_INLINE T smelt_atomic_add_local_##S(T *p, T v) { return atomicAdd(p, v); } \
    SMELT_INLINE T smelt_atomic_inc_local_##S(T *p) { return atomicAdd(p, (T)1); } \
    SMELT_INLINE T smelt_atomic_dec_local_##S(T *p) { return atomicAdd(p, (T)-1); }
)";

Dialect make_cuda() {
    Dialect d;
    d.name = "cuda";
    d.scalar_types = {"bool",     "int8_t",  "uint8_t",  "int16_t", "uint16_t", "int32_t",
                      "uint32_t", "int64_t", "uint64_t", "float",   "double"};
    d.int_literal_suffix = {"", "", "", "", "", "", "u", "LL", "ULL", "", ""};
    d.function_qualifier = "SMELT_INLINE";
    d.entry_qualifier = "extern \"C\" __global__";
    d.local_array_space = "__shared__";
    d.array_zero_init = " = {}";
    d.maybe_unused = "[[maybe_unused]]";
    for (const lower::Builtin &b : lower::builtin_table())
        if (b.emit == lower::Emit::Dialect && b.cuda) d.gpu_builtins[b.name] = b.cuda;
    d.group_barrier = "__syncthreads()";
    d.prelude_head = std::string(kCudaHead) + nvidia_int_minmax();
    d.prelude_atomics = kCudaAtomics;
    return d;
}

} // namespace

const Dialect &cuda_dialect() {
    static const Dialect d = make_cuda();
    return d;
}

} // namespace smelt::codegen
