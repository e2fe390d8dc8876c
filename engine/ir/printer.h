// IR → stable, readable text with types shown, for golden files and SMELT_DEBUG dumps.
// The text reads like the kernel language: `(a + b):double`, `x[i]`, `for c in range(...)`.
#pragma once

#include "ir/ir.h"

#include <string>

namespace smelt::ir {

std::string print(const Module &m);
std::string print_function(const Function &f);
std::string print_stmt(const Stmt &s, int indent = 0);
std::string print_expr(const Expr &e);

// Python spelling of an operator ("+", "//", "and", "min", ...).
const char *binary_op_symbol(BinaryOp op);
const char *unary_op_symbol(UnaryOp op);
const char *atomic_op_name(AtomicOp op); // "atomic_inc", "atomic_dec", "atomic_add"

// Shortest decimal text that reads back as the same value of `s` (f32 or f64); "inf", "nan".
std::string float_text(double v, Scalar s);

} // namespace smelt::ir
