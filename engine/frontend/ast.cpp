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

const Import *Module::import_of(const std::string &name, const ImportedName **entry) const {
    for (auto imp = imports.rbegin(); imp != imports.rend(); ++imp) // the last binding wins
        for (const auto &n : imp->names)
            if (n.alias == name) {
                if (entry) *entry = &n;
                return &*imp;
            }
    return nullptr;
}

namespace {

// `depth` bounds the walk through re-exports, so import cycles cannot loop.
Binding resolve_in(const Module &m, const std::string &name, int depth) {
    Binding b;
    if (depth > 64) return b;
    if ((b.function = m.find_function(name)) || (b.constant = m.find_constant(name))) return b;
    const ImportedName *entry = nullptr;
    if (const Import *imp = m.import_of(name, &entry)) {
        if (imp->resolved) b = resolve_in(*imp->resolved, entry->name, depth + 1);
        b.import = imp;
        b.imported = entry;
        return b;
    }
    // `from lib import *` binds every public name of lib.
    if (name.empty() || name[0] == '_') return b;
    for (const auto &imp : m.imports) {
        if (!imp.star || !imp.resolved) continue;
        Binding found = resolve_in(*imp.resolved, name, depth + 1);
        if (found.function || found.constant) {
            found.import = &imp;
            found.imported = nullptr;
            return found;
        }
    }
    return b;
}

} // namespace

Binding Module::resolve(const std::string &name) const {
    return resolve_in(*this, name, 0);
}

std::vector<const Module *> Module::program_modules() const {
    std::vector<const Module *> out{this};
    for (const auto &m : imported_modules)
        out.push_back(m.get());
    return out;
}

} // namespace smelt::ast
