// The combine operation and neutral element of a reduction or scan, written by the user as Python
// expressions ("a+b", "min(a, b)"; "0", "-inf") and compiled by the same frontend as kernels: each
// becomes a one-line function in its own synthetic file ("<reduce_expr>", "<neutral>"), so a
// mistake in it is a located CompileError.
#pragma once

#include "frontend/ast.h"
#include "ir/ir.h"
#include "pipeline.h"
#include "primitives/wrapper_spec.h"

#include <memory>
#include <string>

namespace smelt::primitives {

struct CombineModules {
    std::shared_ptr<ir::Module> combine; // one function (a, b) of the accumulator type
    std::shared_ptr<ir::Module> neutral; // one function () returning the neutral element
    CombineSymbols symbols;
};

// `expr_file` names the expression's synthetic file ("<reduce_expr>", "<scan_expr>"). `user` is
// the program the combine is compiled beside (may be null): the functions get names none of its
// functions can be emitted under. `acc` is the accumulator type (after the precision switch).
CombineModules compile_combine(const std::string &expr, const std::string &expr_file,
                               const std::string &neutral, Scalar acc, const ast::Module *user,
                               const CompileOptions &options);

} // namespace smelt::primitives
