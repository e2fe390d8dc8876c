// The recursive-descent parser behind frontend::parse(). Internal to the frontend; split over
// parser.cpp (tokens, recovery, module level), parse_function.cpp (def lines and decorators),
// parse_stmt.cpp (statements) and parse_expr.cpp (expressions).
#pragma once

#include "frontend/ast.h"
#include "frontend/token.h"
#include "support/error.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace smelt::frontend::detail {

// A syntax error at one location. Thrown inside the parser and caught at statement level (the
// statement is dropped and parsing goes on) or at module level (the file is unreadable).
struct ParseError {
    SourceLoc loc;
    std::string message;
};

bool is_keyword(const std::string &word);

class Parser {
public:
    Parser(std::shared_ptr<const SourceFile> file, std::vector<Token> tokens,
           DiagnosticSink &module_errors)
        : file_(std::move(file)), tokens_(std::move(tokens)), module_errors_(module_errors) {}

    std::shared_ptr<ast::Module> parse_module();

private:
    // --- tokens (parser.cpp)
    const Token &peek(size_t ahead = 0) const;
    const Token &advance();
    bool at(TokenKind kind) const { return peek().kind == kind; }
    bool at_op(const char *op, size_t ahead = 0) const { return peek(ahead).is_op(op); }
    bool at_name(const char *name, size_t ahead = 0) const { return peek(ahead).is_name(name); }
    bool accept_op(const char *op);
    bool accept_name(const char *name);
    const Token &expect_op(const char *op);
    const Token &expect_newline();
    [[noreturn]] void fail(SourceLoc loc, std::string message) const;
    [[noreturn]] void fail_unexpected() const; // "invalid syntax" at the current token
    ast::ExprPtr make(ast::ExprKind kind, SourceLoc loc) const;

    // --- recovery (parser.cpp)
    void skip_line();                            // to and over the next NEWLINE
    void skip_block();                           // at INDENT: over the block and its DEDENT
    void skip_balanced_until(const char *stops); // to a stop character outside brackets
    void skip_statement();                       // the line, then its indented block if any
    void skip_clauses(); // elif/else/except/finally clauses after a skipped statement
    // skip_statement() at top level, remembering the names in it (ast::Module::other_names).
    void skip_python_statement(ast::Module &m);

    // --- module level (parser.cpp)
    void parse_top_level(ast::Module &m);
    void parse_import(ast::Module &m);
    // The names the file binds to ParPy's module, from its top-level imports wherever they
    // are (ast::Module::parpy_names), read before any function is parsed.
    std::set<std::string> scan_parpy_names() const;
    void parse_with(ast::Block &out); // `with parpy.gpu:` (ParPy files only)
    bool try_parse_constant(ast::Module &m);
    void parse_decorated(ast::Module &m);
    std::unique_ptr<ast::FunctionDef> parse_function(std::vector<ast::ExprPtr> decorators,
                                                     DiagnosticSink &errors);
    void parse_params(ast::FunctionDef &f);
    void parse_param(ast::FunctionDef &f);
    ast::ExprPtr parse_default_value();

    // --- statements (parse_stmt.cpp)
    ast::Block parse_suite(); // after ':', a block or simple statements on the same line
    ast::Block parse_block(); // INDENT statement* DEDENT
    void parse_statement(ast::Block &out);
    void parse_statement_or_throw(ast::Block &out);
    void parse_simple_line(ast::Block &out);
    ast::StmtPtr parse_small_statement();
    ast::StmtPtr parse_expr_statement();
    ast::StmtPtr parse_return();
    ast::StmtPtr parse_if();
    ast::StmtPtr parse_if_clause();
    ast::StmtPtr parse_while();
    ast::StmtPtr parse_for();
    void check_target(const ast::Expr &target) const;
    void reject_tuple_value(const char *hint) const;
    bool at_match_statement() const;

    // --- expressions (parse_expr.cpp)
public:
    ast::ExprPtr parse_expr(); // one expression; a following ',' is the caller's business
private:
    ast::ExprPtr parse_ifexp();
    ast::ExprPtr parse_or();
    ast::ExprPtr parse_and();
    ast::ExprPtr parse_not();
    ast::ExprPtr parse_comparison();
    ast::ExprPtr parse_binary(int level);
    ast::ExprPtr parse_unary();
    ast::ExprPtr parse_power();
    ast::ExprPtr parse_primary();
    ast::ExprPtr parse_atom();
    ast::ExprPtr parse_call(ast::ExprPtr callee, SourceLoc loc);
    ast::ExprPtr parse_subscript(ast::ExprPtr value, SourceLoc loc);
    ast::ExprPtr parse_index(); // an index, or a slice in ParPy files
    ast::ExprPtr parse_paren();
    ast::ExprPtr parse_number(const Token &t);
    ast::ExprPtr parse_strings();
    [[noreturn]] void reject_display(const Token &open) const; // [...] or {...}
    ast::ExprPtr finish(ast::ExprPtr e) const;                 // sets and bounds Expr::depth
    void finish(ast::Stmt &s) const; // sets and bounds Stmt::depth (compound ones)

    // Limits on how deeply operations and compound statements nest (docs/LANGUAGE.md,
    // "Limits"). Lowering, the IR passes and code generation recurse on the tree, so these
    // bound their stack use: at the limit an unoptimised build needs under 3 MB of an 8 MB
    // stack (3000 levels, CPython's own limit for a + chain, need more than 4 MB there).
    static constexpr int kMaxExprDepth = 1000;
    static constexpr int kMaxStmtDepth = 1000;

    // Bounds the recursion of the expression parser, so that a pathological file (thousands of
    // nested unary operators) gets an error instead of a stack overflow.
    class Nesting {
    public:
        explicit Nesting(Parser &p) : p_(p) {
            if (p_.nesting_ >= kMaxNesting)
                p_.fail(p_.peek().loc, "expression is nested too deeply");
            ++p_.nesting_;
        }
        ~Nesting() { --p_.nesting_; }

    private:
        Parser &p_;
    };
    static constexpr int kMaxNesting = 200;
    int nesting_ = 0;

    std::shared_ptr<const SourceFile> file_;
    std::vector<Token> tokens_;
    size_t pos_ = 0;
    DiagnosticSink &module_errors_;       // errors that make the file unreadable
    DiagnosticSink *fn_errors_ = nullptr; // the function being parsed
    std::set<std::string> parpy_names_;   // see scan_parpy_names
};

} // namespace smelt::frontend::detail
