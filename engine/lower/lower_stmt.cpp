// Typing rules for statements: assignments and declarations, control flow, range loops, returns.
#include "lower/annotations.h"
#include "lower/builtins.h"
#include "lower/lowering.h"

namespace smelt::lower {

namespace {

bool is_declare_call(const ast::Expr *e) {
    return e && e->kind == ast::ExprKind::Call && e->args[0]->kind == ast::ExprKind::Name &&
           e->args[0]->name == "declare";
}

ir::ExprPtr zero_of(const Type &t, SourceLoc loc) {
    if (t.is_float()) return ir::Expr::float_const(t, 0.0, loc);
    if (t.is_bool()) return ir::Expr::bool_const(false, loc);
    return ir::Expr::int_const(t, 0, loc);
}

} // namespace

ir::VarPtr FunctionLowerer::new_var(const std::string &name, const Type &t, ir::Var::Role role) {
    auto v = std::make_shared<ir::Var>(ir::Var{name, t, role});
    if (role != ir::Var::Role::Param) out_->locals.push_back(v);
    if (role != ir::Var::Role::Hidden) vars_[name] = v;
    used_names_.insert(name);
    if (t.is_matrix() && t.space == AddrSpace::Local) out_->uses_local_memory = true;
    return v;
}

std::string FunctionLowerer::hidden_name(const std::string &base) {
    std::string name = base;
    for (int k = 2; used_names_.count(name) || assigned_anywhere_.count(name); ++k)
        name = base + std::to_string(k);
    used_names_.insert(name);
    return name;
}

void FunctionLowerer::block(const ast::Block &b, ir::Block &out) {
    for (const auto &s : b) {
        ir::Block *const saved = hoisted_;
        try {
            if (take_label_statement(*s)) continue;
            current_labels_ = std::move(pending_labels_);
            pending_labels_.clear();
            // A parpy reduction inside the statement puts its loop before the statement.
            ir::Block hoisted, here;
            hoisted_ = &hoisted;
            stmt(*s, here);
            hoisted_ = saved;
            out.insert(out.end(), hoisted.begin(), hoisted.end());
            out.insert(out.end(), here.begin(), here.end());
            reject_unused_labels();
        } catch (const StatementFailed &) {
            hoisted_ = saved;
            current_labels_.clear();
            // Names this statement would have defined are poisoned so their later uses do not
            // produce a second, confusing "used before assignment" error.
            for (const auto &t : s->targets)
                if (t->kind == ast::ExprKind::Name && !vars_.count(t->name))
                    poisoned_.insert(t->name);
        }
    }
    if (!pending_labels_.empty()) {
        const Label l = pending_labels_.front();
        pending_labels_.clear();
        sink_.error(l.loc, "parpy.label('" + l.name +
                               "') is the last statement of its block, so "
                               "it labels nothing");
    }
}

void FunctionLowerer::store_to_var(ir::VarPtr v, TExpr value, SourceLoc loc, ir::Block &out) {
    if (local_scalars_.count(v.get())) {
        Type et = Type::scalar(v->type.elem);
        if (!value.type().is_scalar())
            fail(loc, "cannot store " +
                          (value.type().is_void() ? std::string("a call that returns nothing")
                                                  : "a " + value.type().str()) +
                          " in the LOCAL_MEM " + et.str() + " '" + v->name + "'");
        reject_float_to_int(value, et, loc, "'" + v->name + "'");
        out.push_back(ir::Stmt::store(v, {ir::Expr::int_const(Type::scalar(Scalar::I64), 0, loc)},
                                      convert(value, et, loc), loc));
        return;
    }
    if (v->type.is_matrix())
        fail(loc, "cannot assign to the whole matrix '" + v->name + "'; assign its elements");
    out.push_back(ir::Stmt::assign(v, implicit(value, v->type, loc, "'" + v->name + "'"), loc));
}

void FunctionLowerer::assign(const ast::Expr &target, const ast::Expr &value_node, TExpr value,
                             SourceLoc loc, ir::Block &out) {
    // Errors about the value point at the value; the statement keeps `loc`.
    SourceLoc vloc = value_node.loc;
    if (target.kind == ast::ExprKind::Name) {
        auto it = vars_.find(target.name);
        if (it != vars_.end()) {
            if (it->second->role == ir::Var::Role::Param && it->second->type.is_pointer())
                fail(target.loc, "cannot rebind the array parameter '" + target.name + "'");
            store_to_var(it->second, value, vloc, out);
            return;
        }
        if (value.type().is_void())
            fail(vloc, "this call returns nothing, so it cannot be assigned");
        if (value.type().is_matrix()) fail(vloc, "matrices cannot be copied; copy their elements");
        Type t = value.type();
        ir::VarPtr v = new_var(target.name, t, ir::Var::Role::Local);
        out.push_back(ir::Stmt::assign(v, value.e, loc));
        return;
    }
    if (target.kind == ast::ExprKind::Subscript) {
        Place p = subscript(target);
        Type et = Type::scalar(p.base->type.elem);
        if (!value.type().is_scalar())
            fail(vloc, "cannot store " +
                           (value.type().is_void() ? std::string("a call that returns nothing")
                                                   : "a " + value.type().str()) +
                           " in an element of '" + p.base->name + "'");
        // Like a NumPy element store, the value converts to the array's type; but a float is
        // not silently truncated into an integer element, as it is not into an integer local
        // (docs/LANGUAGE.md, "Float to integer").
        reject_float_to_int(value, et, vloc, "an element of '" + p.base->name + "'");
        out.push_back(ir::Stmt::store(p.base, p.indices, convert(value, et, loc), loc));
        return;
    }
    fail(target.loc, "cannot assign to this expression");
}

void FunctionLowerer::declare(const ast::Stmt &s, ir::Block &out) {
    const ast::Expr &call = *s.value;
    const ast::Expr &spec = *call.args.at(1);
    if (spec.kind != ast::ExprKind::Str)
        fail(spec.loc, "declare() needs the type as a string, e.g. declare('int')");
    int64_t count = 1;
    if (call.args.size() == 3) {
        if (call.args[2]->kind != ast::ExprKind::Int)
            fail(call.args[2]->loc, "the count of declare() must be an integer literal");
        count = int64_t(call.args[2]->int_value);
    }
    if (count != int64_t(s.targets.size()))
        fail(s.loc, "declare() makes " + std::to_string(count) + " variable" +
                        (count == 1 ? "" : "s") + " but " + std::to_string(s.targets.size()) +
                        " name" + (s.targets.size() == 1 ? " is" : "s are") + " assigned");
    std::string error;
    auto decl = parse_declare_string(spec.str_value, mod_.single(), scope(), error);
    if (!decl) fail(spec.loc, error);
    if (decl->local_mem && !gpu_builtins_allowed())
        fail(spec.loc, "LOCAL_MEM is only available in low-level kernels on the opencl and cuda "
                       "backends, not on '" +
                           options().backend + "'");
    const bool local_scalar = decl->local_mem && decl->type.is_scalar();
    const Type type =
        local_scalar ? Type::matrix(decl->type.elem, {1}, AddrSpace::Local) : decl->type;
    for (const auto &t : s.targets) {
        if (t->kind != ast::ExprKind::Name) fail(t->loc, "declare() can only define plain names");
        if (vars_.count(t->name)) fail(t->loc, "'" + t->name + "' is already defined");
        ir::VarPtr v = new_var(t->name, type, ir::Var::Role::Local);
        // Local memory cannot be initialised (as LOCAL_MEM matrices): the group writes it first.
        if (local_scalar) {
            local_scalars_.insert(v.get());
            continue;
        }
        // declare() gives zero in CPython, so it does here too (matrices included, see codegen).
        if (v->type.is_scalar())
            out.push_back(ir::Stmt::assign(v, zero_of(v->type, t->loc), t->loc));
    }
}

void FunctionLowerer::for_range(const ast::Stmt &s, ir::Block &out) {
    std::vector<std::string> labels = take_labels();
    const ast::Expr &target = *s.targets[0];
    std::vector<TExpr> args;
    for (const auto &a : s.range_args) {
        TExpr x = expr(*a);
        if (!x.type().is_integer() && !x.type().is_bool())
            fail(a->loc, "range() needs integer arguments, not " + x.type().str());
        args.push_back(x);
    }
    TExpr start = args.size() > 1
                      ? args[0]
                      : TExpr{ir::Expr::int_const(Type::scalar(Scalar::I64), 0, s.loc), true};
    TExpr stop = args.size() > 1 ? args[1] : args[0];
    TExpr step = args.size() > 2
                     ? args[2]
                     : TExpr{ir::Expr::int_const(Type::scalar(Scalar::I64), 1, s.loc), true};
    if (step.weak && step.e->int_value == 0)
        fail(s.range_args[2]->loc, "range() step must not be zero");

    ir::VarPtr user;
    auto it = vars_.find(target.name);
    Type t;
    if (it != vars_.end()) {
        user = it->second;
        if (!user->type.is_integer())
            fail(target.loc,
                 "loop variable '" + target.name + "' is " + user->type.str() + ", not an integer");
        t = user->type;
    } else {
        // The loop variable takes the promoted type of range()'s typed arguments; with only
        // literals it is long, like any lone integer literal.
        std::optional<Scalar> st;
        for (const TExpr *x : {&start, &stop, &step})
            if (!x->weak)
                st = st ? promote(*st, x->type().elem) : promote(x->type().elem, x->type().elem);
        // A literal argument that the typed ones cannot hold (range(u, 0, -1) with u unsigned)
        // widens the loop variable so it keeps its value.
        if (st)
            for (const TExpr *x : {&start, &stop, &step})
                if (x->weak) st = promote(*st, fit_int_literal(*st, x->e->int_value));
        t = Type::scalar(st.value_or(Scalar::I64));
        if (t.is_bool()) t = Type::scalar(Scalar::I32);
    }
    // range() evaluates its arguments once: bind non-constant limits to hidden variables.
    auto bound = [&](const TExpr &x, const char *what) -> ir::ExprPtr {
        ir::ExprPtr v = convert(x, t, s.loc);
        if (v->is_const()) return v;
        ir::VarPtr h = new_var(hidden_name(target.name + "_" + what), t, ir::Var::Role::Hidden);
        out.push_back(ir::Stmt::assign(h, v, s.loc));
        return ir::Expr::var_ref(h, s.loc);
    };
    ir::ExprPtr start_e = convert(start, t, s.loc);
    ir::ExprPtr stop_e = bound(stop, "stop");
    ir::ExprPtr step_e = bound(step, "step");
    if (!user) user = new_var(target.name, t, ir::Var::Role::Local);
    ir::VarPtr counter = new_var(hidden_name(target.name + "_it"), t, ir::Var::Role::Hidden);
    ir::Block body;
    body.push_back(ir::Stmt::assign(user, ir::Expr::var_ref(counter, target.loc), target.loc));
    ++loop_depth_;
    block(s.body, body);
    --loop_depth_;
    out.push_back(ir::Stmt::for_(counter, start_e, stop_e, step_e, std::move(body), s.loc,
                                 std::move(labels)));
}

void FunctionLowerer::stmt(const ast::Stmt &s, ir::Block &out) {
    using K = ast::StmtKind;
    if (s.kind == K::If || s.kind == K::While) reject_unused_labels();
    if (slice_contexts_.empty() && slice_statement(s, out)) return;
    switch (s.kind) {
    case K::Assign:
        if (is_declare_call(s.value.get())) return declare(s, out);
        if (s.targets.size() != 1)
            fail(s.targets[1]->loc,
                 "tuple assignment is only supported with declare(); assign each "
                 "variable separately");
        assign(*s.targets[0], *s.value, expr(*s.value), s.loc, out);
        return;
    case K::AnnAssign: {
        const ast::Expr &target = *s.targets[0];
        if (target.kind != ast::ExprKind::Name)
            fail(target.loc, "only plain names can be annotated");
        if (vars_.count(target.name)) fail(target.loc, "'" + target.name + "' is already defined");
        auto t = type_from_expr(*s.annotation, mod_.single(), sink_);
        if (!t) throw StatementFailed{};
        if (!t->is_scalar())
            fail(s.annotation->loc, "annotated locals must be scalars; use declare() for matrices");
        TExpr init = s.value ? expr(*s.value) : TExpr{zero_of(*t, s.loc)};
        ir::VarPtr v = new_var(target.name, *t, ir::Var::Role::Local);
        store_to_var(v, init, s.loc, out);
        return;
    }
    case K::AugAssign: {
        const ast::Expr &target = *s.targets[0];
        if (target.kind == ast::ExprKind::Subscript) {
            // x[f()] += v evaluates the index once, as Python does.
            Place p = subscript(target);
            for (auto &ix : p.indices) {
                if (is_pure(*ix)) continue;
                ir::VarPtr h = new_var(hidden_name("index"), ix->type, ir::Var::Role::Hidden);
                out.push_back(ir::Stmt::assign(h, ix, s.loc));
                ix = ir::Expr::var_ref(h, s.loc);
            }
            TExpr current{ir::Expr::load(p.base, p.indices, target.loc)};
            TExpr rhs = expr(*s.value);
            TExpr result = arith(s.op, current, rhs, s.loc);
            if (!result.type().is_scalar())
                fail(s.value->loc, "cannot store this value in an array element");
            reject_float_to_int(result, Type::scalar(p.base->type.elem), s.value->loc,
                                "an element of '" + p.base->name + "'");
            out.push_back(ir::Stmt::store(
                p.base, p.indices, convert(result, Type::scalar(p.base->type.elem), s.loc), s.loc));
            return;
        }
        TExpr current = expr(target);
        TExpr rhs = expr(*s.value);
        TExpr result = arith(s.op, current, rhs, s.loc);
        if (target.kind == ast::ExprKind::Name) {
            ir::VarPtr v = vars_.at(target.name);
            if (v->type.is_integer() && result.type().is_float())
                fail(s.loc, "'" + target.name + " " + s.op + "= ...' gives a " +
                                result.type().str() + " but '" + target.name + "' is " +
                                v->type.str());
            store_to_var(v, result, s.loc, out);
            return;
        }
        assign(target, *s.value, result, s.loc, out);
        return;
    }
    case K::If: {
        ir::ExprPtr c = to_bool(expr(*s.cond), s.cond->loc);
        ir::Block body, orelse;
        block(s.body, body);
        block(s.orelse, orelse);
        out.push_back(ir::Stmt::if_(c, std::move(body), std::move(orelse), s.loc));
        return;
    }
    case K::While: {
        ir::Block *const saved = hoisted_;
        hoisted_ = nullptr; // a parpy reduction here would be computed once
        ir::ExprPtr c = to_bool(expr(*s.cond), s.cond->loc);
        hoisted_ = saved;
        ir::Block body;
        ++loop_depth_;
        block(s.body, body);
        --loop_depth_;
        out.push_back(ir::Stmt::while_(c, std::move(body), s.loc));
        return;
    }
    case K::For:
        return for_range(s, out);
    case K::Break:
    case K::Continue:
        if (loop_depth_ == 0)
            fail(s.loc, std::string("'") + (s.kind == K::Break ? "break" : "continue") +
                            "' outside a loop");
        out.push_back(s.kind == K::Break ? ir::Stmt::break_(s.loc) : ir::Stmt::continue_(s.loc));
        return;
    case K::Return: {
        ReturnSite site{std::nullopt, s.loc};
        if (s.value) site.value = expr(*s.value);
        returns_.push_back(site);
        // The value is converted to the function's result type once all returns are known.
        out.push_back(ir::Stmt::return_(site.value ? site.value->e : nullptr, s.loc));
        return;
    }
    case K::Pass:
        return;
    case K::ExprStmt: {
        const ast::Expr &v = *s.value;
        if (v.kind == ast::ExprKind::Str) return; // a stray string literal is a comment
        if (v.kind != ast::ExprKind::Call)
            fail(v.loc, "this expression has no effect; only calls can stand alone as statements");
        out.push_back(ir::Stmt::eval(expr(v).e, s.loc));
        return;
    }
    }
}

} // namespace smelt::lower
