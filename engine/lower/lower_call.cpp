// Typing rules for calls: builtins (math, abs, min/max, conversions, atomics, barriers) and
// calls of other functions of the file (external functions: lower_external.cpp).
#include "lower/builtins.h"
#include "lower/externals.h"
#include "lower/lowering.h"

#include <cmath>

namespace smelt::lower {

namespace {

std::string plural(size_t n, const char *word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

TExpr FunctionLowerer::call(const ast::Expr &e) {
    const ast::Expr &callee = *e.args[0];
    if (is_parpy_call(e)) return parpy_call(e);
    if (callee.kind == ast::ExprKind::Attribute) {
        if (is_math_name(callee.name))
            fail(callee.loc, "dotted calls are not supported in kernels; call '" + callee.name +
                                 "(...)' directly (e.g. from math import " + callee.name + ")");
        fail(callee.loc, "dotted calls ('." + callee.name + "(...)') are not supported in kernels");
    }
    if (callee.kind != ast::ExprKind::Name) fail(callee.loc, "only named functions can be called");
    if (!e.keywords.empty())
        fail(e.keywords[0].loc, "keyword arguments are not supported at kernel call sites; pass '" +
                                    e.keywords[0].name + "' by position");
    const std::string &name = callee.name;
    if (vars_.count(name)) fail(callee.loc, "'" + name + "' is a variable, not a function");
    // A function of the file (its own or imported from a kernel file) wins over a builtin of the
    // same name, as in CPython; the language's own constructs (declare, cast, atomics,
    // local_barrier) cannot be redefined.
    const ast::Binding binding = scope().resolve(name);
    const ast::FunctionDef *fn = binding.function;
    const Builtin *builtin = find_builtin(name);
    if (builtin && builtin->is_name()) builtin = nullptr; // pi(), LID_0(): unknown functions
    bool construct =
        builtin && (builtin->kind == BuiltinKind::Language ||
                    builtin->kind == BuiltinKind::Atomic || builtin->typing == Typing::Void);
    // An external function declared for the program comes after the file's functions and
    // before the builtins it may be named after.
    if (!fn && !construct)
        if (const External *x = find_external(mod_.ast(), name)) return external_call(e, *x);
    if (builtin && (!fn || construct)) return builtin_call(e, *builtin);
    if (!fn) {
        if (name == "range")
            fail(callee.loc, "range() is only allowed as the iterable of a for loop");
        if (binding.import) fail(callee.loc, import_problem(name, binding));
        bool imported = false;
        for (const auto &n : scope().imported_names)
            imported = imported || n == name;
        if (imported)
            fail(callee.loc, "'" + name +
                                 "' is imported, but kernels can only call builtins and "
                                 "functions of kernel files (this one, or one imported with "
                                 "'from MODULE import NAME')");
        fail(callee.loc, "call to unknown function '" + name +
                             "'; kernels can call builtins (sin, "
                             "abs, min, ...) and functions defined in this file or imported from "
                             "kernel files");
    }
    size_t nargs = e.args.size() - 1;
    if (nargs != fn->params.size())
        fail(e.loc, "'" + name + "' takes " + plural(fn->params.size(), "argument") + " but " +
                        std::to_string(nargs) + (nargs == 1 ? " was" : " were") + " given");
    std::vector<TExpr> args;
    std::vector<SourceLoc> arg_locs;
    for (size_t k = 1; k < e.args.size(); ++k) {
        args.push_back(expr(*e.args[k]));
        arg_locs.push_back(e.args[k]->loc);
    }
    CalleeRef ref = mod_.specialise(*fn, args, arg_locs, e.loc, *this);
    std::vector<ir::ExprPtr> converted;
    for (size_t k = 0; k < args.size(); ++k)
        converted.push_back(implicit(args[k], ref.params[k], e.args[k + 1]->loc,
                                     "parameter '" + fn->params[k].name + "' of '" + name + "'"));
    return {ir::Expr::call(ref.name, false, ref.result, converted, e.loc)};
}

TExpr FunctionLowerer::builtin_call(const ast::Expr &e, const Builtin &info) {
    const std::string name = info.name;
    size_t nargs = e.args.size() - 1;
    if (int(nargs) < info.min_args || (info.max_args >= 0 && int(nargs) > info.max_args)) {
        std::string want =
            info.max_args < 0 ? "at least " + plural(info.min_args, "argument")
            : info.min_args == info.max_args
                ? plural(info.min_args, "argument")
                : std::to_string(info.min_args) + " or " + plural(info.max_args, "argument");
        fail(e.loc, name + "() takes " + want + " but " + std::to_string(nargs) +
                        (nargs == 1 ? " was" : " were") + " given");
    }
    const ast::Expr &callee = *e.args[0];
    auto arg = [&](size_t k) { return expr(*e.args[k + 1]); };
    auto need_number = [&](const TExpr &x, size_t k) {
        if (!x.type().is_scalar())
            fail(e.args[k + 1]->loc,
                 name + "() needs a number, not " +
                     (x.type().is_void() ? std::string("nothing") : x.type().str()));
    };
    auto float_type_of = [&](const TExpr &x) {
        return x.type().is_float() ? x.type() : Type::scalar(default_float());
    };
    switch (info.typing) {
    case Typing::FloatOfOperand:
    case Typing::BoolOfFloat: {
        TExpr x = arg(0);
        need_number(x, 0);
        Type t = float_type_of(x);
        Type result = info.typing == Typing::BoolOfFloat ? Type::scalar(Scalar::Bool) : t;
        return {ir::Expr::call(name, true, result, {convert(x, t, e.loc)}, e.loc)};
    }
    case Typing::FloatOfOperands: {
        TExpr a = arg(0), b = arg(1);
        need_number(a, 0);
        need_number(b, 1);
        Type t = common_numeric(a, b, e.loc);
        if (!t.is_float()) t = Type::scalar(default_float());
        return {ir::Expr::call(name, true, t, {convert(a, t, e.loc), convert(b, t, e.loc)}, e.loc)};
    }
    case Typing::SameAsOperand: {
        TExpr x = arg(0);
        need_number(x, 0);
        if (x.weak) {
            if (x.type().is_float())
                return {ir::Expr::float_const(x.type(), std::fabs(x.e->float_value), e.loc), true};
            return {ir::Expr::int_const(
                        x.type(), x.e->int_value < 0 ? -x.e->int_value : x.e->int_value, e.loc),
                    true};
        }
        Type t = x.type().is_bool() ? Type::scalar(Scalar::I32) : x.type();
        return {ir::Expr::call("abs", true, t, {convert(x, t, e.loc)}, e.loc)};
    }
    case Typing::CommonOfOperands: {
        auto op = name == "min" ? ir::BinaryOp::Min : ir::BinaryOp::Max;
        TExpr acc = arg(0);
        need_number(acc, 0);
        for (size_t k = 1; k < nargs; ++k) {
            TExpr b = arg(k);
            need_number(b, k);
            if (acc.weak && b.weak) {
                bool take_b = name == "min" ? compare("<", b, acc, e.loc).e->int_value
                                            : compare(">", b, acc, e.loc).e->int_value;
                if (take_b) acc = b;
                continue;
            }
            Type t = common_numeric(acc, b, e.loc);
            acc = {ir::Expr::binary(op, convert(acc, t, e.loc), convert(b, t, e.loc), e.loc)};
        }
        return acc;
    }
    case Typing::Int: {
        TExpr x = arg(0);
        need_number(x, 0);
        Type t = Type::scalar(Scalar::I32);
        if (x.weak && x.type().is_float())
            return {ir::Expr::int_const(t, int64_t(int32_t(int64_t(x.e->float_value))), e.loc)};
        return {convert(x, t, e.loc)};
    }
    case Typing::DefaultFloat: {
        TExpr x = arg(0);
        need_number(x, 0);
        return {convert(x, Type::scalar(default_float()), e.loc)};
    }
    case Typing::NamedType: {
        TExpr x = arg(0);
        need_number(x, 0);
        const ast::Expr &tn = *e.args[2];
        if (tn.kind != ast::ExprKind::Str)
            fail(tn.loc, "cast() needs the type as a string, e.g. cast(x, 'float')");
        auto t = parse_type_name(tn.str_value);
        if (!t || !t->is_scalar())
            fail(tn.loc, "cast() needs a scalar type name, not '" + tn.str_value + "'");
        if (mod_.single()) t = demote_to_single(*t);
        return {convert(x, *t, e.loc)};
    }
    case Typing::Declaration:
        fail(callee.loc, "declare() must be the whole right-hand side of an assignment, e.g. "
                         "x = declare('int')");
    case Typing::ArrayElement: {
        const ast::Expr &target = *e.args[1];
        if (target.kind != ast::ExprKind::Subscript)
            fail(target.loc, name + "() needs an array element, e.g. " + name + "(x[i])");
        Place p = subscript(target);
        if (p.base->type.is_global_matrix())
            fail(target.loc, name + "() is not supported on multi-dimensional arrays ('" +
                                 p.base->name + "' is " + p.base->type.str() + ")");
        if (!p.base->type.is_pointer())
            fail(target.loc, name + "() needs an element of an array argument or LOCAL_MEM array");
        Scalar elem = p.base->type.elem;
        Type et = Type::scalar(elem);
        if (name != "atomic_add" && !et.is_integer())
            fail(target.loc, name + "() needs an integer array, not " + p.base->type.str());
        if (elem == Scalar::I8 || elem == Scalar::U8 || elem == Scalar::I16 ||
            elem == Scalar::U16 || elem == Scalar::Bool)
            fail(target.loc, "atomics need 32- or 64-bit elements, not " + p.base->type.str());
        ir::ExprPtr value;
        auto op = name == "atomic_inc"   ? ir::AtomicOp::Inc
                  : name == "atomic_dec" ? ir::AtomicOp::Dec
                                         : ir::AtomicOp::Add;
        if (op == ir::AtomicOp::Add) {
            TExpr v = arg(1);
            need_number(v, 1);
            if (v.type().is_float() && !v.weak && et.is_integer())
                fail(e.args[2]->loc,
                     "atomic_add() of a " + v.type().str() + " to an integer array");
            value = convert(v, et, e.loc);
        }
        return {ir::Expr::atomic(op, p.base, p.indices[0], value, e.loc)};
    }
    case Typing::Void:
        if (!gpu_builtins_allowed())
            fail(callee.loc, "local_barrier() is only available in low-level kernels on the opencl "
                             "and cuda backends, not on '" +
                                 options().backend + "'");
        return {ir::Expr::call(name, true, Type::void_(), {}, e.loc)};
    case Typing::FirstExtent:
        return extent(
            *e.args[1], 0,
            "len(" + std::string(e.args[1]->kind == ast::ExprKind::Name ? e.args[1]->name : "...") +
                ")");
    case Typing::IntValue:
    case Typing::FloatValue:
        break; // names, refused as callees in call()
    }
    fail(e.loc, "unsupported builtin '" + name + "'");
}

} // namespace smelt::lower
