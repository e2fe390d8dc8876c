// The table of builtins (see builtins.h for what reads it and how to add a row).
#include "lower/builtins.h"

#include <cmath>
#include <unordered_map>

namespace smelt::lower {

namespace {

using K = BuiltinKind;
using T = Typing;
using E = Emit;
constexpr CPython kPython = CPython::Python;

// A <math.h> function of one float, or of two. Its C function and that one's f32 form are
// reserved (builtin_reserved_c_names); a Python name C spells otherwise (gamma) is not.
Builtin unary(const char *name, const char *doc, const char *c_name = nullptr) {
    return {.name = name,
            .kind = K::Math,
            .params = "x",
            .min_args = 1,
            .max_args = 1,
            .typing = T::FloatOfOperand,
            .emit = E::Libm,
            .c_name = c_name,
            .c_reserved = c_name == nullptr,
            .doc = doc};
}
Builtin binary(const char *name, const char *params, const char *doc) {
    return {.name = name,
            .kind = K::Math,
            .params = params,
            .min_args = 2,
            .max_args = 2,
            .typing = T::FloatOfOperands,
            .emit = E::Libm,
            .c_reserved = true,
            .doc = doc};
}
// isnan, isinf, isfinite: macros of <math.h>, emitted as the prelude's IEEE comparisons.
Builtin classify(const char *name, const char *doc) {
    return {.name = name,
            .kind = K::Math,
            .params = "x",
            .min_args = 1,
            .max_args = 1,
            .typing = T::BoolOfFloat,
            .emit = E::Helper,
            .c_reserved = true,
            .doc = doc};
}
Builtin constant(const char *name, double value, bool c_macro, const char *doc) {
    return {.name = name,
            .kind = K::Constant,
            .typing = T::FloatValue,
            .emit = E::Lowered,
            .c_reserved = c_macro,
            .value = value,
            .doc = doc};
}
// A work-item index: OpenCL's function of the axis, CUDA's variable of the axis.
Builtin work_item(const char *name, const char *opencl, const char *cuda, const char *doc) {
    return {.name = name,
            .kind = K::Gpu,
            .typing = T::IntValue,
            .emit = E::Dialect,
            .opencl = opencl,
            .cuda = cuda,
            .doc = doc};
}

const std::vector<Builtin> kTable = {
    unary("sin", "sine"),
    unary("cos", "cosine"),
    unary("tan", "tangent"),
    unary("asin", "arc sine"),
    unary("acos", "arc cosine"),
    unary("atan", "arc tangent"),
    binary("atan2", "y, x", "arc tangent of y/x in the quadrant of (x, y)"),
    unary("sinh", "hyperbolic sine"),
    unary("cosh", "hyperbolic cosine"),
    unary("tanh", "hyperbolic tangent"),
    unary("asinh", "inverse hyperbolic sine"),
    unary("acosh", "inverse hyperbolic cosine"),
    unary("atanh", "inverse hyperbolic tangent"),
    unary("exp", "e to the x"),
    unary("expm1", "exp(x) - 1, exact near 0"),
    unary("log", "natural logarithm"),
    unary("log10", "base-10 logarithm"),
    unary("log2", "base-2 logarithm"),
    unary("log1p", "log(1 + x), exact near 0"),
    unary("sqrt", "square root"),
    unary("cbrt", "cube root"),
    binary("pow", "x, y", "x to the y (also `x ** y` on floats)"),
    binary("hypot", "x, y", "sqrt(x*x + y*y) without overflow"),
    unary("fabs", "absolute value"),
    unary("floor", "largest integer not above x, as a float (C's, not math.floor's int)"),
    unary("ceil", "smallest integer not below x, as a float"),
    unary("trunc", "x rounded toward zero, as a float"),
    binary("fmod", "x, y", "C's remainder of x/y, with the sign of x (not `%`'s)"),
    binary("copysign", "x, y", "x's magnitude with y's sign"),
    unary("erf", "error function"),
    unary("erfc", "complementary error function, 1 - erf(x)"),
    unary("gamma", "the gamma function Γ(x) (Python's math.gamma, C's tgamma)", "tgamma"),
    classify("isnan", "true if x is NaN (false for integers)"),
    classify("isinf", "true if x is an infinity (false for integers)"),
    classify("isfinite", "true if x is neither NaN nor an infinity (true for integers)"),

    constant("pi", M_PI, false, "π"),
    constant("e", M_E, false, "Euler's number"),
    constant("inf", INFINITY, false, "positive infinity"),
    constant("nan", NAN, false, "a quiet NaN"),
    constant("M_PI", M_PI, true, "π (C's name)"),
    constant("INFINITY", INFINITY, true, "positive infinity (C's name)"),
    constant("NAN", NAN, true, "a quiet NaN (C's name)"),

    {.name = "abs",
     .kind = K::Numeric,
     .params = "x",
     .min_args = 1,
     .max_args = 1,
     .typing = T::SameAsOperand,
     .emit = E::Helper,
     .c_name = "fabs",
     .cpython = kPython,
     .doc = "absolute value; the most negative integer wraps to itself"},
    {.name = "min",
     .kind = K::Numeric,
     .params = "a, b, ...",
     .min_args = 2,
     .max_args = -1,
     .typing = T::CommonOfOperands,
     .emit = E::Lowered,
     .cpython = kPython,
     .doc = "smallest argument, compared as Python does (NaN included)"},
    {.name = "max",
     .kind = K::Numeric,
     .params = "a, b, ...",
     .min_args = 2,
     .max_args = -1,
     .typing = T::CommonOfOperands,
     .emit = E::Lowered,
     .cpython = kPython,
     .doc = "largest argument, compared as Python does (NaN included)"},
    {.name = "int",
     .kind = K::Numeric,
     .params = "x",
     .min_args = 1,
     .max_args = 1,
     .typing = T::Int,
     .emit = E::Lowered,
     .c_reserved = true,
     .cpython = kPython,
     .doc = "conversion to int, toward zero; saturates where CPython raises"},
    {.name = "float",
     .kind = K::Numeric,
     .params = "x",
     .min_args = 1,
     .max_args = 1,
     .typing = T::DefaultFloat,
     .emit = E::Lowered,
     .c_reserved = true,
     .cpython = kPython,
     .doc = "conversion to the default float type"},
    {.name = "len",
     .kind = K::Numeric,
     .params = "m",
     .min_args = 1,
     .max_args = 1,
     .typing = T::FirstExtent,
     .emit = E::Lowered,
     .cpython = kPython,
     .doc = "a matrix's first extent"},

    {.name = "declare",
     .kind = K::Language,
     .params = "'type'[, n]",
     .min_args = 1,
     .max_args = 2,
     .typing = T::Declaration,
     .emit = E::Lowered,
     .doc = "zero of the named type (`x = declare('int')`, `m = declare('matrix(8)')`); n "
            "of them with n (`a, b = declare('double', 2)`)"},
    {.name = "cast",
     .kind = K::Language,
     .params = "x, 'type'",
     .min_args = 2,
     .max_args = 2,
     .typing = T::NamedType,
     .emit = E::Lowered,
     .doc = "conversion to a named scalar type, e.g. `cast(x, 'float')`"},

    // OpenCL C predefines atomic_inc/dec/add for 32-bit integers.
    {.name = "atomic_inc",
     .kind = K::Atomic,
     .params = "x[i]",
     .min_args = 1,
     .max_args = 1,
     .typing = T::ArrayElement,
     .emit = E::Lowered,
     .c_reserved = true,
     .doc = "adds 1 to an integer array element; returns the old value"},
    {.name = "atomic_dec",
     .kind = K::Atomic,
     .params = "x[i]",
     .min_args = 1,
     .max_args = 1,
     .typing = T::ArrayElement,
     .emit = E::Lowered,
     .c_reserved = true,
     .doc = "subtracts 1 from an integer array element; returns the old value"},
    {.name = "atomic_add",
     .kind = K::Atomic,
     .params = "x[i], v",
     .min_args = 2,
     .max_args = 2,
     .typing = T::ArrayElement,
     .emit = E::Lowered,
     .c_reserved = true,
     .doc = "adds v to an array element; returns the old value"},

    // As in Compyle and CUDA: LID is the index within the work-group, GID the work-group's index
    // (not the global index, which is GID_0 * LDIM_0 + LID_0).
    work_item("LID_0", "get_local_id(0)", "threadIdx.x", "work-item index in its group, axis 0"),
    work_item("LID_1", "get_local_id(1)", "threadIdx.y", "work-item index in its group, axis 1"),
    work_item("LID_2", "get_local_id(2)", "threadIdx.z", "work-item index in its group, axis 2"),
    work_item("GID_0", "get_group_id(0)", "blockIdx.x", "work-group index, axis 0"),
    work_item("GID_1", "get_group_id(1)", "blockIdx.y", "work-group index, axis 1"),
    work_item("GID_2", "get_group_id(2)", "blockIdx.z", "work-group index, axis 2"),
    work_item("LDIM_0", "get_local_size(0)", "blockDim.x", "work-group size, axis 0"),
    work_item("LDIM_1", "get_local_size(1)", "blockDim.y", "work-group size, axis 1"),
    work_item("LDIM_2", "get_local_size(2)", "blockDim.z", "work-group size, axis 2"),
    work_item("GDIM_0", "get_num_groups(0)", "gridDim.x", "number of work-groups, axis 0"),
    work_item("GDIM_1", "get_num_groups(1)", "gridDim.y", "number of work-groups, axis 1"),
    work_item("GDIM_2", "get_num_groups(2)", "gridDim.z", "number of work-groups, axis 2"),
    // Both fences on OpenCL: CUDA's __syncthreads() orders the group's global-memory accesses
    // too, and local_barrier() means the same on every backend (a loop function's work-group
    // reads what its item 0 stored to global memory before the barrier).
    {.name = "local_barrier",
     .kind = K::Gpu,
     .typing = T::Void,
     .emit = E::Dialect,
     .opencl = "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)",
     .cuda = "__syncthreads()",
     .doc = "waits for the whole work-group; orders its local- and global-memory accesses"},
};

const std::unordered_map<std::string, const Builtin *> &index() {
    static const std::unordered_map<std::string, const Builtin *> m = [] {
        std::unordered_map<std::string, const Builtin *> out;
        for (const Builtin &b : kTable)
            out[b.name] = &b;
        return out;
    }();
    return m;
}

const char *typing_text(Typing t) {
    switch (t) {
    case T::FloatOfOperand:
        return "x's float type (integers: the default float)";
    case T::FloatOfOperands:
        return "the operands' common type, made float";
    case T::BoolOfFloat:
        return "bool";
    case T::SameAsOperand:
        return "x's type (bool: int)";
    case T::CommonOfOperands:
        return "the operands' common type";
    case T::Int:
        return "int";
    case T::DefaultFloat:
        return "the default float";
    case T::NamedType:
        return "the named type";
    case T::Declaration:
        return "the declared type";
    case T::ArrayElement:
        return "the element type (32/64-bit)";
    case T::Void:
        return "nothing";
    case T::FirstExtent:
        return "int, known at compile time";
    case T::IntValue:
        return "int";
    case T::FloatValue:
        return "the default float";
    }
    return "?";
}

const char *kind_text(BuiltinKind k) {
    switch (k) {
    case K::Math:
        return "math";
    case K::Constant:
        return "constant";
    case K::Numeric:
        return "Python builtin";
    case K::Language:
        return "language";
    case K::Atomic:
        return "atomic (every backend)";
    case K::Gpu:
        return "low-level GPU kernels";
    }
    return "?";
}

// A table cell: a '|' would end it, also inside a code span.
std::string cell(const std::string &text) {
    std::string out;
    for (char c : text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

} // namespace

const std::vector<Builtin> &builtin_table() {
    return kTable;
}

const Builtin *find_builtin(const std::string &name) {
    auto it = index().find(name);
    return it == index().end() ? nullptr : it->second;
}

std::optional<double> builtin_float_constant(const std::string &name) {
    const Builtin *b = find_builtin(name);
    if (!b || b->typing != Typing::FloatValue) return std::nullopt;
    return b->value;
}

bool is_work_item_name(const std::string &name) {
    const Builtin *b = find_builtin(name);
    return b && b->typing == Typing::IntValue;
}

bool is_math_name(const std::string &name) {
    const Builtin *b = find_builtin(name);
    return b && (b->kind == BuiltinKind::Math || b->kind == BuiltinKind::Constant);
}

std::string libm_name(const Builtin &b) {
    return b.c_name ? b.c_name : b.name;
}

std::vector<std::string> builtin_reserved_c_names() {
    std::vector<std::string> out;
    for (const Builtin &b : kTable) {
        if (b.c_reserved) out.push_back(b.name);
        if (b.emit == Emit::Libm) {
            out.push_back(libm_name(b));
            out.push_back(libm_name(b) + "f");
        }
    }
    return out;
}

std::string builtin_table_markdown() {
    std::string out = "| Builtin | Kind | Result | Meaning |\n|---|---|---|---|\n";
    for (const Builtin &b : kTable) {
        std::string use = b.name;
        if (!b.is_name()) use += "(" + std::string(b.params) + ")";
        std::string doc = b.doc;
        if (b.emit == Emit::Dialect)
            doc += std::string("; OpenCL `") + (b.opencl ? b.opencl : "-") + "`, CUDA `" +
                   (b.cuda ? b.cuda : "-") + "`";
        out += "| `" + use + "` | " + kind_text(b.kind) + " | " + typing_text(b.typing) + " | " +
               cell(doc) + " |\n";
    }
    return out;
}

} // namespace smelt::lower
