#include "codegen/dialect.h"

#include "support/backend_table.h"
#include "support/error.h"

namespace smelt::codegen {

const char *scalar_suffix(Scalar s) {
    static const char *const names[kScalarCount] = {"b",   "i8",  "u8",  "i16", "u16", "i32",
                                                    "u32", "i64", "u64", "f32", "f64"};
    return names[static_cast<size_t>(s)];
}

std::string Dialect::math_function(const std::string &fn, Scalar s) const {
    return s == Scalar::F32 ? fn + f32_math_suffix : fn;
}

namespace {

const char *kCppHead = R"(#include <math.h>
#include <stdint.h>

/* Internal linkage, so two generated libraries in one process never share a symbol; unused
   helpers are expected (the prelude defines them all). */
#define SMELT_INLINE static inline __attribute__((unused))
#define SMELT_GLOBAL
)";

// The host has no address spaces; GCC's and Clang's __atomic builtins work on any
// naturally aligned 4- or 8-byte object (signed integer overflow in them wraps).
const char *kCppAtomics =
    R"(/* Atomics return the old value. Floats add through a compare-and-swap loop. */
#define SMELT_ATOMIC_INT_OPS(T, UT, S) \
    SMELT_INLINE T smelt_atomic_add_##S(T *p, T v) { \
        return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); \
    } \
    SMELT_INLINE T smelt_atomic_inc_##S(T *p) { return __atomic_fetch_add(p, (T)1, __ATOMIC_SEQ_CST); } \
    SMELT_INLINE T smelt_atomic_dec_##S(T *p) { return __atomic_fetch_sub(p, (T)1, __ATOMIC_SEQ_CST); }
#define SMELT_ATOMIC_FLOAT_OPS(T, UT, S) \
    SMELT_INLINE T smelt_atomic_add_##S(T *p, T v) { \
        T old, want; \
        __atomic_load(p, &old, __ATOMIC_RELAXED); \
        do { \
            want = old + v; \
        } while (!__atomic_compare_exchange(p, &old, &want, true, __ATOMIC_SEQ_CST, \
                                            __ATOMIC_RELAXED)); \
        return old; \
    } \
    SMELT_INLINE T smelt_atomic_inc_##S(T *p) { return smelt_atomic_add_##S(p, (T)1); } \
    SMELT_INLINE T smelt_atomic_dec_##S(T *p) { return smelt_atomic_add_##S(p, (T)-1); }
)";

Dialect make_cpp() {
    Dialect d;
    d.name = "cpp";
    d.scalar_types = {"bool",     "int8_t",  "uint8_t",  "int16_t", "uint16_t", "int32_t",
                      "uint32_t", "int64_t", "uint64_t", "float",   "double"};
    d.int_literal_suffix = {"", "", "", "", "", "", "u", "LL", "ULL", "", ""};
    d.function_qualifier = "SMELT_INLINE";
    d.entry_qualifier = "extern \"C\"";
    d.array_zero_init = " = {}";
    d.maybe_unused = "[[maybe_unused]]";
    d.prelude_head = kCppHead;
    d.prelude_atomics = kCppAtomics;
    return d;
}

} // namespace

const Dialect &cpp_dialect() {
    static const Dialect d = make_cpp();
    return d;
}

const Dialect &dialect_for_backend(const std::string &backend) {
    if (const BackendRow *row = find_backend_row(backend)) return row->dialect();
    throw UsageError("no code generator for backend '" + backend + "' yet");
}

} // namespace smelt::codegen
