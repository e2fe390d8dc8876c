// The builtin functions and names of the kernel language, and how each one types its result.
// To add a builtin: add a row to the table in builtins.cpp, a typing rule if none fits, and its
// spelling in codegen's prelude/dialect when it is not a plain C math function.
#pragma once

#include <optional>
#include <string>

namespace smelt::types {

enum class BuiltinKind {
    MathUnary,  // sin(x): float in, same float out (ints become the default float)
    MathBinary, // atan2(y, x), pow, hypot, fmod, copysign: both promoted to one float type
    Classify,   // isnan(x) → bool
    Abs,        // abs(x): same type as x
    MinMax,     // min(a, b, ...), max(...): promoted type
    IntConv,    // int(x): truncation to int
    FloatConv,  // float(x): the default float type
    Cast,       // cast(x, 'type')
    Declare,    // declare('type'[, n]): only as the right-hand side of an assignment
    Atomic,     // atomic_inc(x[i]), atomic_dec(x[i]), atomic_add(x[i], v)
    Barrier,    // local_barrier()
    Len,        // len(m): a matrix's first extent, a compile-time integer
};

struct BuiltinInfo {
    BuiltinKind kind;
    int min_args;
    int max_args; // -1: any number
};

std::optional<BuiltinInfo> find_builtin(const std::string &name);

// Names that stand for values: pi, e, inf, nan, M_PI, INFINITY, NAN. Returns the value.
std::optional<double> builtin_float_constant(const std::string &name);

// LID_0..2, GID_0..2, LDIM_0..2, GDIM_0..2: work-item indices of low-level GPU kernels.
bool is_work_item_name(const std::string &name);

// True for math module names users might write dotted (math.sin): used for the hint.
bool is_math_name(const std::string &name);

} // namespace smelt::types
