// The parser's expressions, by Python precedence from lowest to highest:
//   x if c else y  <  or  <  and  <  not  <  comparisons  <  |  <  ^  <  &  <  << >>  <  + -
//   <  * / // % @  <  unary - + ~  <  **  <  calls, subscripts, attributes  <  atoms
// Nodes take the location of their first token, except Binary, BoolOp and Compare, which take
// their (first) operator's: that is where an error about the operation should point.
#include "frontend/parser_impl.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace smelt::frontend::detail {

using ast::ExprKind;
using ast::ExprPtr;

// Sets e's depth from its operands' and rejects it past the limit. A BoolOp or Compare of n
// operands becomes a chain of n - 1 operations when lowered, so it counts as deep as that chain.
ExprPtr Parser::finish(ExprPtr e) const {
    int below = 0;
    for (const auto &a : e->args)
        below = std::max(below, a->depth);
    for (const auto &k : e->keywords)
        below = std::max(below, k.value->depth);
    const bool chain = e->kind == ExprKind::BoolOp || e->kind == ExprKind::Compare;
    e->depth = below + (chain ? static_cast<int>(e->args.size()) - 1 : 1);
    if (e->depth > kMaxExprDepth)
        fail(e->loc, "expression is too deep: more than " + std::to_string(kMaxExprDepth) +
                         " operations nested in one another (each operator of a chain such as "
                         "a + b + c counts); split it with intermediate variables");
    return e;
}

ExprPtr Parser::parse_expr() {
    Nesting guard(*this);
    ExprPtr e = parse_ifexp();
    if (at_op(":=")) fail(peek().loc, "assignment expressions (:=) are not supported in kernels");
    return e;
}

ExprPtr Parser::parse_ifexp() {
    const Token &first = peek();
    if (first.is_name("lambda"))
        fail(first.loc, "lambda is not supported in kernels; define a function at module level");
    if (first.is_name("yield")) fail(first.loc, "yield is not supported in kernels");
    ExprPtr body = parse_or();
    if (!at_name("if")) return body;
    Nesting guard(*this);
    advance();
    ExprPtr cond = parse_or();
    if (!accept_name("else"))
        fail(peek().loc, "expected 'else' in a conditional expression (x if c else y)");
    auto e = make(ExprKind::IfExp, first.loc);
    e->args.push_back(std::move(cond));
    e->args.push_back(std::move(body));
    e->args.push_back(parse_ifexp());
    return finish(std::move(e));
}

ExprPtr Parser::parse_or() {
    ExprPtr first = parse_and();
    if (!at_name("or")) return first;
    auto e = make(ExprKind::BoolOp, peek().loc);
    e->op = "or";
    e->args.push_back(std::move(first));
    while (accept_name("or"))
        e->args.push_back(parse_and());
    return finish(std::move(e));
}

ExprPtr Parser::parse_and() {
    ExprPtr first = parse_not();
    if (!at_name("and")) return first;
    auto e = make(ExprKind::BoolOp, peek().loc);
    e->op = "and";
    e->args.push_back(std::move(first));
    while (accept_name("and"))
        e->args.push_back(parse_not());
    return finish(std::move(e));
}

ExprPtr Parser::parse_not() {
    if (!at_name("not")) return parse_comparison();
    Nesting guard(*this);
    auto e = make(ExprKind::Unary, advance().loc);
    e->op = "not";
    e->args.push_back(parse_not());
    return finish(std::move(e));
}

