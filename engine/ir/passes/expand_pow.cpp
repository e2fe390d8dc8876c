#include "ir/passes/expand_pow.h"

#include "ir/rewrite.h"

#include <cmath>
#include <optional>

namespace smelt::ir {

namespace {

constexpr int64_t kMaxExpanded = 8;

// The exponent as a small integer, when it is a literal with an integral value (possibly
// behind the cast the frontend puts on a weakly typed literal: x**2 with x double).
std::optional<int64_t> small_exponent(const Expr &e) {
    const Expr *c = &e;
    if (c->kind == ExprKind::Cast && c->args[0]->is_const()) c = c->args[0].get();
    if (!c->is_const() || c->type.is_bool()) return std::nullopt;
    double v = c->type.is_float() ? c->float_value : static_cast<double>(c->int_value);
    if (c->type.elem == Scalar::U64 && c->int_value < 0) return std::nullopt;
    if (!(v >= 0 && v <= kMaxExpanded) || v != std::floor(v)) return std::nullopt;
    return static_cast<int64_t>(v);
}

// Duplicating x is only allowed when evaluating it twice has no effect and gives the same value.
bool is_pure(const Expr &e) {
    if (e.kind == ExprKind::Call || e.kind == ExprKind::Atomic) return false;
    for (const auto &a : e.args)
        if (!is_pure(*a)) return false;
    return true;
}

ExprPtr power(const ExprPtr &x, int64_t k, SourceLoc loc) {
    if (k == 1) return x;
    if (k % 2) return Expr::binary(BinaryOp::Mul, power(x, k - 1, loc), x, loc);
    ExprPtr half = power(x, k / 2, loc);
    return Expr::binary(BinaryOp::Mul, half, half, loc);
}

ExprPtr expand(const ExprPtr &e) {
    if (e->kind != ExprKind::Binary || e->binary_op != BinaryOp::Pow) return e;
    auto k = small_exponent(*e->args[1]);
    if (!k || !is_pure(*e->args[0])) return e;
    if (*k == 0)
        return e->type.is_float() ? Expr::float_const(e->type, 1.0, e->loc)
                                  : Expr::int_const(e->type, 1, e->loc);
    return power(e->args[0], *k, e->loc);
}

} // namespace

std::shared_ptr<Module> expand_pow(const Module &m) {
    return rewrite_module(m, expand);
}

} // namespace smelt::ir
