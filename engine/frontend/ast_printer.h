// AST → normalised text, for golden files, tests and SMELT_DEBUG dumps.
#pragma once

#include "frontend/ast.h"

#include <string>

namespace smelt::frontend {

// Stable text of the AST: one node per line, two spaces of indentation per depth, each line
// ending in "@LINE:COL" (the node's location; "@-" for the few items that have none, i.e.
// imports). A child's role is written before its kind where it is not obvious ("target",
// "value", "cond", "else", ...). Locations are those the parser gives: the first token of a
// node, except Binary, BoolOp and Compare, which are located at their (first) operator.
// Errors stored in a function are printed last in it as `error "message" @LINE:COL`.
std::string print_ast(const ast::Module &m);

// The same format for one expression or statement at depth 0 (tests, debugging).
std::string print_expr(const ast::Expr &e);
std::string print_stmt(const ast::Stmt &s);

} // namespace smelt::frontend
