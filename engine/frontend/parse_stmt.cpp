// The parser's statements: the restricted kernel grammar of a function body, with recovery so
// that every bad statement of a function is reported, not just the first.
#include "frontend/parser_impl.h"

#include <algorithm>

namespace smelt::frontend::detail {

using ast::StmtKind;

namespace {
ast::StmtPtr make_stmt(StmtKind kind, SourceLoc loc) {
    return std::make_unique<ast::Stmt>(kind, loc);
}

bool is_augassign(const Token &t) {
    static const char *const kOps[] = {
        "+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>=", "@="};
    if (t.kind != TokenKind::Op) return false;
    for (const char *op : kOps)
        if (t.text == op) return true;
    return false;
}
} // namespace

ast::Block Parser::parse_suite() {
    if (accept_op(";")) fail(peek().loc, "invalid syntax: unexpected ';'");
    if (at(TokenKind::Newline)) {
        advance();
        if (!at(TokenKind::Indent)) fail(peek().loc, "expected an indented block");
        return parse_block();
    }
    // Simple statements on the header's line: `if x: y = 1`.
    ast::Block out;
    try {
        parse_simple_line(out);
    } catch (const ParseError &e) {
        fn_errors_->error(e.loc, e.message);
        out.clear();
        skip_line();
    }
    return out;
}

ast::Block Parser::parse_block() {
    advance(); // Indent
    ast::Block out;
    while (!at(TokenKind::Dedent) && !at(TokenKind::End))
        parse_statement(out);
    if (at(TokenKind::Dedent)) advance();
    return out;
}

void Parser::parse_statement(ast::Block &out) {
    const size_t start = pos_;
    try {
        parse_statement_or_throw(out);
    } catch (const ParseError &e) {
        fn_errors_->error(e.loc, e.message);
        // Drop the whole statement: the rest of its line (unless the error came after the line,
        // as with a missing block), the block it opened, and clauses that belong to it.
        if (!(pos_ > start && tokens_[pos_ - 1].kind == TokenKind::Newline)) skip_line();
        if (at(TokenKind::Indent)) skip_block();
        skip_clauses();
    }
}

void Parser::parse_statement_or_throw(ast::Block &out) {
    const Token &t = peek();
    if (t.kind == TokenKind::Indent) {
        fn_errors_->error(t.loc, "unexpected indent");
        skip_block();
        return;
    }
    if (t.kind == TokenKind::Newline) {
        advance();
        return;
    }
    if (t.is_name("if")) {
        out.push_back(parse_if());
        return;
    }
    if (t.is_name("while")) {
        out.push_back(parse_while());
        return;
    }
    if (t.is_name("for")) {
        out.push_back(parse_for());
        return;
    }
    if (t.is_name("def"))
        fail(t.loc, "nested functions are not supported in kernels; define helper functions "
                    "at module level");
    if (t.is_op("@")) {
        // One error for the decorators and the definition they decorate.
        fn_errors_->error(t.loc, "decorators and nested functions are not supported in "
                                 "kernels; define helper functions at module level");
        while (at_op("@"))
            skip_line();
        if (!at(TokenKind::Dedent) && !at(TokenKind::End)) skip_statement();
        return;
    }
    if (t.is_name("class")) fail(t.loc, "classes are not supported in kernels");
    if (t.is_name("try")) fail(t.loc, "try/except is not supported in kernels");
    if (t.is_name("with")) {
        if (parpy_names_.empty()) fail(t.loc, "with statements are not supported in kernels");
        return parse_with(out);
    }
    if (t.is_name("async"))
        fail(t.loc, "async is not supported in kernels (async def, async for, async with)");
    if (t.is_name("elif") || t.is_name("else") || t.is_name("except") || t.is_name("finally"))
        fail(t.loc, "invalid syntax: '" + t.text + "' without a matching statement before it");
    if (at_match_statement()) fail(t.loc, "match statements are not supported in kernels");
    parse_simple_line(out);
}

// `match` is a soft keyword: it starts a match statement only when its line ends with ':' and
// opens a block (no simple statement can end with ':').
bool Parser::at_match_statement() const {
    if (!at_name("match")) return false;
    size_t k = pos_;
    while (k + 1 < tokens_.size() && tokens_[k].kind != TokenKind::Newline)
        ++k;
    return k > pos_ + 1 && tokens_[k - 1].is_op(":") && k + 1 < tokens_.size() &&
           tokens_[k + 1].kind == TokenKind::Indent;
}

void Parser::parse_simple_line(ast::Block &out) {
    for (;;) {
        out.push_back(parse_small_statement());
        if (!accept_op(";") || at(TokenKind::Newline)) break;
    }
    expect_newline();
}

ast::StmtPtr Parser::parse_small_statement() {
    const Token &t = peek();
    if (t.kind == TokenKind::Name) {
        const std::string &w = t.text;
        if (w == "pass") return make_stmt(StmtKind::Pass, advance().loc);
        if (w == "break") return make_stmt(StmtKind::Break, advance().loc);
        if (w == "continue") return make_stmt(StmtKind::Continue, advance().loc);
        if (w == "return") return parse_return();
        if (w == "del") fail(t.loc, "del is not supported in kernels");
        if (w == "assert") fail(t.loc, "assert is not supported in kernels");
        if (w == "raise")
            fail(t.loc, "raise is not supported in kernels; kernels cannot raise exceptions");
        if (w == "global")
            fail(t.loc, "global is not supported in kernels; kernels cannot assign module "
                        "variables (module constants can be read without it)");
        if (w == "nonlocal") fail(t.loc, "nonlocal is not supported in kernels");
        if (w == "import" || w == "from")
            fail(t.loc, "import inside a function is not supported in kernels; import at the "
                        "top of the file");
        if (w == "yield") fail(t.loc, "yield is not supported in kernels");
    }
    return parse_expr_statement();
}

ast::StmtPtr Parser::parse_return() {
    auto s = make_stmt(StmtKind::Return, advance().loc);
    if (!at(TokenKind::Newline) && !at_op(";")) {
        s->value = parse_expr();
        reject_tuple_value("; a kernel function returns a single value");
    }
    return s;
}

void Parser::reject_tuple_value(const char *hint) const {
    if (at_op(",")) fail(peek().loc, std::string("tuples are not supported in kernels") + hint);
}

void Parser::check_target(const ast::Expr &e) const {
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::Name:
    case K::Subscript:
        return;
    case K::Attribute:
        fail(e.loc, "assignment to an attribute is not supported in kernels");
    case K::Call:
        fail(e.loc, "cannot assign to a function call");
    case K::Int:
    case K::Float:
    case K::Bool:
    case K::Str:
        fail(e.loc, "cannot assign to a literal");
    default:
        fail(e.loc, "cannot assign to an expression; the target must be a name or x[i]");
    }
}

