#include "frontend/ast.h"

namespace smelt::ast {

namespace {
// Decorators that make a function a kernel: the project's own, Compyle's and ParPy's names,
// bare, called or dotted (`@annotate`, `@annotate(...)`, `@smelt.annotate(...)`). Other
// decorators (`@property`, `@functools.lru_cache`, ...) mark ordinary Python.
bool is_kernel_decorator(const Expr &e) {
    const Expr *d = &e;
    if (d->kind == ExprKind::Call && !d->args.empty()) d = d->args[0].get();
    if (d->kind != ExprKind::Name && d->kind != ExprKind::Attribute) return false;
    return d->name == "annotate" || d->name == "elementwise" || d->name == "jit" ||
           d->name == "kernel";
}
} // namespace

bool FunctionDef::is_annotated() const {
    for (const auto &d : decorators)
        if (d && is_kernel_decorator(*d)) return true;
    for (const auto &p : params)
        if (p.annotation) return true;
    return returns != nullptr;
}

// Python binds a name to its last definition, so the last one wins.
const FunctionDef *Module::find_function(const std::string &name) const {
    for (auto it = functions.rbegin(); it != functions.rend(); ++it)
        if ((*it)->name == name) return it->get();
    return nullptr;
}

const Constant *Module::find_constant(const std::string &name) const {
    for (auto it = constants.rbegin(); it != constants.rend(); ++it)
        if (it->name == name) return &*it;
    return nullptr;
}

} // namespace smelt::ast
