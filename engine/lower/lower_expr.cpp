// Typing rules for expressions: names, literals, operators, subscripts, conditional expressions.
#include "lower/builtins.h"
#include "lower/lowering.h"
#include "support/backend_table.h"

namespace smelt::lower {

namespace {

ConstValue const_value(const TExpr &x) {
    if (x.type().is_float()) return x.e->float_value;
    return x.e->int_value;
}

TExpr weak_const(ConstValue v, Scalar default_float, SourceLoc loc) {
    if (std::holds_alternative<int64_t>(v))
        return {ir::Expr::int_const(Type::scalar(Scalar::I64), std::get<int64_t>(v), loc), true};
    return {ir::Expr::float_const(Type::scalar(default_float), std::get<double>(v), loc), true};
}

ir::BinaryOp arith_op(const std::string &op) {
    using B = ir::BinaryOp;
    if (op == "+") return B::Add;
    if (op == "-") return B::Sub;
    if (op == "*") return B::Mul;
    if (op == "/") return B::Div;
    if (op == "//") return B::FloorDiv;
    if (op == "%") return B::Mod;
    if (op == "**") return B::Pow;
    if (op == "&") return B::BitAnd;
    if (op == "|") return B::BitOr;
    if (op == "^") return B::BitXor;
    if (op == "<<") return B::Shl;
    return B::Shr;
}

ir::BinaryOp compare_op(const std::string &op) {
    using B = ir::BinaryOp;
    if (op == "==") return B::Eq;
    if (op == "!=") return B::Ne;
    if (op == "<") return B::Lt;
    if (op == "<=") return B::Le;
    if (op == ">") return B::Gt;
    return B::Ge;
}

} // namespace

bool is_pure(const ir::Expr &e) {
    if (e.kind == ir::ExprKind::Atomic) return false;
    if (e.kind == ir::ExprKind::Call && !e.is_builtin) return false;
    for (const auto &a : e.args)
        if (!is_pure(*a)) return false;
    return true;
}

int64_t canonical_int(Scalar s, int64_t v) {
    int bits = scalar_bits(s);
    if (s == Scalar::Bool) return v != 0;
    if (bits >= 64) return v;
    uint64_t mask = (uint64_t(1) << bits) - 1;
    uint64_t u = uint64_t(v) & mask;
    if (scalar_is_signed(s) && (u >> (bits - 1))) u |= ~mask;
    return int64_t(u);
}

Scalar fit_int_literal(Scalar s, int64_t v) {
    Scalar p = promote(s, s);
    if (canonical_int(p, v) == v && (scalar_is_signed(p) || v >= 0)) return p;
    return p == Scalar::U64 ? p : Scalar::I64;
}

Scalar FunctionLowerer::default_float() const {
    return mod_.single() ? Scalar::F32 : Scalar::F64;
}
const CompileOptions &FunctionLowerer::options() const {
    return mod_.options();
}
bool FunctionLowerer::gpu_builtins_allowed() const {
    const BackendRow *row = find_backend_row(options().backend);
    return row && row->work_groups;
}

void FunctionLowerer::fail(SourceLoc loc, const std::string &msg) {
    sink_.error(loc, msg);
    throw StatementFailed{};
}

TExpr FunctionLowerer::resolve_weak(TExpr x) {
    x.weak = false;
    return x;
}

ir::ExprPtr FunctionLowerer::convert(const TExpr &x, const Type &to, SourceLoc loc) {
    if (x.type() == to) return x.e;
    if (x.weak && to.is_scalar()) {
        if (to.is_float()) return ir::Expr::float_const(to, as_double(const_value(x)), loc);
        if (to.is_bool()) return ir::Expr::bool_const(as_double(const_value(x)) != 0, loc);
        if (x.type().is_integer())
            return ir::Expr::int_const(to, canonical_int(to.elem, x.e->int_value), loc);
    }
    return ir::Expr::cast(to, x.e, loc);
}

void FunctionLowerer::reject_float_to_int(const TExpr &x, const Type &to, SourceLoc loc,
                                          const std::string &what) {
    if (to.is_integer() && x.type().is_float())
        fail(loc, "a " + x.type().str() + " value cannot be stored in " + what + ", which is " +
                      to.str() + "; convert it explicitly with int(...)");
}

ir::ExprPtr FunctionLowerer::implicit(const TExpr &x, const Type &to, SourceLoc loc,
                                      const std::string &what) {
    const Type &from = x.type();
    if (from == to) return x.e;
    if (from.is_void()) fail(loc, "this call returns nothing, so it has no value for " + what);
    if (to.is_scalar() && from.is_scalar()) {
        reject_float_to_int(x, to, loc, what);
        return convert(x, to, loc);
    }
    if (to.is_pointer() && from.is_pointer() && to.elem == from.elem &&
        (to.space == from.space || !gpu_builtins_allowed())) // one address space
        return x.e;
    fail(loc, "a " + from.str() + " value cannot be used for " + what + ", which is " + to.str());
}

ir::ExprPtr FunctionLowerer::to_bool(const TExpr &x, SourceLoc loc) {
    const Type &t = x.type();
    if (t.is_bool()) return x.e;
    if (x.weak) return ir::Expr::bool_const(as_double(const_value(x)) != 0, loc);
    if (t.is_numeric()) {
        auto zero =
            t.is_float() ? ir::Expr::float_const(t, 0.0, loc) : ir::Expr::int_const(t, 0, loc);
        return ir::Expr::binary(ir::BinaryOp::Ne, x.e, zero, loc);
    }
    fail(loc, "an array cannot be used as a truth value");
}

Type FunctionLowerer::common_numeric(const TExpr &a, const TExpr &b, SourceLoc loc) {
    for (const TExpr *x : {&a, &b})
        if (!x->type().is_scalar() || x->type().is_void())
            fail(loc, "operands must be numbers, not " +
                          (x->type().is_void() ? std::string("a call that returns nothing")
                                               : "an array (" + x->type().str() + ")"));
    if (a.weak && b.weak)
        return promote(a.type().elem, b.type().elem) == Scalar::I64 ? Type::scalar(Scalar::I64)
                                                                    : Type::scalar(default_float());
    if (a.weak || b.weak) {
        const TExpr &w = a.weak ? a : b;
        const TExpr &t = a.weak ? b : a;
        if (w.type().is_float() && !t.type().is_float()) return Type::scalar(default_float());
        if (t.type().is_float()) return t.type();
        return Type::scalar(fit_int_literal(t.type().elem, w.e->int_value));
    }
    return Type::scalar(promote(a.type().elem, b.type().elem));
}

TExpr FunctionLowerer::arith(const std::string &op, TExpr a, TExpr b, SourceLoc loc) {
    if (a.weak && b.weak) {
        std::string err;
        auto v = fold_binary(op, const_value(a), const_value(b), err);
        if (!v) fail(loc, err);
        return weak_const(*v, default_float(), loc);
    }
    bool bitwise = op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>";
    if (bitwise && a.type().is_bool() && b.type().is_bool() && op != "<<" && op != ">>")
        return {ir::Expr::binary(arith_op(op), a.e, b.e, loc)};
    Type t = common_numeric(a, b, loc);
    if (bitwise && t.is_float())
        fail(loc, "operator '" + op + "' needs integer operands, not " + t.str());
    if (op == "/" && !t.is_float()) t = Type::scalar(default_float());
    if ((op == "//" || op == "%") && t.is_integer() && b.e->is_const() && b.e->int_value == 0)
        fail(loc, "integer division by zero");
    if (op == "**" && t.is_integer() && b.e->is_const() && b.e->int_value < 0)
        fail(loc, "an integer raised to a negative power is a float in Python; write a float base, "
                  "e.g. 2.0 ** -1");
    return {ir::Expr::binary(arith_op(op), convert(a, t, loc), convert(b, t, loc), loc)};
}

TExpr FunctionLowerer::compare(const std::string &op, TExpr a, TExpr b, SourceLoc loc) {
    if (a.weak && b.weak)
        return {ir::Expr::bool_const(fold_compare(op, const_value(a), const_value(b)), loc)};
    if (a.type().is_bool() && b.type().is_bool())
        return {ir::Expr::binary(compare_op(op), a.e, b.e, loc)};
    Type t = common_numeric(a, b, loc);
    return {ir::Expr::binary(compare_op(op), convert(a, t, loc), convert(b, t, loc), loc)};
}

FunctionLowerer::Place FunctionLowerer::subscript(const ast::Expr &e) {
    std::vector<const ast::Expr *> index_nodes;
    const ast::Expr *base = &e;
    while (base->kind == ast::ExprKind::Subscript) {
        index_nodes.insert(index_nodes.begin(), base->args[1].get());
        base = base->args[0].get();
    }
    if (base->kind != ast::ExprKind::Name) fail(base->loc, "only named arrays can be indexed");
    if (auto v = vars_.find(base->name); v != vars_.end() && local_scalars_.count(v->second.get()))
        fail(base->loc, "'" + base->name + "' is a LOCAL_MEM " + scalar_name(v->second->type.elem) +
                            ", a number, which cannot be indexed");
    TExpr b = expr(*base);
    const Type &bt = b.type();
    if (!bt.is_pointer() && !bt.is_matrix())
        fail(base->loc, "'" + base->name + "' is " + bt.str() + ", which cannot be indexed");
    size_t want = bt.is_pointer() ? 1 : bt.dims.size();
    if (index_nodes.size() != want)
        fail(index_nodes.size() > want ? index_nodes[want]->loc : e.loc,
             "'" + base->name + "' has " + std::to_string(want) + " dimension" +
                 (want == 1 ? "" : "s") + " but " + std::to_string(index_nodes.size()) +
                 (index_nodes.size() == 1 ? " index was" : " indices were") + " given");
    Place p{b.e->var, {}};
    size_t slice_count = 0, slice_number = 0;
    for (const ast::Expr *ix : index_nodes)
        slice_count += ix->kind == ast::ExprKind::Slice;
    for (size_t k = 0; k < index_nodes.size(); ++k) {
        if (index_nodes[k]->kind == ast::ExprKind::Slice) {
            p.indices.push_back(
                slice_index(p.base, k, *index_nodes[k], slice_number++, slice_count));
            continue;
        }
        TExpr ix = expr(*index_nodes[k]);
        if (!ix.type().is_integer() && !(ix.weak && ix.type().is_integer()))
            fail(index_nodes[k]->loc, "an index must be an integer, not " + ix.type().str());
        if (ix.weak && ix.e->int_value < 0)
            fail(index_nodes[k]->loc, "negative indices are not supported in kernels");
        if (ix.weak && bt.is_matrix() && ix.e->int_value >= bt.dims[k])
            fail(index_nodes[k]->loc, "index " + std::to_string(ix.e->int_value) +
                                          " is out of range for an extent of " +
                                          std::to_string(bt.dims[k]));
        p.indices.push_back(ix.weak ? convert(ix, Type::scalar(Scalar::I64), ix.e->loc) : ix.e);
    }
    return p;
}

TExpr FunctionLowerer::extent(const ast::Expr &array, int64_t dim, const std::string &what) {
    if (array.kind != ast::ExprKind::Name) fail(array.loc, what + " needs a named array");
    auto v = vars_.find(array.name);
    if (v == vars_.end() || local_scalars_.count(v->second.get())) {
        TExpr x = expr(array); // reports unknown names as every other use does
        fail(array.loc, what + " needs an array, but '" + array.name + "' is " + x.type().str());
    }
    const Type &t = v->second->type;
    if (t.is_pointer())
        fail(array.loc, what + ": '" + array.name + "' is a one-dimensional array (" + t.str() +
                            ") whose length is not part of its type; pass the length as an "
                            "argument, or pass a shaped array to index it x[i, j]");
    if (!t.is_matrix())
        fail(array.loc, what + " needs an array, but '" + array.name + "' is " + t.str());
    if (dim >= static_cast<int64_t>(t.dims.size()))
        fail(array.loc, what + ": '" + array.name + "' has " + std::to_string(t.dims.size()) +
                            " dimension" + (t.dims.size() == 1 ? "" : "s"));
    used_names_.insert(array.name);
    return {
        ir::Expr::int_const(Type::scalar(Scalar::I64), t.dims[static_cast<size_t>(dim)], array.loc),
        true};
}

TExpr FunctionLowerer::shape_subscript(const ast::Expr &e) {
    const ast::Expr &attr = *e.args[0];
    const ast::Expr &index = *e.args[1];
    const std::string name =
        attr.args[0]->kind == ast::ExprKind::Name ? attr.args[0]->name : std::string("...");
    TExpr k = expr(index);
    if (!k.weak || !k.type().is_integer())
        fail(index.loc, "'" + name + ".shape' can only be indexed by a constant integer");
    if (k.e->int_value < 0) fail(index.loc, "negative indices are not supported in kernels");
    return extent(*attr.args[0], k.e->int_value,
                  name + ".shape[" + std::to_string(k.e->int_value) + "]");
}

TExpr FunctionLowerer::expr(const ast::Expr &e) {
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::Int:
        if (e.int_value > uint64_t(INT64_MAX))
            fail(e.loc, "integer literal is too large for 64 bits");
        return {ir::Expr::int_const(Type::scalar(Scalar::I64), int64_t(e.int_value), e.loc), true};
    case K::Float:
        return {ir::Expr::float_const(Type::scalar(default_float()), e.float_value, e.loc), true};
    case K::Bool:
        return {ir::Expr::bool_const(e.bool_value, e.loc)};
    case K::Str:
        fail(e.loc, "strings are only allowed as arguments of declare(), annotate() and cast()");
    case K::Name: {
        used_names_.insert(e.name);
        if (poisoned_.count(e.name)) throw StatementFailed{};
        auto it = vars_.find(e.name);
        if (it != vars_.end() && local_scalars_.count(it->second.get()))
            return {ir::Expr::load(
                it->second, {ir::Expr::int_const(Type::scalar(Scalar::I64), 0, e.loc)}, e.loc)};
        if (it != vars_.end()) {
            // A loop-parallel function is specialised on its integer scalars (ParPy's model).
            if (!assigned_anywhere_.count(e.name))
                if (auto v = specialised_value(*it->second); v && it->second->type.is_integer())
                    return {ir::Expr::int_const(it->second->type,
                                                canonical_int(it->second->type.elem, *v), e.loc)};
            return {ir::Expr::var_ref(it->second, e.loc)};
        }
        if (assigned_anywhere_.count(e.name))
            fail(e.loc, "local variable '" + e.name + "' is used before it is assigned");
        if (auto c = mod_.constant(scope(), e.name)) return {(*c).e, (*c).weak};
        if (auto f = builtin_float_constant(e.name))
            return {ir::Expr::float_const(Type::scalar(default_float()), *f, e.loc), true};
        if (is_work_item_name(e.name)) {
            if (!gpu_builtins_allowed())
                fail(e.loc, e.name +
                                " is only available in low-level kernels on the opencl and "
                                "cuda backends, not on '" +
                                options().backend + "'");
            return {ir::Expr::call(e.name, true, Type::scalar(Scalar::I32), {}, e.loc)};
        }
        ast::Binding b = scope().resolve(e.name);
        if (b.function || find_builtin(e.name))
            fail(e.loc, "function '" + e.name + "' can only be called, not used as a value");
        if (b.import) fail(e.loc, import_problem(e.name, b));
        fail(e.loc, "name '" + e.name + "' is not defined");
    }
    case K::Attribute:
        if (e.name == "shape" && e.args[0]->kind == ast::ExprKind::Name)
            fail(e.loc, "'" + e.args[0]->name +
                            ".shape' can only be indexed by a constant, as in " + e.args[0]->name +
                            ".shape[0]");
        if (is_math_name(e.name))
            fail(e.loc, "dotted names are not supported in kernels; write '" + e.name +
                            "' instead (e.g. from math import " + e.name + ")");
        fail(e.loc, "attribute access ('." + e.name + "') is not supported in kernels");
    case K::Subscript: {
        if (e.args[0]->kind == ast::ExprKind::Attribute && e.args[0]->name == "shape")
            return shape_subscript(e);
        Place p = subscript(e);
        return {ir::Expr::load(p.base, p.indices, e.loc)};
    }
    case K::Unary: {
        TExpr x = expr(*e.args[0]);
        if (e.op == "not") return {ir::Expr::unary(ir::UnaryOp::Not, to_bool(x, e.loc), e.loc)};
        if (x.weak) {
            std::string err;
            auto v = fold_unary(e.op, const_value(x), err);
            if (!v) fail(e.loc, err);
            return weak_const(*v, default_float(), e.loc);
        }
        if (!x.type().is_scalar())
            fail(e.loc, "unary '" + e.op + "' needs a number, not " + x.type().str());
        Type t = x.type().is_bool() ? Type::scalar(Scalar::I32) : x.type();
        if (e.op == "~" && t.is_float())
            fail(e.loc, "operator '~' needs an integer, not " + t.str());
        if (e.op == "+") return {convert(x, t, e.loc)};
        auto op = e.op == "-" ? ir::UnaryOp::Neg : ir::UnaryOp::BitNot;
        return {ir::Expr::unary(op, convert(x, t, e.loc), e.loc)};
    }
    case K::Binary:
        if (e.op == "@")
            fail(e.loc, "the matrix multiplication operator '@' is not supported in kernels");
        {
            // Operands are typed left to right (C++ leaves argument order unspecified), so
            // specialisations and diagnostics come in source order.
            TExpr a = expr(*e.args[0]);
            TExpr b = expr(*e.args[1]);
            return arith(e.op, a, b, e.loc);
        }
    case K::BoolOp: {
        auto op = e.op == "and" ? ir::BinaryOp::And : ir::BinaryOp::Or;
        ir::ExprPtr acc = to_bool(expr(*e.args[0]), e.args[0]->loc);
        for (size_t k = 1; k < e.args.size(); ++k)
            acc = ir::Expr::binary(op, acc, to_bool(expr(*e.args[k]), e.args[k]->loc), e.loc);
        return {acc};
    }
    case K::Compare: {
        std::vector<TExpr> operands;
        for (const auto &a : e.args)
            operands.push_back(expr(*a));
        ir::ExprPtr acc;
        for (size_t k = 0; k < e.ops.size(); ++k) {
            if (k > 0 && !is_pure(*operands[k].e))
                fail(e.args[k]->loc, "the middle operand of a chained comparison is evaluated "
                                     "twice here; store it in a variable first");
            ir::ExprPtr c = compare(e.ops[k], operands[k], operands[k + 1], e.loc).e;
            acc = acc ? ir::Expr::binary(ir::BinaryOp::And, acc, c, e.loc) : c;
        }
        return {acc};
    }
    case K::IfExp: {
        ir::ExprPtr c = to_bool(expr(*e.args[0]), e.args[0]->loc);
        TExpr a = expr(*e.args[1]), b = expr(*e.args[2]);
        if (a.type() == b.type() && a.weak == b.weak) return {ir::Expr::select(c, a.e, b.e, e.loc)};
        if (a.type().is_scalar() && b.type().is_scalar() && !a.type().is_bool() &&
            !b.type().is_bool()) {
            Type t = common_numeric(a, b, e.loc);
            return {ir::Expr::select(c, convert(a, t, e.loc), convert(b, t, e.loc), e.loc)};
        }
        fail(e.loc, "the two branches of this conditional expression have different types (" +
                        a.type().str() + " and " + b.type().str() + ")");
    }
    case K::Call:
        return call(e);
    case K::Slice:
        fail(e.loc, "a slice can only be an index: x[a:b]");
    }
    fail(e.loc, "this expression is not supported in kernels");
}

} // namespace smelt::lower
