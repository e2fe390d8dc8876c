#include "ir/rewrite.h"

#include "support/error.h"

namespace smelt::ir {

ExprPtr with_args(const Expr &e, std::vector<ExprPtr> args) {
    switch (e.kind) {
    case ExprKind::Const:
    case ExprKind::VarRef:
        SMELT_INTERNAL_ASSERT(args.empty(), "leaf expression given operands");
        return e.kind == ExprKind::VarRef ? Expr::var_ref(e.var, e.loc)
               : e.type.is_float()        ? Expr::float_const(e.type, e.float_value, e.loc)
                                          : Expr::int_const(e.type, e.int_value, e.loc);
    case ExprKind::Cast:
        return Expr::cast(e.type, args.at(0), e.loc);
    case ExprKind::Unary:
        return Expr::unary(e.unary_op, args.at(0), e.loc);
    case ExprKind::Binary:
        return Expr::binary(e.binary_op, args.at(0), args.at(1), e.loc);
    case ExprKind::Select:
        return Expr::select(args.at(0), args.at(1), args.at(2), e.loc);
    case ExprKind::Load:
        return Expr::load(e.var, std::move(args), e.loc);
    case ExprKind::Call:
        if (e.is_external) return Expr::external_call(e.callee, e.type, std::move(args), e.loc);
        return Expr::call(e.callee, e.is_builtin, e.type, std::move(args), e.loc);
    case ExprKind::Atomic:
        return Expr::atomic(e.atomic_op, e.var, args.at(0), args.size() > 1 ? args[1] : nullptr,
                            e.loc);
    }
    SMELT_INTERNAL_ASSERT(false, "unknown expression kind");
}

ExprPtr rewrite_expr(const ExprPtr &e, const ExprRewrite &post) {
    if (!e) return e;
    std::vector<ExprPtr> args;
    args.reserve(e->args.size());
    bool changed = false;
    for (const auto &a : e->args) {
        args.push_back(rewrite_expr(a, post));
        changed |= args.back() != a;
    }
    ExprPtr node = changed ? with_args(*e, std::move(args)) : e;
    return post(node);
}

namespace {

std::vector<ExprPtr> rewrite_all(const std::vector<ExprPtr> &v, const ExprRewrite &post,
                                 bool &changed) {
    std::vector<ExprPtr> out;
    out.reserve(v.size());
    for (const auto &x : v) {
        out.push_back(rewrite_expr(x, post));
        changed |= out.back() != x;
    }
    return out;
}

StmtPtr rewrite_stmt(const StmtPtr &s, const ExprRewrite &post, const StmtRewrite &stmt_post) {
    bool changed = false;
    auto ex = [&](const ExprPtr &x) {
        ExprPtr y = rewrite_expr(x, post);
        changed |= y != x;
        return y;
    };
    auto blk = [&](const Block &b) {
        Block y = rewrite_block(b, post, stmt_post);
        changed |= y != b;
        return y;
    };
    switch (s->kind) {
    case StmtKind::Assign: {
        ExprPtr v = ex(s->value);
        return changed ? Stmt::assign(s->var, v, s->loc) : s;
    }
    case StmtKind::Store: {
        auto idx = rewrite_all(s->indices, post, changed);
        ExprPtr v = ex(s->value);
        return changed ? Stmt::store(s->var, std::move(idx), v, s->loc) : s;
    }
    case StmtKind::If: {
        ExprPtr c = ex(s->cond);
        Block body = blk(s->body);
        Block orelse = blk(s->orelse);
        return changed ? Stmt::if_(c, std::move(body), std::move(orelse), s->loc) : s;
    }
    case StmtKind::While: {
        ExprPtr c = ex(s->cond);
        Block body = blk(s->body);
        return changed ? Stmt::while_(c, std::move(body), s->loc) : s;
    }
    case StmtKind::For: {
        ExprPtr a = ex(s->start), b = ex(s->stop), c = ex(s->step);
        Block body = blk(s->body);
        return changed ? Stmt::for_(s->var, a, b, c, std::move(body), s->loc, s->labels) : s;
    }
    case StmtKind::Return: {
        ExprPtr v = ex(s->value);
        return changed ? Stmt::return_(v, s->loc) : s;
    }
    case StmtKind::Eval: {
        ExprPtr v = ex(s->value);
        return changed ? Stmt::eval(v, s->loc) : s;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
        return s;
    }
    return s;
}

} // namespace

Block rewrite_block(const Block &b, const ExprRewrite &post, const StmtRewrite &stmt_post) {
    Block out;
    out.reserve(b.size());
    for (const auto &s : b) {
        StmtPtr r = rewrite_stmt(s, post, stmt_post);
        if (stmt_post) {
            stmt_post(r, out);
        } else {
            out.push_back(r);
        }
    }
    return out;
}

std::shared_ptr<Module> rewrite_module(const Module &m, const ExprRewrite &post,
                                       const StmtRewrite &stmt_post) {
    auto out = std::make_shared<Module>();
    out->source = m.source;
    out->other_files = m.other_files;
    out->externals = m.externals;
    for (const auto &f : m.functions) {
        auto g = std::make_shared<Function>(*f);
        g->body = rewrite_block(f->body, post, stmt_post);
        out->functions.push_back(std::move(g));
    }
    return out;
}

} // namespace smelt::ir
