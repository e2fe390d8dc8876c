// The IR's invariant checker. The make() constructors check each node as it is built; verify()
// re-checks a whole module (including what one node cannot see: declarations, loop nesting,
// return types, calls between functions) and is run after every pass.
#pragma once

#include "ir/ir.h"

namespace smelt::ir {

// Throws InternalError describing the first broken invariant of `m`.
void verify(const Module &m);

// The local invariants of one node (operand types, arity, kinds). Used by the make()
// constructors and by verify(); throws InternalError.
void check_expr_node(const Expr &e);
void check_stmt_node(const Stmt &s);

} // namespace smelt::ir