// Assignments (plain, tuple-target, annotated, augmented) and expression statements.
ast::StmtPtr Parser::parse_expr_statement() {
    const SourceLoc loc = peek().loc;
    std::vector<ast::ExprPtr> items;
    items.push_back(parse_expr());
    SourceLoc comma;
    while (at_op(",")) { // `a, b = declare('int', 2)`, or a tuple (rejected below)
        if (!comma.valid()) comma = peek().loc;
        advance();
        if (at_op("=") || at(TokenKind::Newline) || at_op(";")) break;
        items.push_back(parse_expr());
    }
    if (at_op("=")) {
        for (const auto &e : items)
            check_target(*e);
        advance();
        auto s = make_stmt(StmtKind::Assign, loc);
        s->targets = std::move(items);
        s->value = parse_expr();
        reject_tuple_value("; several names can only be assigned from declare, e.g. "
                           "a, b = declare('int', 2)");
        if (at_op("="))
            fail(peek().loc, "chained assignment (a = b = ...) is not supported in kernels; "
                             "assign each name separately");
        return s;
    }
    if (comma.valid()) fail(comma, "tuples are not supported in kernels");
    ast::ExprPtr target = std::move(items[0]);
    if (at_op(":")) {
        if (target->kind != ast::ExprKind::Name)
            fail(target->loc, "only a plain name can be given a type annotation in kernels");
        advance();
        auto s = make_stmt(StmtKind::AnnAssign, loc);
        s->annotation = parse_expr();
        if (accept_op("=")) {
            s->value = parse_expr();
            reject_tuple_value("");
        }
        s->targets.push_back(std::move(target));
        return s;
    }
    const Token &op = peek();
    if (is_augassign(op)) {
        if (op.text == "@=") fail(op.loc, "matrix multiplication (@=) is not supported in kernels");
        check_target(*target);
        advance();
        auto s = make_stmt(StmtKind::AugAssign, loc);
        s->op = op.text.substr(0, op.text.size() - 1);
        s->targets.push_back(std::move(target));
        s->value = parse_expr();
        reject_tuple_value("");
        return s;
    }
    auto s = make_stmt(StmtKind::ExprStmt, loc);
    s->value = std::move(target);
    return s;
}

namespace {
const char *kEqualsInCondition = "invalid syntax: '=' in a condition; use '==' to compare";
}

ast::StmtPtr Parser::parse_if_clause() {
    auto s = make_stmt(StmtKind::If, advance().loc); // `if`, or `elif` for a nested If
    s->cond = parse_expr();
    if (at_op("=")) fail(peek().loc, kEqualsInCondition);
    expect_op(":");
    s->body = parse_suite();
    return s;
}

