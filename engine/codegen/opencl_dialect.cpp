// The OpenCL C 1.2 dialect: the same emitter and prelude as C++, with OpenCL's spellings.
//
// Choices (see also docs/LANGUAGE.md):
// - bool is spelled uchar. OpenCL C's bool has an implementation-defined size and may be neither
//   a kernel argument nor an element of a buffer, while the host's bool (C++, NumPy) is one byte.
//   The emitter writes every conversion to bool as a comparison, so a uchar "bool" only ever
//   holds 0 or 1.
// - Math builtins are overloaded for float and double: no "f" suffix.
// - double needs `#pragma OPENCL EXTENSION cl_khr_fp64 : enable` (OpenCL 1.1 compilers, and
//   NVIDIA's, insist); it is emitted only when the program uses double, so a single-precision
//   program builds on devices without fp64.
// - Atomics: 32-bit integers use the core atomic_* builtins (OpenCL 1.1+), 64-bit integers
//   atom_* from cl_khr_int64_base_atomics, floats a compare-exchange loop on their bits. Where
//   the device lacks the 64-bit extension the 64-bit helpers are left out, so a kernel using
//   them fails to build with "smelt_atomic_..._i64" undeclared at the user's line.
#include "codegen/dialect.h"
#include "lower/builtins.h"

namespace smelt::codegen {

namespace {

const char *kOpenClFp64 = R"(#pragma OPENCL EXTENSION cl_khr_fp64 : enable
)";

const char *kOpenClHead =
    R"(/* OpenCL C 1.2. Unused helpers are expected (the prelude defines them all). */
#define SMELT_INLINE static inline
#define SMELT_GLOBAL __global
#define SMELT_LOCAL __local
/* One rounding per operation, as in CPython: no a*b + c fused into a mad or fma, unless the
   program is built with -cl-fast-relaxed-math (the fast_math option). */
#ifndef __FAST_RELAXED_MATH__
#pragma OPENCL FP_CONTRACT OFF
#endif
)";

// SMELT_CL_ATOM_<S>(op) names the builtin for a width; SMELT_CL_IF_<S> instantiates a helper
// family for both address spaces, or for none where the device lacks 64-bit atomics.
const char *kOpenClAtomics =
    R"(/* Atomics return the old value. 32-bit: core atomic_*; 64-bit: atom_* of
   cl_khr_int64_base_atomics; floats add through a compare-exchange loop on their bits. */
#define SMELT_CL_ATOM_i32(op) atomic_##op
#define SMELT_CL_ATOM_u32(op) atomic_##op
#define SMELT_CL_ATOM_f32(op) atomic_##op
#define SMELT_CL_ATOM_i64(op) atom_##op
#define SMELT_CL_ATOM_u64(op) atom_##op
#define SMELT_CL_ATOM_f64(op) atom_##op
#define SMELT_CL_INT_ATOMICS(T, UT, S, SPACE, SP) \
    SMELT_INLINE T smelt_atomic_add_##SP##S(SPACE T *p, T v) { return SMELT_CL_ATOM_##S(add)(p, v); } \
    SMELT_INLINE T smelt_atomic_inc_##SP##S(SPACE T *p) { return SMELT_CL_ATOM_##S(inc)(p); } \
    SMELT_INLINE T smelt_atomic_dec_##SP##S(SPACE T *p) { return SMELT_CL_ATOM_##S(dec)(p); }
#define SMELT_CL_FLOAT_ATOMICS(T, UT, S, SPACE, SP) \
    SMELT_INLINE T smelt_atomic_add_##SP##S(SPACE T *p, T v) { \
        volatile SPACE UT *bits = (volatile SPACE UT *)p; \
        UT old = *bits, seen; \
        do { \
            seen = old; \
            old = SMELT_CL_ATOM_##S(cmpxchg)(bits, seen, as_##UT(as_##T(seen) + v)); \
        } while (old != seen); \
        return as_##T(old); \
    } \
    SMELT_INLINE T smelt_atomic_inc_##SP##S(SPACE T *p) { return smelt_atomic_add_##SP##S(p, (T)1); } \
    SMELT_INLINE T smelt_atomic_dec_##SP##S(SPACE T *p) { return smelt_atomic_add_##SP##S(p, (T)-1); }
#define SMELT_CL_BOTH_SPACES(M, T, UT, S) M(T, UT, S, __global, ) M(T, UT, S, __local, local_)
#define SMELT_CL_NO_SPACE(M, T, UT, S)
#define SMELT_CL_IF_i32 SMELT_CL_BOTH_SPACES
#define SMELT_CL_IF_u32 SMELT_CL_BOTH_SPACES
#define SMELT_CL_IF_f32 SMELT_CL_BOTH_SPACES
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define SMELT_CL_IF_i64 SMELT_CL_BOTH_SPACES
#define SMELT_CL_IF_u64 SMELT_CL_BOTH_SPACES
#define SMELT_CL_IF_f64 SMELT_CL_BOTH_SPACES
#else
#define SMELT_CL_IF_i64 SMELT_CL_NO_SPACE
#define SMELT_CL_IF_u64 SMELT_CL_NO_SPACE
#define SMELT_CL_IF_f64 SMELT_CL_NO_SPACE
#endif
#define SMELT_ATOMIC_INT_OPS(T, UT, S) SMELT_CL_IF_##S(SMELT_CL_INT_ATOMICS, T, UT, S)
#define SMELT_ATOMIC_FLOAT_OPS(T, UT, S) SMELT_CL_IF_##S(SMELT_CL_FLOAT_ATOMICS, T, UT, S)
)";

Dialect make_opencl() {
    Dialect d;
    d.name = "opencl";
    d.scalar_types = {"uchar", "char", "uchar", "short", "ushort", "int",
                      "uint",  "long", "ulong", "float", "double"};
    // long is 64 bits in OpenCL C on every device.
    d.int_literal_suffix = {"", "", "", "", "", "", "u", "L", "UL", "", ""};
    d.float_literal_suffix = "f"; // an unsuffixed literal is a double in OpenCL C
    d.function_qualifier = "SMELT_INLINE";
    d.entry_qualifier = "__kernel";
    d.global_pointer_space = "__global";
    d.local_pointer_space = "__local";
    d.local_array_space = "__local";
    d.array_zero_init = " = {0}";
    d.maybe_unused = "__attribute__((unused))";
    d.f32_math_suffix = "";
    for (const lower::Builtin &b : lower::builtin_table())
        if (b.emit == lower::Emit::Dialect && b.opencl) d.gpu_builtins[b.name] = b.opencl;
    d.group_barrier = "barrier(CLK_LOCAL_MEM_FENCE)";
    d.f64_enable = kOpenClFp64;
    // NVIDIA's OpenCL compiles through ptxas, with CUDA's min/max bug; its builds define
    // SMELT_NVIDIA_PTX (backends/opencl/opencl_backend.cpp), and NVIDIA's OpenCL C takes
    // inline PTX.
    d.prelude_head =
        std::string(kOpenClHead) + "#ifdef SMELT_NVIDIA_PTX" + nvidia_int_minmax() + "#endif\n";
    d.prelude_atomics = kOpenClAtomics;
    return d;
}

} // namespace

const Dialect &opencl_dialect() {
    static const Dialect d = make_opencl();
    return d;
}

} // namespace smelt::codegen
