// Module emission and the spelling helpers shared with primitive wrappers.
#include "codegen/c_like.h"

#include "codegen/emitter.h"
#include "codegen/names.h"
#include "ir/printer.h"
#include "support/error.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace smelt::codegen {

std::string type_name(const Dialect &d, const Type &t) {
    switch (t.kind) {
    case Type::Kind::Void:
        return "void";
    case Type::Kind::Scalar:
        return d.type(t.elem);
    case Type::Kind::Matrix:
        // A global matrix is passed as a flat pointer (emit_expr flattens its indices).
        if (t.is_global_matrix()) return type_name(d, Type::pointer(t.elem));
        return d.type(t.elem);
    case Type::Kind::Pointer: {
        const std::string &space =
            t.space == AddrSpace::Local ? d.local_pointer_space : d.global_pointer_space;
        return (space.empty() ? "" : space + " ") + d.type(t.elem) + " *";
    }
    }
    return "?";
}

std::string declaration(const Dialect &d, const Type &t, const std::string &name) {
    if (t.is_buffer()) return type_name(d, t) + name; // "double *x"
    std::string out = type_name(d, t) + " " + name;
    if (!t.is_matrix()) return out;
    for (int64_t n : t.dims)
        out += "[" + std::to_string(n) + "]";
    if (t.space == AddrSpace::Local) {
        SMELT_INTERNAL_ASSERT(!d.local_array_space.empty(),
                              "LOCAL_MEM matrix '" << name << "' in the " << d.name << " dialect");
        out = d.local_array_space + " " + out;
    }
    return out;
}

std::string parameter_declaration(const Dialect &d, const Type &t, const std::string &name) {
    if (!t.is_matrix() || t.is_global_matrix()) return declaration(d, t, name);
    std::string out = type_name(d, t) + " " + name;
    for (int64_t n : t.dims)
        out += "[" + std::to_string(n) + "]";
    if (t.space == AddrSpace::Local && !d.local_pointer_space.empty())
        out = d.local_pointer_space + " " + out;
    return out;
}

std::string int_literal(const Dialect &d, Scalar s, int64_t v) {
    if (s == Scalar::Bool) return v ? "true" : "false";
    SMELT_INTERNAL_ASSERT(scalar_is_integer(s), "integer literal of type " << scalar_name(s));
    // 8- and 16-bit literals do not exist in C: cast an int literal.
    if (scalar_bits(s) < 32) return "((" + d.type(s) + ")" + std::to_string(v) + ")";
    const std::string &suffix = d.int_literal_suffix[static_cast<size_t>(s)];
    if (!scalar_is_signed(s)) return std::to_string(static_cast<uint64_t>(v)) + suffix;
    if (v >= 0) return std::to_string(v) + suffix;
    // The most negative value has no positive literal: write it as (-MAX - 1).
    int64_t min = scalar_bits(s) == 64 ? INT64_MIN : -(int64_t(1) << (scalar_bits(s) - 1));
    if (v == min) return "(-" + std::to_string(-(v + 1)) + suffix + " - 1)";
    return "(-" + std::to_string(-v) + suffix + ")";
}

std::string float_literal(const Dialect &d, Scalar s, double v) {
    SMELT_INTERNAL_ASSERT(scalar_is_float(s), "float literal of type " << scalar_name(s));
    std::string upper = s == Scalar::F32 ? "F32" : "F64";
    if (std::isnan(v)) return "SMELT_NAN_" + upper;
    if (std::isinf(v)) return v < 0 ? "(-SMELT_INF_" + upper + ")" : "SMELT_INF_" + upper;
    std::string text = ir::float_text(v, s); // shortest text that reads back exactly
    if (s == Scalar::F32) text += d.float_literal_suffix;
    return std::signbit(v) ? "(" + text + ")" : text;
}

namespace {

void for_each_expr(const ir::Expr &e, const std::function<void(const ir::Expr &)> &fn) {
    fn(e);
    for (const auto &a : e.args)
        for_each_expr(*a, fn);
}

void for_each_expr(const ir::Block &b, const std::function<void(const ir::Expr &)> &fn) {
    for (const auto &s : b) {
        for (const ir::ExprPtr &e : {s->value, s->cond, s->start, s->stop, s->step})
            if (e) for_each_expr(*e, fn);
        for (const auto &i : s->indices)
            for_each_expr(*i, fn);
        for_each_expr(s->body, fn);
        for_each_expr(s->orelse, fn);
    }
}

// True when some function calls one defined after it (mutual recursion, or a module not in
// callee-first order): then prototypes go first.
bool needs_prototypes(const ir::Module &m) {
    bool later = false;
    for (size_t i = 0; i < m.functions.size(); ++i) {
        for_each_expr(m.functions[i]->body, [&](const ir::Expr &e) {
            if (e.kind != ir::ExprKind::Call || e.is_builtin) return;
            for (size_t j = i + 1; j < m.functions.size(); ++j)
                if (m.functions[j]->name == e.callee) later = true;
        });
    }
    return later;
}

} // namespace

std::string emit_module(const ir::Module &m, const Dialect &d,
                        const std::set<std::string> &entry_points) {
    for (const auto &e : entry_points)
        SMELT_INTERNAL_ASSERT(m.find(e), "entry point '" << e << "' is not in the module");
    ModuleNames names = name_module(m);
    detail::Output out(m.source ? m.source->name() : "");
    auto emitter = [&](const ir::Function &f) {
        return detail::FunctionEmitter(m, f, d, names, out, entry_points.count(f.name) > 0);
    };
    if (needs_prototypes(m)) {
        for (const auto &f : m.functions)
            out.line(emitter(*f).prototype() + ";");
        out.line("");
    }
    for (size_t i = 0; i < m.functions.size(); ++i) {
        if (i) out.line("");
        emitter(*m.functions[i]).emit_definition();
    }
    return out.str();
}

bool uses_scalar(const ir::Module &m, Scalar s) {
    auto is = [s](const Type &t) { return !t.is_void() && t.elem == s; };
    bool found = false;
    for (const auto &f : m.functions) {
        found = found || is(f->return_type);
        for (const auto &v : f->params)
            found = found || is(v->type);
        for (const auto &v : f->locals)
            found = found || is(v->type);
        for_each_expr(f->body, [&](const ir::Expr &e) { found = found || is(e.type); });
    }
    return found;
}

std::string function_symbol(const ir::Module &m, const std::string &name) {
    SMELT_INTERNAL_ASSERT(m.find(name), "no function '" << name << "' in the module");
    return name_module(m).functions.at(name);
}

std::string call_function(const ir::Module &m, const std::string &name,
                          const std::vector<std::string> &args) {
    std::string out = function_symbol(m, name) + "(";
    for (size_t i = 0; i < args.size(); ++i)
        out += (i ? ", " : "") + args[i];
    return out + ")";
}

std::string line_mapping_reset(const std::string &text_so_far, const std::string &tu_name) {
    std::string prefix = !text_so_far.empty() && text_so_far.back() != '\n' ? "\n" : "";
    size_t lines = std::count(text_so_far.begin(), text_so_far.end(), '\n') + prefix.size();
    // The directive sits on line lines + 1 and names the line after it.
    return prefix + detail::line_directive(static_cast<int>(lines) + 2, tu_name) + "\n";
}

} // namespace smelt::codegen
