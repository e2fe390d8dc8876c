// Short helpers for building IR by hand in tests (no parser needed).
#pragma once

#include "ir/ir.h"

#include <memory>
#include <string>

namespace smelt::test {

inline Type ty(Scalar s) {
    return Type::scalar(s);
}
inline Type ptr(Scalar s, AddrSpace sp = AddrSpace::Global) {
    return Type::pointer(s, sp);
}

inline ir::ExprPtr ci(Scalar s, int64_t v) {
    return ir::Expr::int_const(ty(s), v);
}
inline ir::ExprPtr i32(int64_t v) {
    return ci(Scalar::I32, v);
}
inline ir::ExprPtr i64(int64_t v) {
    return ci(Scalar::I64, v);
}
inline ir::ExprPtr f64(double v) {
    return ir::Expr::float_const(ty(Scalar::F64), v);
}
inline ir::ExprPtr f32(double v) {
    return ir::Expr::float_const(ty(Scalar::F32), v);
}
inline ir::ExprPtr cb(bool v) {
    return ir::Expr::bool_const(v);
}
inline ir::ExprPtr vref(const ir::VarPtr &v) {
    return ir::Expr::var_ref(v);
}
inline ir::ExprPtr bin(ir::BinaryOp op, ir::ExprPtr a, ir::ExprPtr b, SourceLoc loc = {}) {
    return ir::Expr::binary(op, std::move(a), std::move(b), loc);
}
inline ir::ExprPtr load(const ir::VarPtr &v, ir::ExprPtr i) {
    return ir::Expr::load(v, {std::move(i)});
}
inline SourceLoc at(int line) {
    return SourceLoc{line, 1};
}

// Builds one function: parameters, locals, a body.
class FnBuilder {
public:
    FnBuilder(std::string name, Type ret = Type::void_(), int line = 0)
        : f_(std::make_shared<ir::Function>()) {
        f_->name = std::move(name);
        f_->return_type = std::move(ret);
        f_->loc = SourceLoc{line, 1};
    }
    ir::VarPtr param(std::string name, Type t) {
        auto v = var(std::move(name), std::move(t), ir::Var::Role::Param);
        f_->params.push_back(v);
        if (v->type.is_pointer() && v->type.space == AddrSpace::Local) f_->uses_local_memory = true;
        return v;
    }
    ir::VarPtr local(std::string name, Type t, ir::Var::Role role = ir::Var::Role::Local) {
        auto v = var(std::move(name), std::move(t), role);
        f_->locals.push_back(v);
        if (v->type.is_matrix() && v->type.space == AddrSpace::Local) f_->uses_local_memory = true;
        return v;
    }
    ir::VarPtr hidden(std::string name, Type t) {
        return local(std::move(name), std::move(t), ir::Var::Role::Hidden);
    }
    FnBuilder &add(ir::StmtPtr s) {
        f_->body.push_back(std::move(s));
        return *this;
    }
    std::shared_ptr<ir::Function> done() { return f_; }

private:
    static ir::VarPtr var(std::string name, Type t, ir::Var::Role role) {
        auto v = std::make_shared<ir::Var>();
        v->name = std::move(name);
        v->type = std::move(t);
        v->role = role;
        return v;
    }
    std::shared_ptr<ir::Function> f_;
};

inline std::shared_ptr<ir::Module> module_of(std::vector<std::shared_ptr<ir::Function>> fns,
                                             std::shared_ptr<const SourceFile> src = nullptr) {
    auto m = std::make_shared<ir::Module>();
    m->functions = std::move(fns);
    m->source = std::move(src);
    return m;
}

// A module with one function `f() -> e.type` whose body is `return e`; handy for folding.
inline std::shared_ptr<ir::Module> returning(const ir::ExprPtr &e) {
    FnBuilder f("f", e->type);
    f.add(ir::Stmt::return_(e));
    return module_of({f.done()});
}

// The returned expression of the first function's first statement.
inline ir::ExprPtr returned(const ir::Module &m) {
    return m.functions.at(0)->body.at(0)->value;
}

} // namespace smelt::test
