// Expressions → C text. Every compound expression is parenthesised, so C's precedence rules
// never matter; statements strip the outermost pair.
#include "codegen/c_like.h"
#include "codegen/emitter.h"
#include "lower/builtins.h"
#include "support/error.h"

#include <climits>
#include <cmath>
#include <set>

namespace smelt::codegen::detail {

namespace {

const char *infix(ir::BinaryOp op) {
    using ir::BinaryOp;
    switch (op) {
    case BinaryOp::Add:
        return "+";
    case BinaryOp::Sub:
        return "-";
    case BinaryOp::Mul:
        return "*";
    case BinaryOp::Div:
        return "/";
    case BinaryOp::BitAnd:
        return "&";
    case BinaryOp::BitOr:
        return "|";
    case BinaryOp::BitXor:
        return "^";
    case BinaryOp::Shl:
        return "<<";
    case BinaryOp::Shr:
        return ">>";
    case BinaryOp::Eq:
        return "==";
    case BinaryOp::Ne:
        return "!=";
    case BinaryOp::Lt:
        return "<";
    case BinaryOp::Le:
        return "<=";
    case BinaryOp::Gt:
        return ">";
    case BinaryOp::Ge:
        return ">=";
    case BinaryOp::And:
        return "&&";
    case BinaryOp::Or:
        return "||";
    default:
        return nullptr;
    }
}

const char *helper_op(ir::BinaryOp op) {
    using ir::BinaryOp;
    switch (op) {
    case BinaryOp::Add:
        return "add";
    case BinaryOp::Sub:
        return "sub";
    case BinaryOp::Mul:
        return "mul";
    case BinaryOp::Shl:
        return "shl";
    case BinaryOp::FloorDiv:
        return "floordiv";
    case BinaryOp::Mod:
        return "mod";
    case BinaryOp::Min:
        return "min";
    case BinaryOp::Max:
        return "max";
    case BinaryOp::Pow:
        return "ipow";
    default:
        return nullptr;
    }
}

// Operators C groups left to right at one precedence level, as Python does: the left operand of
// such an operator needs no parentheses when it is another of the same level. Leaving them out
// keeps a long chain a + b + c + ... flat for the device compiler (clang, under PoCL, stops at
// 256 nested brackets).
int left_assoc_level(ir::BinaryOp op) {
    using ir::BinaryOp;
    switch (op) {
    case BinaryOp::Mul:
    case BinaryOp::Div:
        return 1;
    case BinaryOp::Add:
    case BinaryOp::Sub:
        return 2;
    case BinaryOp::BitAnd:
        return 3;
    case BinaryOp::BitXor:
        return 4;
    case BinaryOp::BitOr:
        return 5;
    case BinaryOp::And:
        return 6;
    case BinaryOp::Or:
        return 7;
    default:
        return 0;
    }
}

} // namespace

std::string FunctionEmitter::helper(const char *op, Scalar s) const {
    SMELT_INTERNAL_ASSERT(s != Scalar::Bool, "no prelude helper " << op << " for bool");
    return std::string("smelt_") + op + "_" + scalar_suffix(s);
}

// u32/u64 arithmetic wraps in C; 8/16-bit values are promoted to int (so a result must be
// brought back to the type), and signed overflow is undefined unless the dialect says not.
bool FunctionEmitter::wraps_natively(Scalar s) const {
    if (scalar_is_float(s)) return true;
    if (scalar_bits(s) < 32) return false;
    return !scalar_is_signed(s) || !d_.signed_overflow_is_undefined;
}

std::string FunctionEmitter::converted(const ir::Expr &e) {
    if (e.is_const() && e.type.is_integer() && e.int_value >= INT32_MIN &&
        e.int_value <= INT32_MAX && !(e.type.elem == Scalar::U64 && e.int_value < 0))
        return std::to_string(e.int_value);
    return strip_parens(expr(e));
}

std::string FunctionEmitter::args(const std::vector<ir::ExprPtr> &a, size_t from) {
    std::string out;
    for (size_t i = from; i < a.size(); ++i) {
        if (i > from) out += ", ";
        out += converted(*a[i]);
    }
    return out;
}

namespace {

// An int sum or difference, which an index computes exactly (LANGUAGE.md "Meaning of operators").
bool is_int_sum(const ir::Expr &e) {
    return e.kind == ir::ExprKind::Binary &&
           (e.binary_op == ir::BinaryOp::Add || e.binary_op == ir::BinaryOp::Sub) &&
           e.type.is_scalar() && e.type.elem == Scalar::I32 &&
           e.args[0]->type.elem == Scalar::I32 && e.args[1]->type.elem == Scalar::I32;
}

} // namespace

// The + and - of int operands in an index are exact: the sum is taken in 64 bits, not wrapped
// at 32, so an index past int's range is out of range (as in CPython) instead of wrapping back
// into it, and the C compiler sees x[base + t] over t as consecutive elements, which the
// wrapping helper (smelt_add_i32) hides from it: a loop over them then loads whole vectors
// instead of gathering element by element.
std::string FunctionEmitter::exact_sum(const ir::Expr &e) {
    if (is_int_sum(e)) {
        // + and - associate to the left: a left operand that is a sum needs no parentheses.
        std::string left = exact_sum(*e.args[0]);
        if (is_int_sum(*e.args[0])) left = strip_parens(left);
        return "(" + left + (e.binary_op == ir::BinaryOp::Add ? " + " : " - ") +
               exact_sum(*e.args[1]) + ")";
    }
    if (e.is_const() && e.type.is_integer()) return converted(e);
    return "(" + d_.type(Scalar::I64) + ")" + expr(e);
}

std::string FunctionEmitter::index(const ir::Expr &e) {
    if (is_int_sum(e)) return strip_parens(exact_sum(e));
    // The bounds-checked modes widen the index first (ir/passes/bounds_check.h).
    if (e.kind == ir::ExprKind::Cast && e.type.is_scalar() && e.type.elem == Scalar::I64 &&
        is_int_sum(*e.args[0]))
        return strip_parens(exact_sum(*e.args[0]));
    return converted(e);
}

std::string FunctionEmitter::subscript(const ir::Var *v, const std::vector<ir::ExprPtr> &idx) {
    std::string out = name(v);
    if (v->type.is_global_matrix() && idx.size() > 1) {
        // A flat pointer: x[i, j, k] is x[((long)i * J + j) * K + k], in 64 bits so arrays of
        // 2^31 elements and more are addressed.
        std::string flat = "(" + d_.type(Scalar::I64) + ")(" + converted(*idx[0]) + ")";
        for (size_t k = 1; k < idx.size(); ++k) {
            if (k > 1) flat = "(" + flat + ")";
            flat += " * " + int_literal(d_, Scalar::I64, v->type.dims[k]) + " + (" +
                    converted(*idx[k]) + ")";
        }
        return out + "[" + flat + "]";
    }
    for (const auto &i : idx)
        out += "[" + index(*i) + "]";
    return out;
}

std::string FunctionEmitter::expr(const ir::Expr &e) {
    switch (e.kind) {
    case ir::ExprKind::Const:
        return e.type.is_float() ? float_literal(d_, e.type.elem, e.float_value)
                                 : int_literal(d_, e.type.elem, e.int_value);
    case ir::ExprKind::VarRef:
        return name(e.var.get());
    case ir::ExprKind::Cast:
        return cast(e);
    case ir::ExprKind::Unary:
        return unary(e);
    case ir::ExprKind::Binary:
        return binary(e);
    case ir::ExprKind::Select:
        return "(" + expr(*e.args[0]) + " ? " + expr(*e.args[1]) + " : " + expr(*e.args[2]) + ")";
    case ir::ExprKind::Load:
        return subscript(e.var.get(), e.args);
    case ir::ExprKind::Call:
        return call(e);
    case ir::ExprKind::Atomic:
        return atomic(e);
    }
    SMELT_INTERNAL_ASSERT(false, "unknown expression kind");
}

std::string FunctionEmitter::cast(const ir::Expr &e) {
    const ir::Expr &x = *e.args[0];
    if (x.type == e.type) return expr(x);
    // C converts to bool by comparing with zero; spelling it out avoids warnings about
    // arithmetic in a boolean context.
    if (e.type.is_bool()) {
        std::string zero = x.type.is_float() ? float_literal(d_, x.type.elem, 0.0)
                                             : int_literal(d_, x.type.elem, 0);
        return "(" + expr(x) + " != " + zero + ")";
    }
    // Float to integer saturates where C would be undefined (the prelude's smelt_f2i_*).
    if (x.type.is_float() && e.type.is_integer())
        return "smelt_f2i_" + std::string(scalar_suffix(x.type.elem)) + "_" +
               scalar_suffix(e.type.elem) + "(" + strip_parens(expr(x)) + ")";
    return "((" + d_.type(e.type.elem) + ")" + expr(x) + ")";
}

std::string FunctionEmitter::unary(const ir::Expr &e) {
    const ir::Expr &x = *e.args[0];
    Scalar s = e.type.elem;
    switch (e.unary_op) {
    case ir::UnaryOp::Not:
        return "(!" + expr(x) + ")";
    case ir::UnaryOp::Neg:
        if (wraps_natively(s)) return "(-" + expr(x) + ")";
        return helper("neg", s) + "(" + strip_parens(expr(x)) + ")";
    case ir::UnaryOp::BitNot:
        // ~ on a promoted 8/16-bit value gives an int outside the type's range.
        if (scalar_bits(s) < 32) return "((" + d_.type(s) + ")~" + expr(x) + ")";
        return "(~" + expr(x) + ")";
    }
    SMELT_INTERNAL_ASSERT(false, "unknown unary operator");
}

std::string FunctionEmitter::binary(const ir::Expr &e) {
    using ir::BinaryOp;
    BinaryOp op = e.binary_op;
    Scalar s = e.args[0]->type.elem;
    bool is_float = scalar_is_float(s);
    bool via_helper = false;
    switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Shl:
        via_helper = !wraps_natively(s);
        break;
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod:
    case BinaryOp::Min:
    case BinaryOp::Max:
        via_helper = true;
        break;
    case BinaryOp::Pow:
        if (is_float) return d_.math_function("pow", s) + "(" + args(e.args) + ")";
        via_helper = true;
        break;
    default:
        break;
    }
    if (via_helper) return helper(helper_op(op), s) + "(" + args(e.args) + ")";
    const char *sym = infix(op);
    SMELT_INTERNAL_ASSERT(sym, "no C operator for " << static_cast<int>(op));
    // Against a non-literal operand, C's usual conversions give a small literal the right
    // type, so `i < 10` needs no suffix; the left operand of a shift decides its type.
    auto side = [&](size_t i) {
        const ir::Expr &x = *e.args[i];
        bool shifted = i == 0 && (op == BinaryOp::Shl || op == BinaryOp::Shr);
        if (i == 0 && x.kind == ir::ExprKind::Binary && left_assoc_level(op) != 0 &&
            left_assoc_level(x.binary_op) == left_assoc_level(op)) {
            std::string inner = expr(x); // "(a + b)", or a helper call when x is not infix
            return inner.front() == '(' ? strip_parens(inner) : inner;
        }
        if (shifted || e.args[1 - i]->is_const() || !x.is_const()) return expr(x);
        std::string bare = converted(x);
        return !bare.empty() && bare[0] == '-' ? "(" + bare + ")" : bare;
    };
    return "(" + side(0) + " " + sym + " " + side(1) + ")";
}

