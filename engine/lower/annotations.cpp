#include "lower/annotations.h"

#include <cctype>
#include <sstream>

namespace smelt::lower {

namespace {

std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::vector<std::string> split_names(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        item = trim(item);
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

std::optional<Type> maybe_single(std::optional<Type> t, bool single) {
    if (t && single) return demote_to_single(*t);
    return t;
}

// The decorator's name: `annotate`, `smelt.annotate`, `annotate(...)` → "annotate".
std::string decorator_name(const ast::Expr &d) {
    const ast::Expr *e = &d;
    if (e->kind == ast::ExprKind::Call) e = e->args[0].get();
    if (e->kind == ast::ExprKind::Name || e->kind == ast::ExprKind::Attribute) return e->name;
    return "";
}

int param_index(const ast::FunctionDef &fn, const std::string &name) {
    for (size_t i = 0; i < fn.params.size(); ++i)
        if (fn.params[i].name == name) return static_cast<int>(i);
    return -1;
}

// The type a default value implies: 0 → long, 0.0 → double, True → bool, [0.0] → doublep.
std::optional<Type> type_from_default(const ast::Expr &e, bool single) {
    using K = ast::ExprKind;
    const ast::Expr *v = &e;
    bool list = false;
    if (v->kind == K::Call && v->args[0]->kind == K::Name && v->args[0]->name == "__list__" &&
        v->args.size() == 2) {
        list = true;
        v = v->args[1].get();
    }
    if (v->kind == K::Unary && (v->op == "-" || v->op == "+")) v = v->args[0].get();
    std::optional<Scalar> s;
    if (v->kind == K::Int) s = Scalar::I64;
    if (v->kind == K::Float) s = Scalar::F64;
    if (v->kind == K::Bool) s = Scalar::Bool;
    if (!s) return std::nullopt;
    Type t = list ? Type::pointer(*s) : Type::scalar(*s);
    return maybe_single(t, single);
}

} // namespace

std::optional<Type> type_from_expr(const ast::Expr &e, bool single, DiagnosticSink &sink) {
    std::string name;
    if (e.kind == ast::ExprKind::Str || e.kind == ast::ExprKind::Name ||
        e.kind == ast::ExprKind::Attribute) {
        name = e.kind == ast::ExprKind::Str ? trim(e.str_value) : e.name;
    } else {
        sink.error(e.loc, "expected a type name such as 'int', 'double' or 'doublep'");
        return std::nullopt;
    }
    auto t = parse_type_name(name);
    if (!t) {
        sink.error(e.loc, "unknown type '" + name + "'");
        return std::nullopt;
    }
    return maybe_single(t, single);
}

DeclaredTypes read_declared_types(const ast::FunctionDef &fn, bool single, DiagnosticSink &sink) {
    DeclaredTypes out;
    out.params.resize(fn.params.size());
    out.defaults.resize(fn.params.size());
    auto set_param = [&](int idx, std::optional<Type> t, SourceLoc loc) {
        if (!t) return;
        if (out.params[idx] && *out.params[idx] != *t) {
            sink.error(loc, "parameter '" + fn.params[idx].name +
                                "' is given two different types (" + out.params[idx]->str() +
                                " and " + t->str() + ")");
            return;
        }
        out.params[idx] = t;
    };

    for (const auto &d : fn.decorators) {
        if (decorator_name(*d) != "annotate" || d->kind != ast::ExprKind::Call) continue;
        if (d->args.size() > 1)
            sink.error(d->args[1]->loc, "annotate() takes keyword arguments only, "
                                        "e.g. @annotate(i='int', x='doublep')");
        for (const auto &kw : d->keywords) {
            if (kw.name == "return_") {
                out.result = type_from_expr(*kw.value, single, sink);
                continue;
            }
            int idx = param_index(fn, kw.name);
            if (idx >= 0) { // i='int'
                set_param(idx, type_from_expr(*kw.value, single, sink), kw.loc);
                continue;
            }
            auto t = parse_type_name(kw.name);
            if (!t) {
                sink.error(kw.loc, "'" + kw.name + "' is neither a parameter of '" + fn.name +
                                       "' nor a type name");
                continue;
            }
            if (kw.value->kind != ast::ExprKind::Str) { // doublep='x, y'
                sink.error(kw.value->loc,
                           "expected a string of parameter names, e.g. " + kw.name + "='x, y'");
                continue;
            }
            for (const auto &pname : split_names(kw.value->str_value)) {
                if (pname == "return_") { // Compyle's int='n, return_': the result's type
                    out.result = maybe_single(t, single);
                    continue;
                }
                int p = param_index(fn, pname);
                if (p < 0) {
                    sink.error(kw.value->loc,
                               "'" + pname + "' is not a parameter of '" + fn.name + "'");
                    continue;
                }
                set_param(p, maybe_single(t, single), kw.value->loc);
            }
        }
    }
    for (size_t i = 0; i < fn.params.size(); ++i) {
        const auto &p = fn.params[i];
        if (p.annotation)
            set_param(static_cast<int>(i), type_from_expr(*p.annotation, single, sink),
                      p.annotation->loc);
        if (p.default_value) {
            auto t = type_from_default(*p.default_value, single);
            if (!t)
                sink.error(p.default_value->loc,
                           "a default value suggests a parameter's type, so it must be a number, a "
                           "bool or a one-element list such as [0.0]");
            if (!out.params[i]) out.defaults[i] = t;
        }
    }
    if (fn.returns && !out.result) out.result = type_from_expr(*fn.returns, single, sink);
    return out;
}

namespace {

// A tiny cursor over a declare() string.
struct DeclCursor {
    const std::string &s;
    size_t pos = 0;
    void skip_ws() {
        while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])))
            ++pos;
    }
    bool eat(char c) {
        skip_ws();
        if (pos < s.size() && s[pos] == c) {
            ++pos;
            return true;
        }
        return false;
    }
    std::string word() {
        skip_ws();
        size_t b = pos;
        while (pos < s.size() &&
               (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_'))
            ++pos;
        return s.substr(b, pos - b);
    }
    bool at_end() {
        skip_ws();
        return pos == s.size();
    }
};

std::optional<int64_t> extent(const std::string &w, const ast::Module &module) {
    if (w.empty()) return std::nullopt;
    if (std::isdigit(static_cast<unsigned char>(w[0]))) {
        for (char c : w)
            if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        return std::stoll(w);
    }
    const ast::Constant *c = module.resolve_constant(w);
    if (c && c->value->kind == ast::ExprKind::Int) return static_cast<int64_t>(c->value->int_value);
    return std::nullopt;
}

} // namespace

