// The untyped syntax tree of a kernel file. Every node carries the SourceLoc of its first token.
// Only the restricted kernel grammar has nodes here; everything else is rejected by the parser.
#pragma once

#include "frontend/external.h"

#include "support/error.h"
#include "support/source.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
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
    Binary,  // args[0] op args[1]; op is "+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<",
             // ">>"
    BoolOp,  // args[0] op args[1] op ...; op is "and" or "or"
    Compare, // args[0] ops[0] args[1] ops[1] args[2] ...; ops are "==", "!=", "<", "<=", ">", ">="
    IfExp,   // args[1] if args[0] else args[2]
    Call,    // args[0](args[1:]); keywords in `keywords`
    Slice,   // lo:hi:step as an index (ParPy files only); int_value says which parts are
             // present (kSliceLo | kSliceHi | kSliceStep), args holds those present, in order
};

constexpr uint64_t kSliceLo = 1, kSliceHi = 2, kSliceStep = 4;

struct Keyword {
    std::string name;
    ExprPtr value;
    SourceLoc loc;
};

struct Expr {
    ExprKind kind;
    SourceLoc loc;
    std::string op;               // Unary, Binary, BoolOp
    std::vector<std::string> ops; // Compare
    std::string name;             // Name, Attribute (the attribute name)
    std::string str_value;        // Str
    uint64_t int_value = 0;       // Int (non-negative: a minus sign is a Unary node)
    double float_value = 0.0;     // Float
    bool bool_value = false;      // Bool
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords; // Call
    // Levels of operations from this node down to its deepest leaf, counted as lowering and code
    // generation will nest them (a chain a + b + c is two levels, a < b < c two). The parser
    // bounds it (docs/LANGUAGE.md, "Limits"), so the recursive passes after it cannot overflow.
    int depth = 1;

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
    Return, // value may be null
    Pass,
    ExprStmt, // value
};

struct Stmt {
    StmtKind kind;
    SourceLoc loc;
    std::vector<ExprPtr> targets;
    ExprPtr value;
    ExprPtr annotation;              // AnnAssign
    std::string op;                  // AugAssign
    ExprPtr cond;                    // If, While
    std::vector<ExprPtr> range_args; // For: 1 to 3 arguments of range()
    Block body;
    Block orelse;
    // Compound statements (if, elif, while, for) nested in this one, itself included: 0 for a
    // simple statement. An elif is an If nested in the orelse of the one before it. Bounded by
    // the parser, like Expr::depth.
    int depth = 0;

    Stmt(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
};

struct Param {
    std::string name;
    SourceLoc loc;
    ExprPtr annotation;    // Python 3 annotation, may be null
    ExprPtr default_value; // may be null
};

struct Module;

struct FunctionDef {
    const Module *module = nullptr; // the file it is defined in
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
    const Module *module = nullptr; // the file it is defined in
    std::string name;
    SourceLoc loc;
    ExprPtr value;
};

// One name of `from MODULE import NAME [as ALIAS]`.
struct ImportedName {
    std::string name;  // in the imported module
    std::string alias; // the name bound here (`name` when there is no `as`)
    SourceLoc loc;     // of `name`
};

// `from [.]*MODULE import ...`. `import MODULE` statements are not kept here: a kernel cannot use
// what they bind (dotted names are not part of the language).
struct Import {
    std::string module; // dotted, without the leading dots ("" in `from . import x`)
    int level = 0;      // leading dots: 0 absolute, 1 the importing file's directory, ...
    bool star = false;  // `from MODULE import *`
    std::vector<ImportedName> names;
    SourceLoc loc; // of the module name
    // Set when the program is loaded (frontend/imports.h): the kernel file the module is, or
    // null when there is none (math, numpy, ...: an ordinary Python import). `searched` lists
    // the directories that were searched, for the error when a kernel calls such a name.
    const Module *resolved = nullptr;
    std::vector<std::string> searched;
};

// What a name means at the top level of a file, for kernels: a function or a numeric constant
// of some file of the program (null both when it is neither), and the import that brought it in
// when it is not the file's own (null for the file's own names and for unbound names).
struct Binding {
    const FunctionDef *function = nullptr;
    const Constant *constant = nullptr;
    const Import *import = nullptr;         // the first import on the way, in the asking file
    const ImportedName *imported = nullptr; // its name entry (null for a star import)
};

// One parsed file. A program is the main file plus the kernel files it imports (transitively);
// the main file owns the others (`imported_modules`), and each file's names are its own, as in
// Python: a function sees the functions and constants of its own file and what that file imports.
struct Module {
    std::shared_ptr<const SourceFile> source;
    std::vector<std::unique_ptr<FunctionDef>> functions; // in file order
    std::vector<Constant> constants;                     // module-level NAME = <expr>
    std::vector<std::string> imported_names;             // names bound by import statements
    std::vector<Import> imports;                         // `from ... import` statements
    // Every identifier in the file's top-level Python that is not a kernel construct (classes,
    // other assignments, `if` blocks, ...): a name imported from this file that is none of its
    // functions or constants is an error only when it is not even among these.
    std::set<std::string> other_names;
    // Names bound to ParPy's module (`import smelt.parpy as parpy`, `import parpy`,
    // `from smelt import parpy`): the file may use its loop-parallel syntax (parpy.label,
    // slices, `with parpy.gpu:`, parpy.sum, ...; docs/LANGUAGE.md, "Loop-parallel functions").
    std::set<std::string> parpy_names;
    // On the main file only: the other files of the program, in the order they were found.
    std::vector<std::shared_ptr<const Module>> imported_modules;
    // On the main file only: the external functions every kernel of the program may call
    // (ProgramOptions::externals), checked by lower::check_externals.
    std::vector<External> externals;

    // This file's own definitions (the last one of a name wins, as in Python).
    const FunctionDef *find_function(const std::string &name) const;
    const Constant *find_constant(const std::string &name) const;

    // What `name` means in this file: its own function or constant first, else a name it
    // imports from a kernel file (followed through that file's own imports).
    Binding resolve(const std::string &name) const;
    const FunctionDef *resolve_function(const std::string &name) const {
        return resolve(name).function;
    }
    const Constant *resolve_constant(const std::string &name) const {
        return resolve(name).constant;
    }
    // The `from ... import` that binds `name` in this file (the last one), or null.
    const Import *import_of(const std::string &name, const ImportedName **entry = nullptr) const;

    // The files of the program, this one first (call it on the main file).
    std::vector<const Module *> program_modules() const;
};

} // namespace smelt::ast
