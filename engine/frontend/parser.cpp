// The parser's module level: token access, error recovery, imports and constants; and parse(),
// the frontend's entry point.
#include "frontend/parser.h"

#include "frontend/lexer.h"
#include "frontend/parser_impl.h"

#include <algorithm>
#include <cstring>

namespace smelt::frontend {
namespace detail {

bool is_keyword(const std::string &w) {
    static const char *const kKeywords[] = {
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    for (const char *k : kKeywords)
        if (w == k) return true;
    return false;
}

// ---- tokens ---------------------------------------------------------------------------------

const Token &Parser::peek(size_t ahead) const {
    size_t i = std::min(pos_ + ahead, tokens_.size() - 1); // the last token is End
    return tokens_[i];
}

const Token &Parser::advance() {
    const Token &t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
}

bool Parser::accept_op(const char *op) {
    if (!at_op(op)) return false;
    advance();
    return true;
}

bool Parser::accept_name(const char *name) {
    if (!at_name(name)) return false;
    advance();
    return true;
}

const Token &Parser::expect_op(const char *op) {
    if (!at_op(op)) fail(peek().loc, std::string("expected '") + op + "'");
    return advance();
}

const Token &Parser::expect_newline() {
    if (!at(TokenKind::Newline)) fail_unexpected();
    return advance();
}

void Parser::fail(SourceLoc loc, std::string message) const {
    throw ParseError{loc, std::move(message)};
}

void Parser::fail_unexpected() const {
    const Token &t = peek();
    switch (t.kind) {
    case TokenKind::Newline:
        fail(t.loc, "invalid syntax: unexpected end of line");
    case TokenKind::End:
        fail(t.loc, "invalid syntax: unexpected end of file");
    case TokenKind::Indent:
        fail(t.loc, "unexpected indent");
    case TokenKind::Dedent:
        fail(t.loc, "invalid syntax: unexpected dedent");
    case TokenKind::String:
        fail(t.loc, "invalid syntax: unexpected string");
    default:
        fail(t.loc, "invalid syntax: unexpected '" + t.text + "'");
    }
}

ast::ExprPtr Parser::make(ast::ExprKind kind, SourceLoc loc) const {
    return std::make_unique<ast::Expr>(kind, loc);
}

// ---- recovery -------------------------------------------------------------------------------

void Parser::skip_line() {
    while (!at(TokenKind::Newline) && !at(TokenKind::End))
        advance();
    if (at(TokenKind::Newline)) advance();
}

void Parser::skip_block() {
    int depth = 0;
    do {
        if (at(TokenKind::Indent)) ++depth;
        if (at(TokenKind::Dedent)) --depth;
        if (at(TokenKind::End)) return;
        advance();
    } while (depth > 0);
}

void Parser::skip_balanced_until(const char *stops) {
    int depth = 0;
    while (!at(TokenKind::Newline) && !at(TokenKind::End)) {
        const Token &t = peek();
        if (t.kind == TokenKind::Op && t.text.size() == 1) {
            char ch = t.text[0];
            if (depth == 0 && std::strchr(stops, ch)) return;
            if (ch == '(' || ch == '[' || ch == '{') ++depth;
            if (ch == ')' || ch == ']' || ch == '}') {
                if (depth == 0) return;
                --depth;
            }
        }
        advance();
    }
}

void Parser::skip_statement() {
    skip_line();
    if (at(TokenKind::Indent)) skip_block();
}

void Parser::skip_clauses() {
    while (at_name("elif") || at_name("else") || at_name("except") || at_name("finally"))
        skip_statement();
}

// ---- module level ---------------------------------------------------------------------------

std::shared_ptr<ast::Module> Parser::parse_module() {
    auto m = std::make_shared<ast::Module>();
    m->source = file_;
    parpy_names_ = scan_parpy_names();
    m->parpy_names = parpy_names_;
    while (!at(TokenKind::End)) {
        try {
            parse_top_level(*m);
        } catch (const ParseError &e) {
            module_errors_.error(e.loc, e.message);
            fn_errors_ = nullptr;
            skip_python_statement(*m);
        }
    }
    for (auto &fn : m->functions)
        fn->module = m.get();
    for (auto &c : m->constants)
        c.module = m.get();
    return m;
}

void Parser::skip_python_statement(ast::Module &m) {
    const size_t start = pos_;
    skip_statement();
    for (size_t k = start; k < pos_; ++k)
        if (tokens_[k].kind == TokenKind::Name && !is_keyword(tokens_[k].text))
            m.other_names.insert(tokens_[k].text);
}

void Parser::parse_top_level(ast::Module &m) {
    const Token &t = peek();
    if (t.kind == TokenKind::Newline || t.is_op(";")) {
        advance();
    } else if (t.kind == TokenKind::Indent) {
        module_errors_.error(t.loc, "unexpected indent");
        skip_block();
    } else if (t.kind == TokenKind::Dedent) {
        advance(); // cannot happen with a balanced token stream; never loop on it
    } else if (t.is_name("import") || t.is_name("from")) {
        parse_import(m);
    } else if (t.is_op("@") || t.is_name("def") || (t.is_name("async") && at_name("def", 1))) {
        parse_decorated(m);
    } else if (t.kind == TokenKind::Name && !is_keyword(t.text) &&
               (at_op("=", 1) || at_op(":", 1))) {
        if (!try_parse_constant(m)) skip_python_statement(m);
    } else {
        skip_python_statement(m); // ordinary Python (classes, main block, ...): never compiled
    }
}

std::set<std::string> Parser::scan_parpy_names() const {
    std::set<std::string> out;
    auto is_parpy = [](const std::string &path) {
        return path == "parpy" || path == "smelt.parpy";
    };
    for (size_t k = 0; k < tokens_.size(); ++k) {
        const Token &t = tokens_[k];
        if (t.loc.col != 1 || (!t.is_name("import") && !t.is_name("from"))) continue;
        size_t j = k + 1;
        auto dotted = [&]() {
            std::string path;
            while (j < tokens_.size() && tokens_[j].kind == TokenKind::Name) {
                path += (path.empty() ? "" : ".") + tokens_[j++].text;
                if (j < tokens_.size() && tokens_[j].is_op("."))
                    ++j;
                else
                    break;
            }
            return path;
        };
        auto alias = [&](const std::string &name) {
            if (j + 1 < tokens_.size() && tokens_[j].is_name("as") &&
                tokens_[j + 1].kind == TokenKind::Name) {
                j += 2;
                return tokens_[j - 1].text;
            }
            return name;
        };
        if (t.is_name("import")) {
            // import parpy [as p], smelt.parpy as p
            for (;;) {
                std::string path = dotted();
                std::string bound = alias(path == "parpy" ? path : "");
                if (is_parpy(path) && !bound.empty() && bound.find('.') == std::string::npos)
                    out.insert(bound);
                if (j < tokens_.size() && tokens_[j].is_op(","))
                    ++j;
                else
                    break;
            }
        } else {
            // from smelt import parpy [as p]
            std::string path = dotted();
            if (path != "smelt" || j >= tokens_.size() || !tokens_[j].is_name("import")) continue;
            ++j;
            if (j < tokens_.size() && tokens_[j].is_op("(")) ++j;
            while (j < tokens_.size() && tokens_[j].kind == TokenKind::Name) {
                std::string name = tokens_[j++].text;
                std::string bound = alias(name);
                if (name == "parpy") out.insert(bound);
                if (j < tokens_.size() && tokens_[j].is_op(","))
                    ++j;
                else
                    break;
            }
        }
    }
    return out;
}

// import a.b [as c], ... | from [.]*a.b import (x [as y], ... | *)
void Parser::parse_import(ast::Module &m) {
    auto dotted = [&]() {
        std::string path;
        do {
            if (!at(TokenKind::Name)) fail(peek().loc, "expected a module name");
            path += (path.empty() ? "" : ".") + advance().text;
        } while (accept_op("."));
        return path;
    };
    auto first_part = [](const std::string &path) { return path.substr(0, path.find('.')); };
    auto alias_or = [&](std::string name) {
        if (!accept_name("as")) return name;
        if (!at(TokenKind::Name)) fail(peek().loc, "expected a name after 'as'");
        return advance().text;
    };
    if (accept_name("import")) {
        do {
            std::string path = dotted();
            m.imported_names.push_back(at_name("as") ? alias_or(path) : first_part(path));
        } while (accept_op(","));
    } else {
        ast::Import imp;
        imp.loc = advance().loc; // from
        while (at_op(".") || at_op("...")) {
            imp.level += static_cast<int>(advance().text.size());
        }
        if (!at_name("import") || imp.level == 0) {
            imp.loc = peek().loc;
            imp.module = dotted();
        }
        if (!accept_name("import")) fail(peek().loc, "expected 'import'");
        if (accept_op("*")) {
            m.imported_names.push_back("*"); // everything the module exports
            imp.star = true;
        } else {
            bool paren = accept_op("(");
            do {
                if (paren && at_op(")")) break;
                if (!at(TokenKind::Name)) fail(peek().loc, "expected a name to import");
                const Token &name = advance();
                ast::ImportedName n{name.text, alias_or(name.text), name.loc};
                if (imp.module != "__future__") m.imported_names.push_back(n.alias);
                imp.names.push_back(std::move(n));
            } while (accept_op(","));
            if (paren) expect_op(")");
        }
        if (imp.module != "__future__") m.imports.push_back(std::move(imp));
    }
    if (!accept_op(";")) expect_newline();
}

namespace {
// Names that stand for numbers wherever kernels see them (math constants).
bool is_numeric_name(const std::string &n) {
    return n == "pi" || n == "e" || n == "inf" || n == "nan" || n == "M_PI" || n == "INFINITY" ||
           n == "NAN";
}

// A module constant must look numeric: literals, names, dotted names and operators only, with
// at least one number (or an earlier constant, or pi/e/inf/nan) in it. No calls: `x =
// np.zeros(3)` or `f = g` are ordinary Python.
bool is_numeric_expr(const ast::Expr &e, const ast::Module &m, bool &has_number) {
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::Int:
    case K::Float:
    case K::Bool:
        has_number = true;
        return true;
    case K::Name:
        if (m.find_constant(e.name) || is_numeric_name(e.name)) has_number = true;
        return true;
    case K::Attribute: // `math.pi`: a dotted name, for the type checker to judge
        if (is_numeric_name(e.name)) has_number = true;
        return e.args[0]->kind == K::Name || e.args[0]->kind == K::Attribute;
    case K::Unary:
    case K::Binary:
    case K::BoolOp:
    case K::Compare:
    case K::IfExp:
        for (const auto &a : e.args)
            if (!is_numeric_expr(*a, m, has_number)) return false;
        return true;
    default:
        return false;
    }
}
} // namespace

bool Parser::try_parse_constant(ast::Module &m) {
    const size_t start = pos_;
    const Token &name = advance();
    ast::Constant c{nullptr, name.text, name.loc, nullptr};
    bool numeric = false;
    try {
        if (accept_op(":")) parse_expr(); // the annotation says nothing a kernel needs
        expect_op("=");
        c.value = parse_expr();
        bool has_number = false;
        numeric = (at(TokenKind::Newline) || at_op(";")) &&
                  is_numeric_expr(*c.value, m, has_number) && has_number;
    } catch (const ParseError &) {
        numeric = false;
    }
    // A later non-numeric assignment rebinds the name in Python: the old constant is gone.
    std::erase_if(m.constants, [&](const ast::Constant &k) { return k.name == c.name; });
    if (!numeric) {
        pos_ = start;
        return false;
    }
    m.constants.push_back(std::move(c));
    if (!accept_op(";")) advance();
    return true;
}

} // namespace detail

std::shared_ptr<ast::Module> parse(std::shared_ptr<const SourceFile> file) {
    DiagnosticSink errors(file);
    std::vector<Token> tokens = lex(*file, errors);
    errors.throw_if_errors(/*syntax=*/true);
    detail::Parser parser(file, std::move(tokens), errors);
    auto module = parser.parse_module();
    errors.throw_if_errors(/*syntax=*/true);
    return module;
}

} // namespace smelt::frontend
