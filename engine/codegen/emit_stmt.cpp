// Statements and function definitions → C text, with #line directives to the .py source.
#include "codegen/c_like.h"
#include "codegen/emitter.h"
#include "support/error.h"

#include <climits>
#include <functional>
#include <limits>

namespace smelt::codegen::detail {

namespace {

// The smallest value of a signed integer type of `bits` bits (without negating INT64_MIN).
int64_t min_of_bits(int bits) {
    return bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
}

} // namespace

std::string line_directive(int line, const std::string &file) {
    std::string escaped;
    for (char c : file) {
        if (c == '\\' || c == '"') escaped += '\\';
        escaped += c;
    }
    return "#line " + std::to_string(line) + " \"" + escaped + "\"";
}

void Output::map(SourceLoc loc) {
    // A function imported from a kernel library maps to its own file.
    const std::string &file = loc.file ? loc.file->name() : file_;
    if (file.empty() || !loc.valid() || (next_line_ == loc.line && file == mapped_file_)) return;
    text_ += line_directive(loc.line, file) + "\n";
    next_line_ = loc.line;
    mapped_file_ = file;
}

void Output::line(const std::string &text) {
    if (!text.empty()) text_ += std::string(indent_ * 4, ' ') + text;
    text_ += "\n";
    if (next_line_ >= 0) ++next_line_;
}

void Output::raw(const std::string &text) {
    text_ += text;
    next_line_ = -1;
    mapped_file_.clear();
}

std::string strip_parens(const std::string &s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0 && i + 1 != s.size()) return s; // "(a) + (b)"
    }
    return s.substr(1, s.size() - 2);
}

namespace {

// Which variables the body reads and which it writes, to declare only what is used and to
// mark write-only locals (a user's unused loop variable) so compilers do not warn.
struct Usage {
    std::set<const ir::Var *> read, written;

    void expr(const ir::Expr &e) {
        if (e.var) read.insert(e.var.get());
        for (const auto &a : e.args)
            expr(*a);
    }
    void block(const ir::Block &b) {
        for (const auto &s : b)
            stmt(*s);
    }
    void stmt(const ir::Stmt &s) {
        for (const ir::ExprPtr &e : {s.value, s.cond, s.start, s.stop, s.step})
            if (e) expr(*e);
        for (const auto &i : s.indices)
            expr(*i);
        if (s.kind == ir::StmtKind::Assign || s.kind == ir::StmtKind::Store)
            written.insert(s.var.get());
        if (s.kind == ir::StmtKind::For) {
            written.insert(s.var.get());
            read.insert(s.var.get()); // by the loop condition
        }
        block(s.body);
        block(s.orelse);
    }
};

} // namespace

FunctionEmitter::FunctionEmitter(const ir::Module &m, const ir::Function &f, const Dialect &d,
                                 const ModuleNames &names, Output &out, bool entry)
    : m_(m), f_(f), d_(d), names_(names), vars_(names.vars.at(&f)), out_(out), entry_(entry) {}

std::string FunctionEmitter::name(const ir::Var *v) const {
    auto it = vars_.find(v);
    SMELT_INTERNAL_ASSERT(it != vars_.end(), "variable '" << (v ? v->name : "?")
                                                          << "' is not declared in '" << f_.name
                                                          << "'");
    return it->second;
}

std::string FunctionEmitter::prototype() const {
    std::string params;
    for (const auto &p : f_.params) {
        if (!params.empty()) params += ", ";
        params += parameter_declaration(d_, p->type, name(p.get()));
    }
    if (params.empty()) params = "void";
    const std::string &qualifier = entry_ ? d_.entry_qualifier : d_.function_qualifier;
    std::string q = qualifier.empty() ? "" : qualifier + " ";
    return q + type_name(d_, f_.return_type) + " " + names_.functions.at(f_.name) + "(" + params +
           ")";
}

void FunctionEmitter::declarations() {
    Usage use;
    use.block(f_.body);
    for (const auto &v : f_.locals) {
        bool read = use.read.count(v.get()), written = use.written.count(v.get());
        if (!read && !written) continue;
        std::string decl = declaration(d_, v->type, name(v.get()));
        if (v->type.is_matrix()) {
            // Local memory cannot be initialised; private matrices start zeroed, as NumPy's
            // zeros would in CPython.
            if (v->type.space != AddrSpace::Local) decl += d_.array_zero_init;
        } else {
            decl += " = 0";
        }
        if (!read && !d_.maybe_unused.empty()) decl = d_.maybe_unused + " " + decl;
        out_.line(decl + ";");
    }
}