ExprPtr Parser::parse_comparison() {
    ExprPtr first = parse_binary(0);
    ExprPtr cmp;
    for (;;) {
        const Token &t = peek();
        if (t.is_name("is"))
            fail(t.loc, at_name("not", 1)
                            ? "'is not' is not supported in kernels; compare values with !="
                            : "'is' is not supported in kernels; compare values with ==");
        if (t.is_name("in")) fail(t.loc, "'in' is not supported in kernels");
        if (t.is_name("not") && at_name("in", 1))
            fail(t.loc, "'not in' is not supported in kernels");
        static const char *const kOps[] = {"==", "!=", "<", "<=", ">", ">="};
        const char *op = nullptr;
        for (const char *k : kOps)
            if (t.is_op(k)) op = k;
        if (!op) break;
        if (!cmp) {
            cmp = make(ExprKind::Compare, t.loc);
            cmp->args.push_back(std::move(first));
        }
        advance();
        cmp->ops.push_back(op); // a chain a < b < c is one node, as in Python
        cmp->args.push_back(parse_binary(0));
    }
    return cmp ? finish(std::move(cmp)) : std::move(first);
}

// Left-associative binary levels, loosest first; past the last level come the unary operators.
ExprPtr Parser::parse_binary(int level) {
    static const std::vector<std::vector<const char *>> kLevels = {
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
    if (level == static_cast<int>(kLevels.size())) return parse_unary();
    ExprPtr lhs = parse_binary(level + 1);
    for (;;) {
        const Token &t = peek();
        const char *op = nullptr;
        for (const char *k : kLevels[level])
            if (t.is_op(k)) op = k;
        if (!op) return lhs;
        if (t.is_op("@")) fail(t.loc, "matrix multiplication (@) is not supported in kernels");
        advance();
        auto e = make(ExprKind::Binary, t.loc);
        e->op = op;
        e->args.push_back(std::move(lhs));
        e->args.push_back(parse_binary(level + 1));
        lhs = finish(std::move(e));
    }
}

ExprPtr Parser::parse_unary() {
    const Token &t = peek();
    if (!t.is_op("-") && !t.is_op("+") && !t.is_op("~")) return parse_power();
    Nesting guard(*this);
    advance();
    auto e = make(ExprKind::Unary, t.loc);
    e->op = t.text;
    e->args.push_back(parse_unary());
    return finish(std::move(e));
}

// `**` binds tighter than a unary operator on its left (-2**2 == -(2**2)) and looser than one
// on its right (2**-1), and is right-associative (2**3**2 == 2**(3**2)).
ExprPtr Parser::parse_power() {
    if (at_name("await")) fail(peek().loc, "await is not supported in kernels");
    ExprPtr base = parse_primary();
    if (!at_op("**")) return base;
    Nesting guard(*this);
    auto e = make(ExprKind::Binary, advance().loc);
    e->op = "**";
    e->args.push_back(std::move(base));
    e->args.push_back(parse_unary());
    return finish(std::move(e));
}

ExprPtr Parser::parse_primary() {
    const SourceLoc loc = peek().loc;
    ExprPtr e = parse_atom();
    for (;;) {
        if (at_op("(")) {
            e = parse_call(std::move(e), loc);
        } else if (at_op("[")) {
            e = parse_subscript(std::move(e), loc);
        } else if (accept_op(".")) {
            if (!at(TokenKind::Name) || is_keyword(peek().text))
                fail(peek().loc, "expected an attribute name after '.'");
            auto a = make(ExprKind::Attribute, loc);
            a->name = advance().text;
            a->args.push_back(std::move(e));
            e = finish(std::move(a));
        } else {
            return e;
        }
    }
}

// Keyword arguments are kept: whether a call may have them is for the type checker to say.
ExprPtr Parser::parse_call(ExprPtr callee, SourceLoc loc) {
    advance(); // (
    auto call = make(ExprKind::Call, loc);
    call->args.push_back(std::move(callee));
    while (!at_op(")")) {
        const Token &t = peek();
        if (t.is_op("*")) fail(t.loc, "argument unpacking (*args) is not supported in kernels");
        if (t.is_op("**"))
            fail(t.loc, "keyword argument unpacking (**kwargs) is not supported in kernels");
        if (t.kind == TokenKind::Name && !is_keyword(t.text) && at_op("=", 1)) {
            advance();
            advance();
            call->keywords.push_back(ast::Keyword{t.text, parse_expr(), t.loc});
        } else {
            if (!call->keywords.empty())
                fail(t.loc, "invalid syntax: positional argument follows keyword argument");
            call->args.push_back(parse_expr());
            if (at_name("for"))
                fail(peek().loc, "generator expressions are not supported in kernels");
        }
        if (!accept_op(",")) break;
    }
    if (!at_op(")")) fail(peek().loc, "expected ',' or ')' in the argument list");
    advance();
    return finish(std::move(call));
}

ExprPtr Parser::parse_subscript(ExprPtr value, SourceLoc loc) {
    advance(); // [
    // x[i, j] is read as x[i][j] (one Subscript per index), so both spellings index a matrix
    // alike; how many indices an array takes is for the type checker to say.
    for (;;) {
        ExprPtr index = parse_index();
        // Python would count a negative index from the end; a kernel cannot know the length.
        if (index->kind == ExprKind::Unary && index->op == "-" &&
            ((index->args[0]->kind == ExprKind::Int && index->args[0]->int_value != 0) ||
             (index->args[0]->kind == ExprKind::Float && index->args[0]->float_value != 0)))
            fail(index->loc, "negative indices are not supported in kernels; Python would index "
                             "from the end");
        auto e = make(ExprKind::Subscript, loc);
        e->args.push_back(std::move(value));
        e->args.push_back(std::move(index));
        value = finish(std::move(e));
        if (!accept_op(",") || at_op("]")) break;
    }
    if (!at_op("]")) fail(peek().loc, "expected ']'");
    advance();
    return value;
}

ExprPtr Parser::parse_index() {
    const SourceLoc loc = peek().loc;
    ExprPtr lo;
    if (!at_op(":")) {
        lo = parse_expr();
        if (!at_op(":")) return lo;
    }
    if (parpy_names_.empty()) fail(peek().loc, "slicing is not supported in kernels");
    auto e = make(ExprKind::Slice, loc);
    if (lo) {
        e->int_value |= ast::kSliceLo;
        e->args.push_back(std::move(lo));
    }
    advance(); // :
    if (!at_op(":") && !at_op("]") && !at_op(",")) {
        e->int_value |= ast::kSliceHi;
        e->args.push_back(parse_expr());
    }
    if (accept_op(":") && !at_op("]") && !at_op(",")) {
        e->int_value |= ast::kSliceStep;
        e->args.push_back(parse_expr());
    }
    return finish(std::move(e));
}

ExprPtr Parser::parse_atom() {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::Int:
    case TokenKind::Float:
        return parse_number(advance());
    case TokenKind::Imag:
        fail(t.loc, "complex numbers are not supported in kernels");
    case TokenKind::String:
        return parse_strings();
    case TokenKind::Name: {
        if (t.text == "True" || t.text == "False") {
            auto e = make(ExprKind::Bool, advance().loc);
            e->bool_value = t.text == "True";
            return e;
        }
        if (t.text == "None") fail(t.loc, "None is not supported in kernels");
        if (t.text == "lambda")
            fail(t.loc, "lambda is not supported in kernels; define a function at module level");
        if (t.text == "yield") fail(t.loc, "yield is not supported in kernels");
        if (t.text == "await") fail(t.loc, "await is not supported in kernels");
        if (is_keyword(t.text)) fail_unexpected();
        auto e = make(ExprKind::Name, advance().loc);
        e->name = t.text;
        return e;
    }
    case TokenKind::Op:
        if (t.is_op("(")) return parse_paren();
        if (t.is_op("[") || t.is_op("{")) reject_display(t);
        if (t.is_op("...")) fail(t.loc, "Ellipsis (...) is not supported in kernels");
        if (t.is_op("*") || t.is_op("**"))
            fail(t.loc, "star expressions (*x) are not supported in kernels");
        fail(t.loc, "invalid syntax: expected an expression, got '" + t.text + "'");
    default:
        fail(t.loc, "invalid syntax: expected an expression");
    }
}

