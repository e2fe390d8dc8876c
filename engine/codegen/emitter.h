// Internal to the code generator: the output buffer with #line bookkeeping and the emitter of
// one function (expressions in emit_expr.cpp, statements and the definition in emit_stmt.cpp).
#pragma once

#include "codegen/dialect.h"
#include "codegen/names.h"
#include "ir/ir.h"

#include <set>
#include <string>

namespace smelt::codegen::detail {

// Lines of source text at an indent. map() emits a #line directive before a statement, naming
// the location's own file (else `file`), unless the compiler already counts that line of that
// file for it; without a file name there are no directives.
class Output {
public:
    explicit Output(std::string file) : file_(std::move(file)) {}
    void map(SourceLoc loc);
    void line(const std::string &text);
    // Text written as it is (whole lines); line numbering is unknown after it.
    void raw(const std::string &text);
    void indent(int delta) { indent_ += delta; }
    const std::string &str() const { return text_; }

private:
    std::string file_;
    std::string text_;
    int indent_ = 0;
    int next_line_ = -1;      // the line number the compiler gives the next line; -1 unknown
    std::string mapped_file_; // the file name of the last directive
};

// "#line N \"file\"" with the file name escaped for a C string literal.
std::string line_directive(int line, const std::string &file);

// Drops one pair of parentheses around the whole of `s`, where it has them.
std::string strip_parens(const std::string &s);

class FunctionEmitter {
public:
    // `entry`: qualify with d.entry_qualifier instead of d.function_qualifier.
    FunctionEmitter(const ir::Module &m, const ir::Function &f, const Dialect &d,
                    const ModuleNames &names, Output &out, bool entry = false);

    std::string prototype() const;
    void emit_definition();

    // Fully parenthesised C text of an expression (emit_expr.cpp).
    std::string expr(const ir::Expr &e);
    // The same where C converts the value to a known type anyway (an argument, a subscript,
    // the right side of an assignment): outer parentheses dropped, and a small integer
    // literal spelled bare ("1" rather than "1LL").
    std::string converted(const ir::Expr &e);

private:
    std::string name(const ir::Var *v) const;
    std::string helper(const char *op, Scalar s) const; // "smelt_floordiv_i32"
    bool wraps_natively(Scalar s) const;
    std::string subscript(const ir::Var *v, const std::vector<ir::ExprPtr> &idx);
    // An array index: its int + and - exact, in 64 bits (exact_index_sum).
    std::string index(const ir::Expr &e);
    std::string exact_sum(const ir::Expr &e);
    std::string args(const std::vector<ir::ExprPtr> &a, size_t from = 0);
    std::string unary(const ir::Expr &e);
    std::string binary(const ir::Expr &e);
    std::string cast(const ir::Expr &e);
    std::string call(const ir::Expr &e);
    std::string builtin(const ir::Expr &e);
    std::string atomic(const ir::Expr &e);

    void declarations();
    void block(const ir::Block &b);
    void stmt(const ir::Stmt &s);
    void if_chain(const ir::Stmt &s);
    void for_loop(const ir::Stmt &s);

    const ir::Module &m_;
    const ir::Function &f_;
    const Dialect &d_;
    const ModuleNames &names_;
    const std::map<const ir::Var *, std::string> &vars_;
    Output &out_;
    bool entry_;
};

} // namespace smelt::codegen::detail
