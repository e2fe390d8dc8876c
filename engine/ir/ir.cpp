// The make() constructors: fill a node, then check it with the same rules verify() uses.
#include "ir/ir.h"

#include "ir/verify.h"
#include "support/error.h"

namespace smelt::ir {

namespace {

std::shared_ptr<Expr> new_expr(ExprKind k, Type t, SourceLoc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->type = std::move(t);
    e->loc = loc;
    return e;
}

ExprPtr checked(std::shared_ptr<Expr> e) {
    check_expr_node(*e);
    return e;
}

std::shared_ptr<Stmt> new_stmt(StmtKind k, SourceLoc loc) {
    auto s = std::make_shared<Stmt>();
    s->kind = k;
    s->loc = loc;
    return s;
}

StmtPtr checked(std::shared_ptr<Stmt> s) {
    check_stmt_node(*s);
    return s;
}

// Element type of a pointer or matrix variable (void type if it is neither).
Type element_type(const VarPtr &v) {
    if (v && (v->type.is_pointer() || v->type.is_matrix())) return Type::scalar(v->type.elem);
    return Type::void_();
}

bool is_comparison(BinaryOp op) {
    return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
           op == BinaryOp::Gt || op == BinaryOp::Ge;
}

} // namespace

ExprPtr Expr::int_const(Type t, int64_t v, SourceLoc loc) {
    auto e = new_expr(ExprKind::Const, std::move(t), loc);
    e->int_value = v;
    return checked(e);
}

ExprPtr Expr::float_const(Type t, double v, SourceLoc loc) {
    auto e = new_expr(ExprKind::Const, std::move(t), loc);
    // A float constant holds a float value: round once here so folding, printing and
    // emission all see the value the kernel computes with.
    e->float_value = e->type.is_scalar() && e->type.elem == Scalar::F32
                         ? static_cast<double>(static_cast<float>(v))
                         : v;
    return checked(e);
}

ExprPtr Expr::bool_const(bool v, SourceLoc loc) {
    auto e = new_expr(ExprKind::Const, Type::scalar(Scalar::Bool), loc);
    e->int_value = v ? 1 : 0;
    return checked(e);
}

ExprPtr Expr::var_ref(VarPtr v, SourceLoc loc) {
    SMELT_INTERNAL_ASSERT(v, "var_ref of a null variable");
    auto e = new_expr(ExprKind::VarRef, v->type, loc);
    e->var = std::move(v);
    return checked(e);
}

ExprPtr Expr::cast(Type t, ExprPtr x, SourceLoc loc) {
    auto e = new_expr(ExprKind::Cast, std::move(t), loc);
    e->args = {std::move(x)};
    return checked(e);
}

ExprPtr Expr::unary(UnaryOp op, ExprPtr x, SourceLoc loc) {
    SMELT_INTERNAL_ASSERT(x, "unary of a null operand");
    Type t = op == UnaryOp::Not ? Type::scalar(Scalar::Bool) : x->type;
    auto e = new_expr(ExprKind::Unary, t, loc);
    e->unary_op = op;
    e->args = {std::move(x)};
    return checked(e);
}

ExprPtr Expr::binary(BinaryOp op, ExprPtr a, ExprPtr b, SourceLoc loc) {
    SMELT_INTERNAL_ASSERT(a && b, "binary with a null operand");
    bool to_bool = is_comparison(op) || op == BinaryOp::And || op == BinaryOp::Or;
    Type t = to_bool ? Type::scalar(Scalar::Bool) : a->type;
    auto e = new_expr(ExprKind::Binary, t, loc);
    e->binary_op = op;
    e->args = {std::move(a), std::move(b)};
    return checked(e);
}

ExprPtr Expr::select(ExprPtr c, ExprPtr a, ExprPtr b, SourceLoc loc) {
    SMELT_INTERNAL_ASSERT(c && a && b, "select with a null operand");
    auto e = new_expr(ExprKind::Select, a->type, loc);
    e->args = {std::move(c), std::move(a), std::move(b)};
    return checked(e);
}

ExprPtr Expr::load(VarPtr base, std::vector<ExprPtr> indices, SourceLoc loc) {
    auto e = new_expr(ExprKind::Load, element_type(base), loc);
    e->var = std::move(base);
    e->args = std::move(indices);
    return checked(e);
}

ExprPtr Expr::call(std::string callee, bool is_builtin, Type result, std::vector<ExprPtr> args,
                   SourceLoc loc) {
    auto e = new_expr(ExprKind::Call, std::move(result), loc);
    e->callee = std::move(callee);
    e->is_builtin = is_builtin;
    e->args = std::move(args);
    return checked(e);
}

ExprPtr Expr::external_call(std::string c_name, Type result, std::vector<ExprPtr> args,
                            SourceLoc loc) {
    auto e = new_expr(ExprKind::Call, std::move(result), loc);
    e->callee = std::move(c_name);
    e->is_external = true;
    e->args = std::move(args);
    return checked(e);
}

ExprPtr Expr::atomic(AtomicOp op, VarPtr base, ExprPtr index, ExprPtr value, SourceLoc loc) {
    auto e = new_expr(ExprKind::Atomic, element_type(base), loc);
    e->atomic_op = op;
    e->var = std::move(base);
    e->args = {std::move(index)};
    if (value) e->args.push_back(std::move(value));
    return checked(e);
}

StmtPtr Stmt::assign(VarPtr v, ExprPtr value, SourceLoc loc) {
    auto s = new_stmt(StmtKind::Assign, loc);
    s->var = std::move(v);
    s->value = std::move(value);
    return checked(s);
}

StmtPtr Stmt::store(VarPtr base, std::vector<ExprPtr> indices, ExprPtr value, SourceLoc loc) {
    auto s = new_stmt(StmtKind::Store, loc);
    s->var = std::move(base);
    s->indices = std::move(indices);
    s->value = std::move(value);
    return checked(s);
}

StmtPtr Stmt::if_(ExprPtr cond, Block body, Block orelse, SourceLoc loc) {
    auto s = new_stmt(StmtKind::If, loc);
    s->cond = std::move(cond);
    s->body = std::move(body);
    s->orelse = std::move(orelse);
    return checked(s);
}

StmtPtr Stmt::while_(ExprPtr cond, Block body, SourceLoc loc) {
    auto s = new_stmt(StmtKind::While, loc);
    s->cond = std::move(cond);
    s->body = std::move(body);
    return checked(s);
}

StmtPtr Stmt::for_(VarPtr counter, ExprPtr start, ExprPtr stop, ExprPtr step, Block body,
                   SourceLoc loc, std::vector<std::string> labels) {
    auto s = new_stmt(StmtKind::For, loc);
    s->var = std::move(counter);
    s->start = std::move(start);
    s->stop = std::move(stop);
    s->step = std::move(step);
    s->body = std::move(body);
    s->labels = std::move(labels);
    return checked(s);
}

StmtPtr Stmt::break_(SourceLoc loc) {
    return checked(new_stmt(StmtKind::Break, loc));
}

StmtPtr Stmt::continue_(SourceLoc loc) {
    return checked(new_stmt(StmtKind::Continue, loc));
}

StmtPtr Stmt::return_(ExprPtr value, SourceLoc loc) {
    auto s = new_stmt(StmtKind::Return, loc);
    s->value = std::move(value);
    return checked(s);
}

StmtPtr Stmt::eval(ExprPtr value, SourceLoc loc) {
    auto s = new_stmt(StmtKind::Eval, loc);
    s->value = std::move(value);
    return checked(s);
}

const Function *Module::find(const std::string &name) const {
    for (const auto &f : functions)
        if (f && f->name == name) return f.get();
    return nullptr;
}

} // namespace smelt::ir
