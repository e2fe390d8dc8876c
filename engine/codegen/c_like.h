// The C-family code generator: typed IR → readable C / C++ / OpenCL C / CUDA source for a
// Dialect. It spells out the IR's meaning (Python's // and %, wrapping integers, min/max) via
// the prelude; it never decides semantics.
//
// A primitive assembles one translation unit as
//     prelude(d) + emit_module(m, d) + line_mapping_reset(...) + its own wrapper,
// where the wrapper calls module functions through call_function() and spells types with
// type_name()/declaration(). Wrapper identifiers should start with smelt_ (reserved for
// the engine, so no user name can clash with them).
#pragma once

#include "codegen/dialect.h"
#include "ir/ir.h"

#include <set>
#include <string>
#include <vector>

namespace smelt::codegen {

// Every function of m, callees first, as source text. Each function is preceded by a #line
// directive to its def in m.source (and statements by more, where the line changes), so
// compiler messages point into the user's .py file. Functions named in `entry_points` are
// qualified with d.entry_qualifier (OpenCL's __kernel) instead of d.function_qualifier: a
// low-level kernel whose body is the user's function (local memory must be declared in the
// __kernel itself on OpenCL).
std::string emit_module(const ir::Module &m, const Dialect &d,
                        const std::set<std::string> &entry_points = {});

// True when any type in m (parameters, locals, results, every expression) is, or points at, s:
// uses_scalar(m, Scalar::F64) decides whether the fp64 parts of a prelude are needed.
bool uses_scalar(const ir::Module &m, Scalar s);

// "double", "int32_t", "double *", "__global double *" (matrices: their element type).
std::string type_name(const Dialect &d, const Type &t);
// A declaration of `name`: "double *x", "int32_t m[2][3]", "__local double buf[128]".
std::string declaration(const Dialect &d, const Type &t, const std::string &name);

// A function parameter: as declaration(), except that a matrix parameter (a caller's local array,
// passed by address) names the address space of a pointer, not of a variable: "double m[2]"
// (private memory in OpenCL C), "__local double m[64]" (OpenCL), "double m[64]" (CUDA, whose
// __shared__ is no parameter qualifier).
std::string parameter_declaration(const Dialect &d, const Type &t, const std::string &name);

// Literals of the exact type: "5", "5u", "(-3LL)", "((int8_t)-3)", "0.1", "0.1f",
// "SMELT_INF_F64". Float literals read back as the same value.
std::string int_literal(const Dialect &d, Scalar s, int64_t v);
std::string float_literal(const Dialect &d, Scalar s, double v);

// The C name emit_module() gives module function `name` (equal to it unless it clashes).
std::string function_symbol(const ir::Module &m, const std::string &name);
// "f(a, b)": a call of module function `name` with already spelled arguments.
std::string call_function(const ir::Module &m, const std::string &name,
                          const std::vector<std::string> &args);

// A #line directive that hands line numbering back to the translation unit itself after
// emit_module()'s #line directives: `text_so_far` is everything before it, `tu_name` the name
// the generated file is compiled (or kept) under.
std::string line_mapping_reset(const std::string &text_so_far, const std::string &tu_name);

} // namespace smelt::codegen