ExprPtr Parser::parse_number(const Token &t) {
    std::string digits;
    for (char ch : t.text)
        if (ch != '_') digits += ch;
    if (t.kind == TokenKind::Float) {
        auto e = make(ExprKind::Float, t.loc);
        double v = 0;
        auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
        // Out of range: strtod gives inf or 0 as Python does (1e999 == inf).
        if (r.ec != std::errc()) v = std::strtod(digits.c_str(), nullptr);
        e->float_value = v;
        return e;
    }
    int base = 10;
    size_t i = 0;
    if (digits.size() > 1 && digits[0] == '0' && std::strchr("xXoObB", digits[1])) {
        char b = static_cast<char>(digits[1] | 0x20);
        base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
        i = 2;
    }
    uint64_t v = 0;
    for (; i < digits.size(); ++i) {
        char ch = digits[i];
        int d = ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10;
        if (__builtin_mul_overflow(v, static_cast<uint64_t>(base), &v) ||
            __builtin_add_overflow(v, static_cast<uint64_t>(d), &v))
            fail(t.loc, "integer literal " + t.text +
                            " is too large: integers in kernels have "
                            "at most 64 bits");
    }
    auto e = make(ExprKind::Int, t.loc);
    e->int_value = v;
    return e;
}

// Adjacent literals concatenate ('a' 'b' == 'ab').
ExprPtr Parser::parse_strings() {
    auto e = make(ExprKind::Str, peek().loc);
    while (at(TokenKind::String)) {
        const Token &s = advance();
        if (s.prefix.find('f') != std::string::npos || s.prefix.find('t') != std::string::npos)
            fail(s.loc, "f-strings are not supported in kernels");
        if (s.prefix.find('b') != std::string::npos)
            fail(s.loc, "bytes literals are not supported in kernels");
        e->str_value += s.text;
    }
    return e;
}