// elif chains are built in a loop: a long chain must not mean deep recursion here. Each elif
// is an If nested in the one before, so the chain's length counts toward the nesting limit.
ast::StmtPtr Parser::parse_if() {
    ast::StmtPtr head = parse_if_clause();
    std::vector<ast::Stmt *> clauses = {head.get()};
    while (at_name("elif")) {
        if (static_cast<int>(clauses.size()) >= kMaxStmtDepth)
            fail(peek().loc, "if/elif chain is too long: more than " +
                                 std::to_string(kMaxStmtDepth) +
                                 " clauses; split it, e.g. into nested ifs on ranges of values");
        clauses.back()->orelse.push_back(parse_if_clause());
        clauses.push_back(clauses.back()->orelse.back().get());
    }
    if (accept_name("else")) {
        expect_op(":");
        clauses.back()->orelse = parse_suite();
    }
    for (auto it = clauses.rbegin(); it != clauses.rend(); ++it)
        finish(**it);
    return head;
}

void Parser::finish(ast::Stmt &s) const {
    int below = 0;
    for (const ast::Block *b : {&s.body, &s.orelse})
        for (const auto &st : *b)
            below = std::max(below, st->depth);
    s.depth = below + 1;
    if (s.depth > kMaxStmtDepth)
        fail(s.loc, "statements are nested too deeply: more than " + std::to_string(kMaxStmtDepth) +
                        " compound statements (if, elif, while, for) inside one another");
}

// `with parpy.gpu:` marks sequential code ParPy would run on the GPU. Smelt runs a
// loop-parallel function's sequential code where its data lives anyway (docs/LANGUAGE.md), so
// the block is simply its statements.
void Parser::parse_with(ast::Block &out) {
    const Token &with = advance();
    const Token &name = peek();
    const bool gpu = name.kind == TokenKind::Name && parpy_names_.count(name.text) &&
                     at_op(".", 1) && at_name("gpu", 2) && at_op(":", 3);
    if (!gpu)
        fail(with.loc, "with statements are not supported in kernels; ParPy accepts only "
                       "`with " +
                           *parpy_names_.begin() + ".gpu:`");
    pos_ += 3;
    expect_op(":");
    for (auto &s : parse_suite())
        out.push_back(std::move(s));
}

ast::StmtPtr Parser::parse_while() {
    auto s = make_stmt(StmtKind::While, advance().loc);
    s->cond = parse_expr();
    if (at_op("=")) fail(peek().loc, kEqualsInCondition);
    expect_op(":");
    s->body = parse_suite();
    if (at_name("else"))
        fail(peek().loc, std::string("while ... else is not supported in kernels") +
                             (parpy_names_.empty() ? "" : " (ParPy rejects it too)"));
    finish(*s);
    return s;
}

ast::StmtPtr Parser::parse_for() {
    auto s = make_stmt(StmtKind::For, advance().loc);
    // The target is parsed below comparisons, so that `in` is not read as an operator.
    ast::ExprPtr target = parse_binary(0);
    if (at_op(","))
        fail(peek().loc, "tuple loop targets are not supported in kernels; use "
                         "`for NAME in range(...)`");
    if (target->kind != ast::ExprKind::Name)
        fail(target->loc, "the loop variable must be a plain name in kernels: use "
                          "`for NAME in range(...)`");
    if (!accept_name("in")) fail(peek().loc, "expected 'in'");
    ast::ExprPtr iter = parse_expr();
    reject_tuple_value("");
    const bool is_range = iter->kind == ast::ExprKind::Call &&
                          iter->args[0]->kind == ast::ExprKind::Name &&
                          iter->args[0]->name == "range";
    if (!is_range)
        fail(iter->loc, "looping over anything but range() is not supported in kernels; use "
                        "`for NAME in range(...)`");
    if (!iter->keywords.empty())
        fail(iter->keywords[0].loc, "range() does not take keyword arguments");
    const size_t nargs = iter->args.size() - 1;
    if (nargs < 1 || nargs > 3)
        fail(iter->loc, "range() takes 1 to 3 arguments, got " + std::to_string(nargs));
    expect_op(":");
    s->targets.push_back(std::move(target));
    for (size_t i = 1; i < iter->args.size(); ++i)
        s->range_args.push_back(std::move(iter->args[i]));
    s->body = parse_suite();
    if (at_name("else"))
        fail(peek().loc, std::string("for ... else is not supported in kernels") +
                             (parpy_names_.empty() ? "" : " (ParPy rejects it too)"));
    finish(*s);
    return s;
}

} // namespace smelt::frontend::detail
