// Bottom-up rebuilding of IR for passes. Every rebuilt node goes through its make()
// constructor, so a pass cannot produce a node that breaks an invariant without noticing.
// Unchanged subtrees are shared, not copied.
#pragma once

#include "ir/ir.h"

#include <functional>
#include <memory>

namespace smelt::ir {

// Called on each node after its operands were rewritten; returns the node to use instead.
using ExprRewrite = std::function<ExprPtr(const ExprPtr &)>;
// Called on each statement after its parts were rewritten; appends what replaces it to `out`
// (nothing to delete it, several statements to splice).
using StmtRewrite = std::function<void(const StmtPtr &, Block &out)>;

// The same node with new operands (args for expressions), rebuilt through make().
ExprPtr with_args(const Expr &e, std::vector<ExprPtr> args);

ExprPtr rewrite_expr(const ExprPtr &e, const ExprRewrite &post);
Block rewrite_block(const Block &b, const ExprRewrite &post, const StmtRewrite &stmt_post = {});

// A new module whose functions are copies of m's with rewritten bodies; variables are shared.
std::shared_ptr<Module> rewrite_module(const Module &m, const ExprRewrite &post,
                                       const StmtRewrite &stmt_post = {});

} // namespace smelt::ir
