// The parser's function definitions: decorators, the `def` line (parameters with annotations
// and default values, return annotation) and the body. Errors in any of these belong to the
// function and are reported only if it is compiled.
#include "frontend/parser_impl.h"

namespace smelt::frontend::detail {

void Parser::parse_decorated(ast::Module &m) {
    DiagnosticSink errors(file_);
    std::vector<ast::ExprPtr> decorators;
    while (accept_op("@")) {
        try {
            decorators.push_back(parse_expr());
            if (!at(TokenKind::Newline)) fail_unexpected();
        } catch (const ParseError &e) {
            errors.error(e.loc, e.message); // only matters if the function is compiled
        }
        skip_line();
    }
    if (at_name("class")) { // a decorated class: ordinary Python
        skip_python_statement(m);
        return;
    }
    if (at_name("async") && at_name("def", 1)) {
        errors.error(peek().loc, "async functions are not supported in kernels");
        advance();
    }
    if (!at_name("def")) fail(peek().loc, "expected 'def' or 'class' after a decorator");
    m.functions.push_back(parse_function(std::move(decorators), errors));
}

std::unique_ptr<ast::FunctionDef> Parser::parse_function(std::vector<ast::ExprPtr> decorators,
                                                         DiagnosticSink &errors) {
    advance(); // def
    auto f = std::make_unique<ast::FunctionDef>();
    f->decorators = std::move(decorators);
    if (!at(TokenKind::Name) || is_keyword(peek().text))
        fail(peek().loc, "expected a function name after 'def'");
    f->name = peek().text;
    f->loc = advance().loc;
    fn_errors_ = &errors;
    expect_op("(");
    parse_params(*f);
    expect_op(")");
    if (accept_op("->")) {
        const size_t start = pos_;
        try {
            f->returns = parse_expr();
        } catch (const ParseError &e) {
            errors.error(e.loc, e.message);
            pos_ = start; // skip from the start, where bracket depth is known
            skip_balanced_until(":");
        }
    }
    expect_op(":");
    f->body = parse_suite();
    fn_errors_ = nullptr;
    // A leading docstring documents the function; it is not code.
    if (!f->body.empty() && f->body[0]->kind == ast::StmtKind::ExprStmt &&
        f->body[0]->value->kind == ast::ExprKind::Str)
        f->body.erase(f->body.begin());
    f->errors = errors.take();
    return f;
}

void Parser::parse_params(ast::FunctionDef &f) {
    while (!at_op(")")) {
        const size_t start = pos_;
        try {
            parse_param(f);
        } catch (const ParseError &e) {
            fn_errors_->error(e.loc, e.message);
            pos_ = start; // skip from the start, where bracket depth is known
            skip_balanced_until(",)");
        }
        if (!accept_op(",")) break;
    }
}

void Parser::parse_param(ast::FunctionDef &f) {
    const Token &t = peek();
    if (t.is_op("*")) {
        if (at_op(",", 1) || at_op(")", 1))
            fail(t.loc, "keyword-only parameters (a bare '*') are not supported in kernels");
        fail(t.loc, "*" + peek(1).text +
                        " (variable positional arguments) is not supported "
                        "in kernels; give each parameter a name");
    }
    if (t.is_op("**"))
        fail(t.loc, "**" + peek(1).text +
                        " (variable keyword arguments) is not supported "
                        "in kernels; give each parameter a name");
    if (t.is_op("/"))
        fail(t.loc, "positional-only parameters (a '/' marker) are not supported in kernels");
    if (t.kind != TokenKind::Name || is_keyword(t.text)) fail_unexpected();
    for (const auto &p : f.params)
        if (p.name == t.text)
            fail(t.loc, "duplicate parameter '" + t.text + "' in function definition");
    f.params.push_back(ast::Param{t.text, t.loc, nullptr, nullptr});
    advance();
    // The parameter is kept even if its annotation or default is bad, so the count stays right.
    ast::Param &p = f.params.back();
    if (accept_op(":")) p.annotation = parse_expr();
    if (accept_op("=")) p.default_value = parse_default_value();
}

// A default value, where `[0.0]` (a one-element list, Compyle's way to say "pointer to this
// element type") is allowed. It becomes Call(Name "__list__", element): the AST has no list node
// because a list is never a value in a kernel.
ast::ExprPtr Parser::parse_default_value() {
    if (!at_op("[")) return parse_expr();
    const Token &open = peek();
    const size_t start = pos_;
    advance();
    if (at_op("]"))
        fail(open.loc, "an empty list is not supported in kernels; a list default value needs "
                       "one element giving the element type, e.g. x=[0.0]");
    ast::ExprPtr element = parse_expr();
    if (!at_op("]")) {
        if (at_op(","))
            fail(open.loc, "lists are not supported in kernels; a list default value must "
                           "have exactly one element giving the element type, e.g. x=[0.0]");
        pos_ = start; // report the construct itself (a comprehension, ...)
        return parse_expr();
    }
    advance();
    auto call = make(ast::ExprKind::Call, open.loc);
    auto callee = make(ast::ExprKind::Name, open.loc);
    callee->name = "__list__";
    call->args.push_back(std::move(callee));
    call->args.push_back(std::move(element));
    return call;
}

} // namespace smelt::frontend::detail
