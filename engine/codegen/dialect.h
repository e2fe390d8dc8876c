// A C-family target for the one code generator (c_like.h). A dialect is data first: type and
// literal spellings, qualifiers, address-space words, math spellings, GPU builtin spellings and
// its pieces of the prelude. Virtual hooks exist only where text truly differs beyond a table.
//
// Adding OpenCL C or CUDA means filling one of these (plus, if needed, overriding a hook);
// never a second generator.
#pragma once

#include "ir/type.h"

#include <array>
#include <map>
#include <string>

namespace smelt::codegen {

constexpr size_t kScalarCount = 11; // entries of Scalar

struct Dialect {
    virtual ~Dialect() = default;

    std::string name; // "cpp", "opencl", "cuda"

    // --- types and literals ------------------------------------------------------------
    std::array<std::string, kScalarCount> scalar_types; // indexed by Scalar: "int32_t", "double"
    // Suffix that gives an integer literal its type: "" (i32), "u", "LL", "ULL". 8- and 16-bit
    // literals have no suffix in C and are spelled as casts instead.
    std::array<std::string, kScalarCount> int_literal_suffix;
    std::string float_literal_suffix = "f"; // f32 literals: 1.5f

    // --- qualifiers and address spaces ---------------------------------------------------
    std::string function_qualifier;   // before every generated function: "static inline"
    std::string entry_qualifier;      // for a primitive's entry point: extern "C", __kernel, ...
    std::string global_pointer_space; // word before a global pointer's element type, or ""
    std::string local_pointer_space;  // same for a local-memory pointer, or ""
    std::string local_array_space;    // before a LOCAL_MEM matrix: "__local", "__shared__"; ""
                                      // when the target has no local memory
    std::string array_zero_init;      // initialiser of private matrices: " = {}" or " = {0}"
    std::string maybe_unused;         // marks a local that is written but never read

    // --- math ----------------------------------------------------------------------------
    // The C math names are used (sin, pow, fabs...); f32 versions take this suffix (sinf) in
    // C/C++/CUDA and none where math builtins are overloaded (OpenCL C).
    std::string f32_math_suffix = "f";

    // --- integer semantics ----------------------------------------------------------------
    // Signed +, -, *, unary - and << overflow is undefined in C, C++, OpenCL C and CUDA; when
    // true, they are emitted through the prelude's wrapping smelt_add_i32()... helpers.
    // A dialect compiled with -fwrapv could set this to false.
    bool signed_overflow_is_undefined = true;

    // --- GPU builtins ---------------------------------------------------------------------
    // Kernel-language name → spelling: "LID_0" → "get_local_id(0)", filled from the builtin
    // table's column for the dialect (lower/builtins.cpp). Missing entries are not available
    // on the target.
    std::map<std::string, std::string> gpu_builtins;
    // A work-group barrier that orders local memory only, for the primitives' algorithms
    // (local_barrier above also orders global memory); "" where there are no work-groups.
    std::string group_barrier;

    // --- prelude pieces (see prelude.h) ---------------------------------------------------
    // Text that must precede any use of double, emitted only when the program uses it (OpenCL's
    // fp64 extension pragma); "" where double needs nothing.
    std::string f64_enable;
    std::string prelude_head; // includes, pragmas, SMELT_INLINE and SMELT_GLOBAL/SMELT_LOCAL
    // Defines SMELT_ATOMIC_INT_OPS(T, UT, S) and SMELT_ATOMIC_FLOAT_OPS(T, UT, S) (UT: the
    // unsigned type of T's width) giving smelt_atomic_{inc,dec,add}_S(SMELT_GLOBAL T *p[, v])
    // that return the old value, and ..._local_S variants where the target has local memory.
    std::string prelude_atomics;

    const std::string &type(Scalar s) const { return scalar_types[static_cast<size_t>(s)]; }

    // --- hooks ------------------------------------------------------------------------------
    // Spelling of math builtin `fn` ("sin", "pow", "fabs") for operands of type s.
    virtual std::string math_function(const std::string &fn, Scalar s) const;
};

// OpenMP C++ on the host (C++17, GCC or Clang): <stdint.h> types, libm, __atomic builtins.
const Dialect &cpp_dialect();

// OpenCL C 1.2 for any OpenCL 1.2+ device: uchar/int/long... types, __global/__local, overloaded
// math, the fp64 pragma only where double is used, atomic_* and atom_* (64-bit) builtins.
const Dialect &opencl_dialect();

// The dialect of a backend (its row of support/backend_table.h): "cpu"/"cpu:serial" → C++,
// "opencl" → OpenCL C, "cuda" → CUDA C++; UsageError for a backend the table does not have.
const Dialect &dialect_for_backend(const std::string &backend);

// CUDA C++ for NVRTC (codegen/cuda_dialect.cpp): the prelude defines the <stdint.h> names,
// __device__ functions, __shared__ local memory, threadIdx/blockIdx builtins, atomicAdd.
const Dialect &cuda_dialect();

// Integer min/max helpers as inline PTX, for code compiled by NVIDIA's ptxas (the CUDA prelude
// head, and the OpenCL one where SMELT_NVIDIA_PTX is defined): works around a ptxas bug
// (codegen/nvidia_minmax.cpp says which).
const char *nvidia_int_minmax();

// Prelude suffix of a scalar type: "i8", "u32", "f64"... ("b" for bool).
const char *scalar_suffix(Scalar s);

} // namespace smelt::codegen
