// The kernel language's builtins as one table (builtins.cpp): every function and name a kernel
// may use without defining it, with its typing rule, its spelling in each C dialect, whether the
// dialects reserve its name, where its CPython meaning lives and a line of documentation.
//
// The table drives the typing of calls (lower_call.cpp), the names generated code may not use
// (codegen/names.cpp), the spelling of calls (codegen/emit_expr.cpp and the dialects' GPU
// spellings), the Builtins section of docs/LANGUAGE.md (`smelt builtins`, checked by
// the docs.builtins test) and the check that python/smelt/purepy.py gives every row a meaning
// (tests/python/test_builtin_table.py, through _smelt.builtins()).
//
// Adding a builtin: one row in builtins.cpp; its CPython meaning in purepy.py unless Python's
// own builtin of that name is it; a prelude helper only for Emit::Helper; a new Typing value
// (and its case in lower_call.cpp) only when no rule fits.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace smelt::lower {

// What a builtin is, for grouping and for the rules that hang on it.
enum class BuiltinKind {
    Math,     // sin, pow, isnan...: C's <math.h> functions, called bare (never math.sin)
    Constant, // pi, e, inf, nan, M_PI, INFINITY, NAN: names with a float value
    Numeric,  // abs, min, max, int, float, len: Python's builtins of those names
    Language, // declare, cast: constructs of the language a file cannot redefine
    Atomic,   // atomic_inc, atomic_dec, atomic_add: also constructs a file cannot redefine
    Gpu,      // LID_0.., GID_0.., LDIM_0.., GDIM_0.., local_barrier: low-level GPU kernels only
};

// How a use is typed (FunctionLowerer::builtin_call and, for names, FunctionLowerer::expr).
enum class Typing {
    FloatOfOperand,   // the operand's float type; integers and bools become the default float
    FloatOfOperands,  // both operands in their common type, made the default float if integer
    BoolOfFloat,      // bool; the operand is converted as for FloatOfOperand
    SameAsOperand,    // the operand's type (bool → int); a literal folds
    CommonOfOperands, // the common type of all operands; literals fold
    Int,              // int (32-bit); a float literal truncates at compile time
    DefaultFloat,     // the default float type (double, or float under the single switch)
    NamedType,        // the scalar type named by the string argument
    Declaration,      // only as the whole right-hand side of an assignment
    ArrayElement,     // the array's element type (old value); elements of 32 or 64 bits
    Void,             // nothing
    FirstExtent,      // a matrix's first extent, a compile-time int
    IntValue,         // a name of type int
    FloatValue,       // a name of the default float type, constant
};

// How generated code spells a call (codegen/emit_expr.cpp).
enum class Emit {
    Libm,    // the C math function `c_name` (or the name), f32 through the dialect's suffix rule
    Helper,  // the prelude's smelt_<name>_<type suffix>; floats: `c_name` as Libm, if given
    Dialect, // the row's text for the dialect (opencl, cuda); absent: not on that target
    Lowered, // never reaches codegen as a call: an operator, cast, atomic node or constant
};

// Where CPython finds the builtin's meaning when a kernel file runs as Python.
enum class CPython {
    Purepy, // python/smelt/purepy.py defines it (exported by `from smelt import *`)
    Python, // Python's own builtin of that name (abs, min, max, int, float, len)
};

struct Builtin {
    const char *name;
    BuiltinKind kind;
    const char *params = ""; // the argument list as documented; "" for names and f()
    int min_args = 0;
    int max_args = 0; // -1: any number; names (Constant, IntValue) have 0 and 0
    Typing typing;
    Emit emit;
    // Libm: the C function when it differs from `name`; Helper: the C function for float
    // operands (abs: fabs). Else nullptr.
    const char *c_name = nullptr;
    const char *opencl = nullptr; // Dialect: OpenCL C text; nullptr: not available on OpenCL
    const char *cuda = nullptr;   // Dialect: CUDA text; nullptr: not available on CUDA
    // Some C dialect predefines `name` (keyword, macro, library builtin): generated code renames
    // a variable of that name. Libm rows also reserve their C function and its f32 form.
    bool c_reserved = false;
    CPython cpython = CPython::Purepy;
    double value = 0; // Constant: its value
    const char *doc = "";

    bool is_name() const { return typing == Typing::IntValue || typing == Typing::FloatValue; }
};

const std::vector<Builtin> &builtin_table();

// The row of a name, or nullptr.
const Builtin *find_builtin(const std::string &name);

// Names that stand for values: pi, e, inf, nan, M_PI, INFINITY, NAN. Returns the value.
std::optional<double> builtin_float_constant(const std::string &name);

// LID_0..2, GID_0..2, LDIM_0..2, GDIM_0..2: work-item indices of low-level GPU kernels.
bool is_work_item_name(const std::string &name);

// True for math module names users might write dotted (math.sin): used for the hint.
bool is_math_name(const std::string &name);

// The C function a Libm row calls (its c_name, else its name).
std::string libm_name(const Builtin &b);

// Identifiers the table reserves in generated code (see Builtin::c_reserved).
std::vector<std::string> builtin_reserved_c_names();

// The Builtins section of docs/LANGUAGE.md: a markdown table, one line per row.
std::string builtin_table_markdown();

} // namespace smelt::lower
