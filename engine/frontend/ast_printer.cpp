#include "frontend/ast_printer.h"

#include <charconv>

namespace smelt::frontend {
namespace {

std::string quote(const std::string &s) {
    static const char kHex[] = "0123456789abcdef";
    std::string out = "'";
    for (char ch : s) {
        unsigned char u = static_cast<unsigned char>(ch);
        if (ch == '\\' || ch == '\'')
            out += std::string("\\") + ch;
        else if (ch == '\n')
            out += "\\n";
        else if (ch == '\t')
            out += "\\t";
        else if (u < 0x20 || u == 0x7f)
            out += std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
        else
            out += ch;
    }
    return out + "'";
}

// Shortest text that reads back to the same double, always with a '.' or an exponent.
std::string format_double(double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".eninf") == std::string::npos) s += ".0";
    return s;
}

class Printer {
public:
    std::string out;

    void line(int depth, const std::string &label, const std::string &text, SourceLoc loc) {
        out.append(2 * depth, ' ');
        if (!label.empty()) out += label + " ";
        out += text;
        out += loc.valid() ? " @" + std::to_string(loc.line) + ":" + std::to_string(loc.col)
                           : std::string(" @-");
        out += "\n";
    }

    void expr(int depth, const std::string &label, const ast::Expr &e) {
        using K = ast::ExprKind;
        std::string text;
        switch (e.kind) {
        case K::Int:
            text = "Int " + std::to_string(e.int_value);
            break;
        case K::Float:
            text = "Float " + format_double(e.float_value);
            break;
        case K::Bool:
            text = e.bool_value ? "Bool True" : "Bool False";
            break;
        case K::Str:
            text = "Str " + quote(e.str_value);
            break;
        case K::Name:
            text = "Name " + e.name;
            break;
        case K::Attribute:
            text = "Attribute " + e.name;
            break;
        case K::Subscript:
            text = "Subscript";
            break;
        case K::Unary:
            text = "Unary " + e.op;
            break;
        case K::Binary:
            text = "Binary " + e.op;
            break;
        case K::BoolOp:
            text = "BoolOp " + e.op;
            break;
        case K::Compare:
            text = "Compare";
            for (const auto &op : e.ops)
                text += " " + op;
            break;
        case K::IfExp:
            text = "IfExp";
            break;
        case K::Slice:
            text = std::string("Slice") + (e.int_value & ast::kSliceLo ? " lo" : "") +
                   (e.int_value & ast::kSliceHi ? " hi" : "") +
                   (e.int_value & ast::kSliceStep ? " step" : "");
            break;
        case K::Call:
            text = "Call";
            break;
        }
        line(depth, label, text, e.loc);
        if (e.kind == K::IfExp) { // args are (test, body, orelse)
            expr(depth + 1, "test", *e.args[0]);
            expr(depth + 1, "body", *e.args[1]);
            expr(depth + 1, "orelse", *e.args[2]);
            return;
        }
        for (const auto &a : e.args)
            expr(depth + 1, "", *a);
        for (const auto &k : e.keywords) {
            line(depth + 1, "keyword", k.name, k.loc);
            expr(depth + 2, "", *k.value);
        }
    }

    void block(int depth, const std::string &label, const ast::Block &b) {
        for (const auto &s : b)
            stmt(depth, label, *s);
    }

    void stmt(int depth, const std::string &label, const ast::Stmt &s) {
        using K = ast::StmtKind;
        static const char *const kNames[] = {"Assign", "AnnAssign", "AugAssign", "If",
                                             "While",  "For",       "Break",     "Continue",
                                             "Return", "Pass",      "Expr"};
        std::string text = kNames[static_cast<int>(s.kind)];
        if (s.kind == K::AugAssign) text += " " + s.op + "=";
        line(depth, label, text, s.loc);
        for (const auto &t : s.targets)
            expr(depth + 1, "target", *t);
        if (s.annotation) expr(depth + 1, "annotation", *s.annotation);
        if (s.cond) expr(depth + 1, "cond", *s.cond);
        for (const auto &r : s.range_args)
            expr(depth + 1, "range", *r);
        if (s.value) expr(depth + 1, "value", *s.value);
        block(depth + 1, "", s.body);
        block(depth + 1, "else", s.orelse);
    }

    void function(const ast::FunctionDef &f) {
        line(0, "", "FunctionDef " + f.name, f.loc);
        for (const auto &d : f.decorators)
            expr(1, "decorator", *d);
        for (const auto &p : f.params) {
            line(1, "param", p.name, p.loc);
            if (p.annotation) expr(2, "annotation", *p.annotation);
            if (p.default_value) expr(2, "default", *p.default_value);
        }
        if (f.returns) expr(1, "returns", *f.returns);
        block(1, "", f.body);
        for (const auto &d : f.errors)
            line(1, "error", quote(d.message), d.loc);
    }
};

} // namespace

std::string print_ast(const ast::Module &m) {
    Printer p;
    for (const auto &name : m.imported_names)
        p.line(0, "", "Import " + name, {});
    for (const auto &c : m.constants) {
        p.line(0, "", "Constant " + c.name, c.loc);
        p.expr(1, "value", *c.value);
    }
    for (const auto &f : m.functions)
        p.function(*f);
    return p.out;
}

std::string print_expr(const ast::Expr &e) {
    Printer p;
    p.expr(0, "", e);
    return p.out;
}

std::string print_stmt(const ast::Stmt &s) {
    Printer p;
    p.stmt(0, "", s);
    return p.out;
}

} // namespace smelt::frontend