ExprPtr Parser::parse_paren() {
    const Token &open = advance();
    if (at_op(")")) fail(open.loc, "tuples are not supported in kernels (the empty tuple ())");
    if (at_name("yield")) fail(peek().loc, "yield is not supported in kernels");
    ExprPtr e = parse_expr();
    if (at_name("for")) fail(peek().loc, "generator expressions are not supported in kernels");
    if (at_op(",")) fail(open.loc, "tuples are not supported in kernels");
    if (!at_op(")")) fail(peek().loc, "expected ')'");
    advance();
    return e; // keeps the inner expression's location
}

// A list, dict or set display, or a comprehension: the first tokens tell which, so the message
// can name the construct the user wrote.
void Parser::reject_display(const Token &open) const {
    bool has_for = false, has_colon = false;
    int depth = 0;
    for (size_t k = pos_; k < tokens_.size(); ++k) {
        const Token &t = tokens_[k];
        if (t.kind == TokenKind::Newline || t.kind == TokenKind::End) break;
        if (t.is_op("(") || t.is_op("[") || t.is_op("{")) ++depth;
        if (t.is_op(")") || t.is_op("]") || t.is_op("}")) {
            if (--depth == 0) break;
        }
        if (depth != 1) continue;
        if (t.is_name("for")) has_for = true;
        if ((t.is_op(":") || t.is_op("**")) && !has_for) has_colon = true;
    }
    if (open.is_op("[")) {
        if (has_for) fail(open.loc, "list comprehensions are not supported in kernels");
        fail(open.loc, "lists are not supported in kernels; use declare('matrix(n)') for a "
                       "local array");
    }
    const bool empty = tokens_[pos_ + 1].is_op("}");
    if (has_for)
        fail(open.loc, has_colon ? "dict comprehensions are not supported in kernels"
                                 : "set comprehensions are not supported in kernels");
    if (has_colon || empty) fail(open.loc, "dicts are not supported in kernels");
    fail(open.loc, "sets are not supported in kernels");
}

} // namespace smelt::frontend::detail