std::optional<DeclaredLocal> parse_declare_string(const std::string &text, bool single,
                                                  const ast::Module &module, std::string &error) {
    DeclCursor c{text};
    DeclaredLocal out;
    // A C spelling of several words ('unsigned int') is a scalar type as a whole.
    if (auto t = parse_type_name(trim(text)); t && t->is_scalar()) {
        out.type = single ? demote_to_single(*t) : *t;
        return out;
    }
    std::string w = c.word();
    if (w == "LOCAL_MEM") {
        out.local_mem = true;
        const size_t rest = c.pos;
        w = c.word();
        // 'LOCAL_MEM float', 'LOCAL_MEM unsigned int': one value shared by the work-group.
        if (auto t = parse_type_name(trim(text.substr(rest)));
            t && t->is_scalar() && w != "matrix") {
            out.type = single ? demote_to_single(*t) : *t;
            return out;
        }
    }
    if (w != "matrix") {
        auto t = parse_type_name(w);
        if (!t || !c.at_end() || out.local_mem) {
            error = "cannot declare '" + text +
                    "': expected a type such as 'int', 'double', "
                    "'matrix(3)', \"matrix((2, 2), 'int')\", 'LOCAL_MEM float' or "
                    "'LOCAL_MEM matrix(128)'";
            return std::nullopt;
        }
        out.type = single ? demote_to_single(*t) : *t;
        return out;
    }
    std::vector<int64_t> dims;
    bool ok = c.eat('(');
    if (ok && c.eat('(')) {
        do {
            auto e = extent(c.word(), module);
            if (!e)
                ok = false;
            else
                dims.push_back(*e);
        } while (ok && c.eat(','));
        ok = ok && c.eat(')');
    } else if (ok) {
        auto e = extent(c.word(), module);
        if (!e)
            ok = false;
        else
            dims.push_back(*e);
    }
    Scalar elem = Scalar::F64;
    if (ok && c.eat(',')) {
        char q = (c.eat('\'') ? '\'' : (c.eat('"') ? '"' : 0));
        auto t = parse_type_name(c.word());
        ok = q && t && t->is_scalar() && c.eat(q);
        if (ok) elem = t->elem;
    }
    ok = ok && c.eat(')') && c.at_end() && !dims.empty();
    for (auto d : dims)
        ok = ok && d > 0;
    if (!ok) {
        error = "cannot declare '" + text +
                "': a matrix needs positive constant extents, e.g. "
                "'matrix(3)' or \"matrix((2, 2), 'int')\"";
        return std::nullopt;
    }
    out.type = Type::matrix(elem, dims, out.local_mem ? AddrSpace::Local : AddrSpace::Private);
    if (single) out.type = demote_to_single(out.type);
    return out;
}

} // namespace smelt::lower
