// The untyped syntax tree of a kernel file. Every node carries the SourceLoc of its first token.
// Only the restricted kernel grammar has nodes here; everything else is rejected by the parser.
#pragma once

#include "support/error.h"
#include "support/source.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace smelt::ast {

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

enum class ExprKind {
    Int,       // int_value
    Float,     // float_value
    Bool,      // bool_value
    Str,       // str_value (only meaningful as an argument of declare/annotate/cast)
    Name,      // name
    Attribute, // args[0].name (kept so "math.sin" can be rejected with a hint)
    Subscript, // args[0][args[1]]
    Unary,     // op args[0]; op is "-", "+", "~", "not"
    Binary,    // args[0] op args[1]; op is "+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"
    BoolOp,    // args[0] op args[1] op ...; op is "and" or "or"
    Compare,   // args[0] ops[0] args[1] ops[1] args[2] ...; ops are "==", "!=", "<", "<=", ">", ">="
    IfExp,     // args[1] if args[0] else args[2]
    Call,      // args[0](args[1:]); keywords in `keywords`
};

struct Keyword {
    std::string name;
    ExprPtr value;
    SourceLoc loc;
};

struct Expr {
    ExprKind kind;
    SourceLoc loc;
    std::string op;              // Unary, Binary, BoolOp
    std::vector<std::string> ops; // Compare
    std::string name;            // Name, Attribute (the attribute name)
    std::string str_value;       // Str
    uint64_t int_value = 0;      // Int (non-negative: a minus sign is a Unary node)
    double float_value = 0.0;    // Float
    bool bool_value = false;     // Bool
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords; // Call

    Expr(ExprKind k, SourceLoc l) : kind(k), loc(l) {}
};

enum class StmtKind {
    Assign,    // targets = value (targets.size() > 1 for `a, b = declare('int', 2)`)
    AnnAssign, // targets[0]: annotation = value (value may be null)
    AugAssign, // targets[0] op= value; op without "=" ("+", "//", ...)
    If,        // if cond: body else: orelse (elif becomes a nested If in orelse)
    While,     // while cond: body
    For,       // for targets[0] in range(range_args...): body
    Break,
    Continue,
    Return,    // value may be null
    Pass,
    ExprStmt,  // value
};

struct Stmt {
    StmtKind kind;
    SourceLoc loc;
    std::vector<ExprPtr> targets;
    ExprPtr value;
    ExprPtr annotation; // AnnAssign
    std::string op;     // AugAssign
    ExprPtr cond;       // If, While
    std::vector<ExprPtr> range_args; // For: 1 to 3 arguments of range()
    Block body;
    Block orelse;

    Stmt(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
};

struct Param {
    std::string name;
    SourceLoc loc;
    ExprPtr annotation; // Python 3 annotation, may be null
    ExprPtr default_value; // may be null
};

struct FunctionDef {
    std::string name;
    SourceLoc loc; // of the name after `def`
    std::vector<ExprPtr> decorators;
    std::vector<Param> params;
    ExprPtr returns; // `-> T`, may be null
    Block body;      // docstring removed
    // Errors found while parsing this function's body. They are reported only when the function
    // is compiled (a file may hold ordinary Python functions beside its kernels).
    std::vector<Diagnostic> errors;

    // True when the function is decorated (annotate, elementwise, jit, ...) or has annotations:
    // `smelt check` without --func checks exactly these.
    bool is_annotated() const;
};

struct Constant {
    std::string name;
    SourceLoc loc;
    ExprPtr value;
};

struct Module {
    std::shared_ptr<const SourceFile> source;
    std::vector<std::unique_ptr<FunctionDef>> functions; // in file order
    std::vector<Constant> constants;                     // module-level NAME = <expr>
    std::vector<std::string> imported_names;              // names bound by import statements

    const FunctionDef *find_function(const std::string &name) const;
    const Constant *find_constant(const std::string &name) const;
};

} // namespace smelt::ast