void FunctionEmitter::emit_definition() {
    out_.map(f_.loc);
    out_.line(prototype() + " {");
    out_.indent(1);
    declarations();
    block(f_.body);
    // Flowing off the end of a non-void function is undefined behaviour in C++; the frontend
    // guarantees a return on every path, but the compiler cannot always see it.
    bool ends_in_return = !f_.body.empty() && f_.body.back()->kind == ir::StmtKind::Return;
    if (!f_.return_type.is_void() && !ends_in_return) out_.line("return 0;");
    out_.indent(-1);
    out_.line("}");
}

void FunctionEmitter::block(const ir::Block &b) {
    for (const auto &s : b)
        stmt(*s);
}

void FunctionEmitter::stmt(const ir::Stmt &s) {
    using ir::StmtKind;
    out_.map(s.loc);
    switch (s.kind) {
    case StmtKind::Assign:
        out_.line(name(s.var.get()) + " = " + converted(*s.value) + ";");
        return;
    case StmtKind::Store:
        out_.line(subscript(s.var.get(), s.indices) + " = " + converted(*s.value) + ";");
        return;
    case StmtKind::If:
        if_chain(s);
        return;
    case StmtKind::While:
        out_.line("while (" + strip_parens(expr(*s.cond)) + ") {");
        out_.indent(1);
        block(s.body);
        out_.indent(-1);
        out_.line("}");
        return;
    case StmtKind::For:
        for_loop(s);
        return;
    case StmtKind::Break:
        out_.line("break;");
        return;
    case StmtKind::Continue:
        out_.line("continue;");
        return;
    case StmtKind::Return:
        out_.line(s.value ? "return " + converted(*s.value) + ";" : "return;");
        return;
    case StmtKind::Eval: {
        std::string v = strip_parens(expr(*s.value));
        bool effect = s.value->kind == ir::ExprKind::Call || s.value->kind == ir::ExprKind::Atomic;
        out_.line(effect ? v + ";" : "(void)(" + v + ");");
        return;
    }
    }
}

// if / else if / else: an else branch that is a single if continues the chain, as elif did.
void FunctionEmitter::if_chain(const ir::Stmt &s) {
    out_.line("if (" + strip_parens(expr(*s.cond)) + ") {");
    const ir::Stmt *cur = &s;
    for (;;) {
        out_.indent(1);
        block(cur->body);
        out_.indent(-1);
        if (cur->orelse.size() == 1 && cur->orelse[0]->kind == ir::StmtKind::If) {
            cur = cur->orelse[0].get();
            out_.map(cur->loc);
            out_.line("} else if (" + strip_parens(expr(*cur->cond)) + ") {");
            continue;
        }
        break;
    }
    if (!cur->orelse.empty()) {
        out_.line("} else {");
        out_.indent(1);
        block(cur->orelse);
        out_.indent(-1);
    }
    out_.line("}");
}

// Python's range: counts up while c < stop for a positive step, down while c > stop for a
// negative one; a zero runtime step runs no iteration (Python raises ValueError). The counter
// itself does not wrap: a range whose last step passes the counter type's limit is undefined.
void FunctionEmitter::for_loop(const ir::Stmt &s) {
    std::string c = name(s.var.get());
    std::string start = converted(*s.start);
    std::string stop = converted(*s.stop); // compared with the counter: converted to its type
    std::string step = expr(*s.step);
    Scalar t = s.var->type.elem;
    std::string cond, inc;
    if (s.step->is_const()) {
        int64_t v = s.step->int_value;
        bool up = !scalar_is_signed(t) || v > 0;
        cond = c + (up ? " < " : " > ") + stop;
        if (v == 1) {
            inc = "++" + c;
        } else if (v == -1 && scalar_is_signed(t)) {
            inc = "--" + c;
        } else if (!up && v > min_of_bits(scalar_bits(t))) { // -v fits the type
            inc = c + " -= " + (-v <= INT32_MAX ? std::to_string(-v) : int_literal(d_, t, -v));
        } else {
            inc = c + " += " + converted(*s.step);
        }
    } else {
        if (scalar_is_signed(t)) {
            cond = "(" + step + " > 0) ? (" + c + " < " + stop + ") : (" + step + " < 0 && " + c +
                   " > " + stop + ")";
        } else {
            cond = c + " < " + stop; // an unsigned step is never negative
        }
        inc = c + " += " + step;
    }
    out_.line("for (" + c + " = " + start + "; " + cond + "; " + inc + ") {");
    out_.indent(1);
    block(s.body);
    out_.indent(-1);
    out_.line("}");
}

} // namespace smelt::codegen::detail
