#include "ir/printer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace smelt::ir {

const char *binary_op_symbol(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add:
        return "+";
    case BinaryOp::Sub:
        return "-";
    case BinaryOp::Mul:
        return "*";
    case BinaryOp::Div:
        return "/";
    case BinaryOp::FloorDiv:
        return "//";
    case BinaryOp::Mod:
        return "%";
    case BinaryOp::Pow:
        return "**";
    case BinaryOp::BitAnd:
        return "&";
    case BinaryOp::BitOr:
        return "|";
    case BinaryOp::BitXor:
        return "^";
    case BinaryOp::Shl:
        return "<<";
    case BinaryOp::Shr:
        return ">>";
    case BinaryOp::Eq:
        return "==";
    case BinaryOp::Ne:
        return "!=";
    case BinaryOp::Lt:
        return "<";
    case BinaryOp::Le:
        return "<=";
    case BinaryOp::Gt:
        return ">";
    case BinaryOp::Ge:
        return ">=";
    case BinaryOp::And:
        return "and";
    case BinaryOp::Or:
        return "or";
    case BinaryOp::Min:
        return "min";
    case BinaryOp::Max:
        return "max";
    }
    return "?";
}

const char *unary_op_symbol(UnaryOp op) {
    switch (op) {
    case UnaryOp::Neg:
        return "-";
    case UnaryOp::BitNot:
        return "~";
    case UnaryOp::Not:
        return "not ";
    }
    return "?";
}

const char *atomic_op_name(AtomicOp op) {
    switch (op) {
    case AtomicOp::Inc:
        return "atomic_inc";
    case AtomicOp::Dec:
        return "atomic_dec";
    case AtomicOp::Add:
        return "atomic_add";
    }
    return "?";
}

std::string float_text(double v, Scalar s) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    bool single = s == Scalar::F32;
    char buf[64];
    // The shortest precision that reads back exactly, so 0.1 prints as "0.1".
    for (int prec = 1; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, v);
        bool same = single ? std::strtof(buf, nullptr) == static_cast<float>(v)
                           : std::strtod(buf, nullptr) == v;
        if (same) break;
    }
    std::string out = buf;
    if (out.find_first_of(".en") == std::string::npos) out += ".0";
    return out;
}

namespace {

std::string const_text(const Expr &e) {
    if (e.type.is_bool()) return e.int_value ? "True" : "False";
    std::string v;
    if (e.type.is_float()) {
        v = float_text(e.float_value, e.type.elem);
    } else if (e.type.elem == Scalar::U64) {
        v = std::to_string(static_cast<uint64_t>(e.int_value));
    } else {
        v = std::to_string(e.int_value);
    }
    return v + ":" + e.type.str();
}

std::string args_text(const std::vector<ExprPtr> &args, size_t from = 0) {
    std::string out;
    for (size_t i = from; i < args.size(); ++i) {
        if (i > from) out += ", ";
        out += print_expr(*args[i]);
    }
    return out;
}

std::string subscript(const std::string &name, const std::vector<ExprPtr> &idx) {
    std::string out = name;
    for (const auto &i : idx)
        out += "[" + print_expr(*i) + "]";
    return out;
}

std::string line_comment(SourceLoc loc) {
    return loc.valid() ? "  # L" + std::to_string(loc.line) : "";
}

void print_block(std::string &out, const Block &b, int indent) {
    if (b.empty()) {
        out += std::string(indent * 4, ' ') + "pass\n";
        return;
    }
    for (const auto &s : b)
        out += print_stmt(*s, indent);
}

} // namespace

