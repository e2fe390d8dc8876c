#include "ir/passes/constant_fold.h"

#include "ir/rewrite.h"

#include <cmath>
#include <optional>

namespace smelt::ir {

namespace {

// The canonical int_value of `bits` seen as a value of integer type s (wraps at the width).
int64_t canon(Scalar s, uint64_t bits) {
    if (s == Scalar::Bool) return bits != 0;
    int w = scalar_bits(s);
    if (w == 64) return static_cast<int64_t>(bits);
    uint64_t mask = (uint64_t(1) << w) - 1;
    bits &= mask;
    if (scalar_is_signed(s) && (bits >> (w - 1)) & 1) bits |= ~mask; // sign-extend
    return static_cast<int64_t>(bits);
}

bool is_unsigned_int(Scalar s) {
    return s == Scalar::Bool || !scalar_is_signed(s);
}

// Python's float % and // (CPython's float_rem / float_floor_div), in the type's precision,
// exactly as the prelude computes them at run time.
template <class T> T py_mod(T a, T b) {
    T m = std::fmod(a, b);
    if (m != 0) {
        if ((b < 0) != (m < 0)) m += b;
    } else {
        m = std::copysign(T(0), b);
    }
    return m;
}

template <class T> T py_floordiv(T a, T b) {
    T m = std::fmod(a, b);
    T d = (a - m) / b;
    if (m != 0 && (b < 0) != (m < 0)) d -= 1;
    if (d == 0) return std::copysign(T(0), a / b);
    T f = std::floor(d);
    if (d - f > T(1) / T(2)) f += 1;
    return f;
}

template <class T> bool compare(BinaryOp op, T a, T b) {
    switch (op) {
    case BinaryOp::Eq:
        return a == b;
    case BinaryOp::Ne:
        return a != b;
    case BinaryOp::Lt:
        return a < b;
    case BinaryOp::Le:
        return a <= b;
    case BinaryOp::Gt:
        return a > b;
    default:
        return a >= b;
    }
}

bool is_comparison(BinaryOp op) {
    return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
           op == BinaryOp::Gt || op == BinaryOp::Ge;
}

std::optional<int64_t> fold_int(BinaryOp op, Scalar s, int64_t a, int64_t b) {
    uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    bool uns = is_unsigned_int(s);
    int w = scalar_bits(s);
    switch (op) {
    case BinaryOp::Add:
        return canon(s, ua + ub);
    case BinaryOp::Sub:
        return canon(s, ua - ub);
    case BinaryOp::Mul:
        return canon(s, ua * ub);
    case BinaryOp::FloorDiv:
        if (b == 0) return std::nullopt;
        if (uns) return canon(s, ua / ub);
        if (b == -1) return canon(s, 0 - ua); // MIN // -1 wraps to MIN
        return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
    case BinaryOp::Mod: {
        if (b == 0) return std::nullopt;
        if (uns) return canon(s, ua % ub);
        if (b == -1) return 0;
        int64_t r = a % b;
        return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
    }
    case BinaryOp::Pow: {
        if (!uns && b < 0) return std::nullopt;
        uint64_t r = 1, base = ua;
        for (uint64_t e = ub; e; e >>= 1) { // multiplication mod 2^64 commutes with wrapping
            if (e & 1) r *= base;
            base *= base;
        }
        return canon(s, r);
    }
    case BinaryOp::BitAnd:
        return canon(s, ua & ub);
    case BinaryOp::BitOr:
        return canon(s, ua | ub);
    case BinaryOp::BitXor:
        return canon(s, ua ^ ub);
    case BinaryOp::Shl:
    case BinaryOp::Shr:
        if ((!uns && b < 0) || ub >= static_cast<uint64_t>(w)) return std::nullopt;
        if (op == BinaryOp::Shl) return canon(s, ua << ub);
        return uns ? canon(s, ua >> ub) : a >> b; // arithmetic shift of a sign-extended value
    case BinaryOp::Min:
        return (uns ? ub < ua : b < a) ? b : a;
    case BinaryOp::Max:
        return (uns ? ub > ua : b > a) ? b : a;
    default:
        return std::nullopt;
    }
}

template <class T> std::optional<double> fold_float(BinaryOp op, T a, T b) {
    switch (op) {
    case BinaryOp::Add:
        return static_cast<T>(a + b);
    case BinaryOp::Sub:
        return static_cast<T>(a - b);
    case BinaryOp::Mul:
        return static_cast<T>(a * b);
    case BinaryOp::Div:
        if (b == 0) return std::nullopt;
        return static_cast<T>(a / b);
    case BinaryOp::FloorDiv:
        if (b == 0) return std::nullopt;
        return py_floordiv(a, b);
    case BinaryOp::Mod:
        if (b == 0) return std::nullopt;
        return py_mod(a, b);
    case BinaryOp::Pow:
        return static_cast<T>(std::pow(a, b));
    case BinaryOp::Min:
        return b < a ? b : a;
    case BinaryOp::Max:
        return b > a ? b : a;
    default:
        return std::nullopt;
    }
}

ExprPtr make_int(const Type &t, int64_t v, SourceLoc loc) {
    return t.is_bool() ? Expr::bool_const(v != 0, loc) : Expr::int_const(t, v, loc);
}

ExprPtr fold_binary(const ExprPtr &e) {
    const Expr &a = *e->args[0];
    const Expr &b = *e->args[1];
    BinaryOp op = e->binary_op;
    // Short-circuit operators fold on a constant left side alone; the right side is then
    // either never evaluated or the whole value.
    if ((op == BinaryOp::And || op == BinaryOp::Or) && a.is_const()) {
        bool decides = (op == BinaryOp::Or) == (a.int_value != 0);
        return decides ? Expr::bool_const(a.int_value != 0, e->loc) : e->args[1];
    }
    if (!a.is_const() || !b.is_const()) return e;
    Scalar s = a.type.elem;
    if (is_comparison(op)) {
        bool r = s == Scalar::F32     ? compare(op, float(a.float_value), float(b.float_value))
                 : s == Scalar::F64   ? compare(op, a.float_value, b.float_value)
                 : is_unsigned_int(s) ? compare(op, uint64_t(a.int_value), uint64_t(b.int_value))
                                      : compare(op, a.int_value, b.int_value);
        return Expr::bool_const(r, e->loc);
    }
    if (scalar_is_float(s)) {
        auto r = s == Scalar::F32
                     ? fold_float<float>(op, float(a.float_value), float(b.float_value))
                     : fold_float<double>(op, a.float_value, b.float_value);
        return r ? Expr::float_const(e->type, *r, e->loc) : e;
    }
    auto r = fold_int(op, s, a.int_value, b.int_value);
    return r ? make_int(e->type, *r, e->loc) : e;
}

ExprPtr fold_unary(const ExprPtr &e) {
    const Expr &a = *e->args[0];
    if (!a.is_const()) return e;
    switch (e->unary_op) {
    case UnaryOp::Not:
        return Expr::bool_const(a.int_value == 0, e->loc);
    case UnaryOp::Neg:
        if (a.type.is_float()) return Expr::float_const(e->type, -a.float_value, e->loc);
        return make_int(e->type, canon(a.type.elem, 0 - uint64_t(a.int_value)), e->loc);
    case UnaryOp::BitNot:
        return make_int(e->type, canon(a.type.elem, ~uint64_t(a.int_value)), e->loc);
    }
    return e;
}

// float → integer conversion, or nothing when C would leave it undefined (NaN, out of range).
std::optional<int64_t> float_to_int(double v, Scalar s) {
    if (std::isnan(v)) return std::nullopt;
    double t = std::trunc(v);
    int w = scalar_bits(s);
    double lo = scalar_is_signed(s) ? -std::ldexp(1.0, w - 1) : 0.0;
    double hi = scalar_is_signed(s) ? std::ldexp(1.0, w - 1) : std::ldexp(1.0, w);
    if (!(t >= lo && t < hi)) return std::nullopt;
    if (scalar_is_signed(s)) return static_cast<int64_t>(t);
    return canon(s, static_cast<uint64_t>(t));
}

ExprPtr fold_cast(const ExprPtr &e) {
    const ExprPtr &x = e->args[0];
    if (x->type == e->type) return x;
    if (!x->is_const()) return e;
    const Type &to = e->type;
    Scalar from = x->type.elem;
    bool from_float = scalar_is_float(from);
    if (to.is_bool())
        return Expr::bool_const(from_float ? x->float_value != 0 : x->int_value != 0, e->loc);
    if (to.is_integer()) {
        if (!from_float) return Expr::int_const(to, canon(to.elem, uint64_t(x->int_value)), e->loc);
        auto v = float_to_int(x->float_value, to.elem);
        return v ? Expr::int_const(to, *v, e->loc) : e;
    }
    // To a float type: convert straight from the source type, as C does (no double rounding).
    bool single = to.elem == Scalar::F32;
    double v;
    if (from_float) {
        v = single ? static_cast<float>(x->float_value) : x->float_value;
    } else if (is_unsigned_int(from)) {
        uint64_t u = static_cast<uint64_t>(x->int_value);
        v = single ? static_cast<double>(static_cast<float>(u)) : static_cast<double>(u);
    } else {
        v = single ? static_cast<double>(static_cast<float>(x->int_value))
                   : static_cast<double>(x->int_value);
    }
    return Expr::float_const(to, v, e->loc);
}

ExprPtr fold(const ExprPtr &e) {
    switch (e->kind) {
    case ExprKind::Cast:
        return fold_cast(e);
    case ExprKind::Unary:
        return fold_unary(e);
    case ExprKind::Binary:
        return fold_binary(e);
    case ExprKind::Select:
        if (e->args[0]->is_const()) return e->args[0]->int_value ? e->args[1] : e->args[2];
        return e;
    default:
        return e;
    }
}

// An if on a constant condition is replaced by the branch that runs; a while whose
// condition is constant false disappears.
void fold_stmt(const StmtPtr &s, Block &out) {
    if (s->kind == StmtKind::If && s->cond->is_const()) {
        const Block &taken = s->cond->int_value ? s->body : s->orelse;
        out.insert(out.end(), taken.begin(), taken.end());
        return;
    }
    if (s->kind == StmtKind::While && s->cond->is_const() && s->cond->int_value == 0) return;
    out.push_back(s);
}

} // namespace

std::shared_ptr<Module> constant_fold(const Module &m) {
    return rewrite_module(m, fold, fold_stmt);
}

} // namespace smelt::ir