std::string FunctionEmitter::call(const ir::Expr &e) {
    if (e.is_builtin) return builtin(e);
    if (e.is_external) return e.callee + "(" + args(e.args) + ")"; // its C name, as declared
    auto it = names_.functions.find(e.callee);
    SMELT_INTERNAL_ASSERT(it != names_.functions.end(),
                          "call of '" << e.callee << "', which is not in the module");
    return it->second + "(" + args(e.args) + ")";
}

std::string FunctionEmitter::builtin(const ir::Expr &e) {
    const std::string &fn = e.callee;
    Scalar s = e.args.empty() ? e.type.elem : e.args[0]->type.elem;
    auto need = [&](size_t n) {
        SMELT_INTERNAL_ASSERT(e.args.size() == n,
                              "builtin " << fn << " with " << e.args.size() << " arguments");
    };
    if (fn.rfind("smelt_checked_", 0) == 0) { // checked modes (ir/passes/bounds_check.h)
        need(4);
        // smelt_checked_index's first argument is the index, exact as unchecked.
        if (fn == "smelt_checked_index")
            return fn + "(" + index(*e.args[0]) + ", " + args(e.args, 1) + ")";
        return fn + "(" + args(e.args) + ")";
    }
    const lower::Builtin *b = lower::find_builtin(fn);
    SMELT_INTERNAL_ASSERT(b, "call of builtin '" << fn << "', which is not in the builtin table");
    switch (b->emit) {
    case lower::Emit::Libm:
        need(size_t(b->min_args));
        SMELT_INTERNAL_ASSERT(scalar_is_float(s) && e.type.elem == s,
                              "math builtin " << fn << " on " << e.args[0]->type.str());
        return d_.math_function(lower::libm_name(*b), s) + "(" + args(e.args) + ")";
    case lower::Emit::Helper:
        need(1);
        if (b->c_name && scalar_is_float(s)) // abs of a float: fabs
            return d_.math_function(b->c_name, s) + "(" + args(e.args) + ")";
        if (b->typing == lower::Typing::BoolOfFloat && !scalar_is_float(s))
            // An integer is a finite number; still evaluate it once.
            return std::string("((void)") + expr(*e.args[0]) + ", " +
                   (fn == "isfinite" ? "true" : "false") + ")";
        return helper(fn.c_str(), s) + "(" + args(e.args) + ")";
    case lower::Emit::Dialect: {
        auto it = d_.gpu_builtins.find(fn);
        SMELT_INTERNAL_ASSERT(it != d_.gpu_builtins.end(),
                              "builtin '" << fn << "' is not available in the " << d_.name
                                          << " dialect (the frontend should have refused it)");
        // Index builtins return size_t or unsigned int; give them the type the IR expects.
        if (e.type.is_void()) return it->second;
        return "((" + d_.type(e.type.elem) + ")" + it->second + ")";
    }
    case lower::Emit::Lowered:
        // A constant the frontend folds; IR built by other means may still call it, and gets
        // it in the precision the call is typed with.
        if (b->typing == lower::Typing::FloatValue && e.args.empty() && e.type.is_float())
            return float_literal(d_, s, b->value);
        break;
    }
    SMELT_INTERNAL_ASSERT(false, "builtin '" << fn << "' should have been lowered, not called");
}

std::string FunctionEmitter::atomic(const ir::Expr &e) {
    const char *op = e.atomic_op == ir::AtomicOp::Add   ? "add"
                     : e.atomic_op == ir::AtomicOp::Inc ? "inc"
                                                        : "dec";
    Scalar s = e.type.elem;
    SMELT_INTERNAL_ASSERT(scalar_bits(s) >= 32,
                          "atomics on " << e.type.str() << " (only 32- and 64-bit types)");
    bool local = e.var->type.space == AddrSpace::Local;
    SMELT_INTERNAL_ASSERT(!local || !d_.local_array_space.empty(),
                          "local memory in the " << d_.name << " dialect");
    std::string fn =
        std::string("smelt_atomic_") + op + (local ? "_local_" : "_") + scalar_suffix(s);
    std::string out = fn + "(&" + subscript(e.var.get(), {e.args[0]});
    if (e.args.size() > 1) out += ", " + converted(*e.args[1]);
    return out + ")";
}

} // namespace smelt::codegen::detail