std::string print_expr(const Expr &e) {
    std::string t = ":" + e.type.str();
    switch (e.kind) {
    case ExprKind::Const:
        return const_text(e);
    case ExprKind::VarRef:
        return e.var->name;
    case ExprKind::Cast:
        return e.type.str() + "(" + print_expr(*e.args[0]) + ")";
    case ExprKind::Unary: {
        std::string inner =
            std::string("(") + unary_op_symbol(e.unary_op) + print_expr(*e.args[0]) + ")";
        return e.unary_op == UnaryOp::Not ? inner : inner + t;
    }
    case ExprKind::Binary: {
        BinaryOp op = e.binary_op;
        if (op == BinaryOp::Min || op == BinaryOp::Max)
            return std::string(binary_op_symbol(op)) + "(" + args_text(e.args) + ")" + t;
        std::string inner = "(" + print_expr(*e.args[0]) + " " + binary_op_symbol(op) + " " +
                            print_expr(*e.args[1]) + ")";
        return e.type.is_bool() ? inner : inner + t; // comparisons and and/or are bool
    }
    case ExprKind::Select:
        return "(" + print_expr(*e.args[1]) + " if " + print_expr(*e.args[0]) + " else " +
               print_expr(*e.args[2]) + ")" + t;
    case ExprKind::Load:
        return subscript(e.var->name, e.args);
    case ExprKind::Call:
        return e.callee + "(" + args_text(e.args) + ")" + t;
    case ExprKind::Atomic: {
        std::string out =
            std::string(atomic_op_name(e.atomic_op)) + "(" + subscript(e.var->name, {e.args[0]});
        if (e.args.size() > 1) out += ", " + print_expr(*e.args[1]);
        return out + ")" + t;
    }
    }
    return "?";
}

std::string print_stmt(const Stmt &s, int indent) {
    std::string pad(indent * 4, ' ');
    std::string lc = line_comment(s.loc);
    switch (s.kind) {
    case StmtKind::Assign:
        return pad + s.var->name + " = " + print_expr(*s.value) + lc + "\n";
    case StmtKind::Store:
        return pad + subscript(s.var->name, s.indices) + " = " + print_expr(*s.value) + lc + "\n";
    case StmtKind::If: {
        std::string out = pad + "if " + print_expr(*s.cond) + ":" + lc + "\n";
        print_block(out, s.body, indent + 1);
        if (!s.orelse.empty()) {
            out += pad + "else:\n";
            print_block(out, s.orelse, indent + 1);
        }
        return out;
    }
    case StmtKind::While: {
        std::string out = pad + "while " + print_expr(*s.cond) + ":" + lc + "\n";
        print_block(out, s.body, indent + 1);
        return out;
    }
    case StmtKind::For: {
        std::string out;
        for (const auto &l : s.labels)
            out += pad + "label " + l + "\n";
        out += pad + "for " + s.var->name + " in range(" + print_expr(*s.start) + ", " +
               print_expr(*s.stop) + ", " + print_expr(*s.step) + "):" + lc + "\n";
        print_block(out, s.body, indent + 1);
        return out;
    }
    case StmtKind::Break:
        return pad + "break" + lc + "\n";
    case StmtKind::Continue:
        return pad + "continue" + lc + "\n";
    case StmtKind::Return:
        return pad + "return" + (s.value ? " " + print_expr(*s.value) : "") + lc + "\n";
    case StmtKind::Eval:
        return pad + print_expr(*s.value) + lc + "\n";
    }
    return pad + "?\n";
}

std::string print_function(const Function &f) {
    std::string out = "def " + f.name + "(";
    for (size_t i = 0; i < f.params.size(); ++i) {
        if (i) out += ", ";
        out += f.params[i]->name + ": " + f.params[i]->type.str();
    }
    out += ") -> " + f.return_type.str() + ":" + line_comment(f.loc);
    if (f.uses_local_memory) out += "  # uses local memory";
    out += "\n";
    for (const auto &v : f.locals) {
        out += "    " + v->name + ": " + v->type.str();
        if (v->role == Var::Role::Hidden) out += "  # hidden";
        out += "\n";
    }
    print_block(out, f.body, 1);
    return out;
}

std::string print(const Module &m) {
    std::string out;
    for (size_t i = 0; i < m.functions.size(); ++i) {
        if (i) out += "\n";
        out += print_function(*m.functions[i]);
    }
    return out;
}

} // namespace smelt::ir
