// The lexer: Python 3 tokenisation of a whole file. It must get through any valid Python,
// because a kernel file is also an ordinary module; rejecting constructs is the parser's job.
#include "frontend/lexer.h"

#include "frontend/lex_cursor.h"

#include <cctype>
#include <cstring>
#include <string_view>

namespace smelt::frontend {
namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_ident_start(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    // Bytes of UTF-8 sequences are taken as identifier characters: Python allows non-ASCII
    // letters in names, and this keeps columns in bytes.
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u >= 0x80;
}
bool is_ident_char(char c) {
    return is_ident_start(c) || is_digit(c);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char &ch : out)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

bool is_string_prefix(const std::string &p) {
    // t-strings (Python 3.14 template strings) are lexed like f-strings.
    static const char *const kPrefixes[] = {"r",  "u",  "f",  "b",  "t", "br",
                                            "rb", "fr", "rf", "tr", "rt"};
    for (const char *k : kPrefixes)
        if (p == k) return true;
    return false;
}

// Keywords that may directly follow a number (`1if x else 2` is valid, if frowned upon).
bool is_keyword_after_number(std::string_view w) {
    return w == "and" || w == "or" || w == "if" || w == "else" || w == "in" || w == "is" ||
           w == "not" || w == "for";
}

// CPython's limits; they also bound the parser's recursion.
constexpr size_t kMaxIndent = 100;
constexpr size_t kMaxBrackets = 200;

const char *const kOps3[] = {"**=", "//=", ">>=", "<<=", "..."};
const char *const kOps2[] = {"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", ":=",
                             "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="};
const char kOps1[] = "+-*/%@&|^~<>()[]{},:.;=";

// An indentation level measured twice, with tabs to the next multiple of 8 and with tabs as
// one column, as CPython does: when the two measures disagree about how two lines compare, the
// meaning depends on the tab width and the indentation is rejected.
struct Indent {
    int col = 0;
    int alt = 0;
};

class Lexer {
public:
    Lexer(const SourceFile &file, DiagnosticSink &sink) : sink_(sink) {
        c_.src = file.text();
        c_.file = &file;
        c_.line_offset = file.line_offset();
    }

    std::vector<Token> run();

private:
    void emit(TokenKind kind, std::string text, SourceLoc loc) {
        Token t;
        t.kind = kind;
        t.text = std::move(text);
        t.loc = loc;
        if (kind != TokenKind::Newline && kind != TokenKind::Indent && kind != TokenKind::Dedent)
            line_has_tokens_ = true;
        out_.push_back(std::move(t));
    }
    void start_line();
    void end_line();
    void lex_name();
    void lex_string(const std::string &prefix, SourceLoc loc);
    void lex_number();
    void lex_op();
    void finish();

    detail::Cursor c_;
    DiagnosticSink &sink_;
    std::vector<Token> out_;
    std::vector<Indent> indents_{Indent{}};
    std::vector<std::pair<char, SourceLoc>> brackets_; // open brackets, innermost last
    bool line_has_tokens_ = false; // the current logical line has produced a token
    bool at_line_start_ = true;    // indentation of this physical line not yet measured
};

std::vector<Token> Lexer::run() {
    if (c_.src.substr(0, 3) == "\xEF\xBB\xBF") c_.pos = c_.line_start = 3; // UTF-8 BOM
    while (!c_.eof()) {
        if (at_line_start_) {
            start_line();
            continue;
        }
        char ch = c_.peek();
        if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\r') {
            ++c_.pos;
        } else if (ch == '\n') {
            end_line();
        } else if (ch == '#') {
            while (!c_.eof() && c_.peek() != '\n')
                ++c_.pos;
        } else if (ch == '\\') {
            size_t k = c_.peek(1) == '\r' ? 2 : 1;
            if (c_.peek(k) == '\n') { // explicit line joining
                c_.pos += k;
                c_.newline();
            } else if (c_.pos + k >= c_.src.size()) {
                sink_.error(c_.loc(), "unexpected end of file after line continuation character");
                c_.pos += k;
            } else {
                sink_.error(c_.loc(), "unexpected character after line continuation character");
                ++c_.pos;
            }
        } else if (is_ident_start(ch)) {
            lex_name();
        } else if (is_digit(ch) || (ch == '.' && is_digit(c_.peek(1)))) {
            lex_number();
        } else if (ch == '\'' || ch == '"') {
            lex_string("", c_.loc());
        } else {
            lex_op();
        }
    }
    finish();
    return std::move(out_);
}

void Lexer::start_line() {
    at_line_start_ = false;
    int col = 0, alt = 0;
    for (;; ++c_.pos) {
        char ch = c_.peek();
        if (ch == ' ') {
            ++col;
            ++alt;
        } else if (ch == '\t') {
            col = (col / 8 + 1) * 8;
            ++alt;
        } else if (ch == '\f') {
            col = alt = 0; // a form feed resets the column, as in CPython
        } else {
            break;
        }
    }
    char ch = c_.peek();
    // Blank and comment-only lines do not take part in indentation.
    if (c_.eof() || ch == '\n' || ch == '#' || (ch == '\r' && c_.peek(1) == '\n')) return;
    if (ch == '\\' && (c_.peek(1) == '\n' || c_.peek(1) == '\r')) return;

    const SourceLoc loc = c_.loc();
    const char *tab_error = "inconsistent use of tabs and spaces in indentation";
    const Indent top = indents_.back();
    if (col == top.col) {
        if (alt != top.alt) sink_.error(loc, tab_error);
    } else if (col > top.col) {
        if (alt <= top.alt) sink_.error(loc, tab_error);
        indents_.push_back({col, alt});
        if (indents_.size() == kMaxIndent + 1) sink_.error(loc, "too many levels of indentation");
        emit(TokenKind::Indent, "", loc);
    } else {
        while (indents_.size() > 1 && col < indents_.back().col) {
            indents_.pop_back();
            emit(TokenKind::Dedent, "", loc);
        }
        if (col != indents_.back().col)
            sink_.error(loc, "unindent does not match any outer indentation level");
        else if (alt != indents_.back().alt)
            sink_.error(loc, tab_error);
    }
}

void Lexer::end_line() {
    if (brackets_.empty()) {
        // Inside brackets lines are joined implicitly: no NEWLINE, no indentation.
        if (line_has_tokens_) emit(TokenKind::Newline, "", c_.loc());
        line_has_tokens_ = false;
        at_line_start_ = true;
    }
    c_.newline();
}

void Lexer::lex_name() {
    const SourceLoc loc = c_.loc();
    const size_t start = c_.pos;
    while (!c_.eof() && is_ident_char(c_.peek()))
        ++c_.pos;
    std::string_view word = c_.src.substr(start, c_.pos - start);
    char next = c_.peek();
    if ((next == '\'' || next == '"') && is_string_prefix(lower(word))) {
        lex_string(lower(word), loc);
        return;
    }
    emit(TokenKind::Name, std::string(word), loc);
}

void Lexer::lex_string(const std::string &prefix, SourceLoc loc) {
    Token tok;
    tok.loc = loc;
    detail::scan_string(c_, prefix, tok, sink_); // errors are in the sink; keep the token
    line_has_tokens_ = true;
    out_.push_back(std::move(tok));
}

void Lexer::lex_number() {
    const SourceLoc loc = c_.loc();
    const size_t start = c_.pos;
    TokenKind kind = TokenKind::Int;
    const char *what = "decimal";
    auto digits = [&](auto is_digit_of_base) {
        while (is_digit_of_base(c_.peek()) || c_.peek() == '_')
            ++c_.pos;
    };
    char base = static_cast<char>(std::tolower(static_cast<unsigned char>(c_.peek(1))));
    if (c_.peek() == '0' && (base == 'x' || base == 'o' || base == 'b')) {
        c_.pos += 2;
        what = base == 'x' ? "hexadecimal" : base == 'o' ? "octal" : "binary";
        const size_t first = c_.pos;
        if (base == 'x') digits([](char ch) { return std::isxdigit((unsigned char)ch) != 0; });
        if (base == 'o') digits([](char ch) { return ch >= '0' && ch <= '7'; });
        if (base == 'b') digits([](char ch) { return ch == '0' || ch == '1'; });
        if (c_.pos == first || c_.src[c_.pos - 1] == '_' ||
            c_.src.substr(first, c_.pos - first).find("__") != std::string_view::npos)
            sink_.error(loc, std::string("invalid ") + what + " literal");
    } else {
        digits(is_digit);
        if (c_.peek() == '.') {
            kind = TokenKind::Float;
            ++c_.pos;
            digits(is_digit);
        }
        char e = c_.peek();
        char s = c_.peek(1);
        if ((e == 'e' || e == 'E') &&
            (is_digit(s) || ((s == '+' || s == '-') && is_digit(c_.peek(2))))) {
            kind = TokenKind::Float;
            c_.pos += is_digit(s) ? 1 : 2;
            digits(is_digit);
        }
        if (c_.peek() == 'j' || c_.peek() == 'J') {
            kind = TokenKind::Imag;
            ++c_.pos;
        }
        std::string_view text = c_.src.substr(start, c_.pos - start);
        // '_' may only separate two digits.
        for (size_t i = 0; i < text.size(); ++i) {
            if (text[i] != '_') continue;
            if (i == 0 || i + 1 >= text.size() || !is_digit(text[i - 1]) ||
                !is_digit(text[i + 1])) {
                sink_.error(loc, "invalid decimal literal");
                break;
            }
        }
        if (kind == TokenKind::Int && text.size() > 1 && text[0] == '0' &&
            text.find_first_not_of("0_") != std::string_view::npos)
            sink_.error(loc, "leading zeros in decimal integer literals are not permitted; "
                             "use an 0o prefix for octal integers");
    }
    if (is_ident_char(c_.peek())) { // `0b12`, `12abc`, `1L`
        size_t end = c_.pos;
        while (end < c_.src.size() && is_ident_char(c_.src[end]))
            ++end;
        if (!is_keyword_after_number(c_.src.substr(c_.pos, end - c_.pos))) {
            sink_.error(loc, std::string("invalid ") + what + " literal");
            c_.pos = end; // swallow the rest so it does not cascade into more errors
        }
    }
    emit(kind, std::string(c_.src.substr(start, c_.pos - start)), loc);
}

void Lexer::lex_op() {
    const SourceLoc loc = c_.loc();
    std::string_view rest = c_.src.substr(c_.pos);
    for (const char *op : kOps3) {
        if (rest.substr(0, 3) == op) {
            emit(TokenKind::Op, op, loc);
            c_.pos += 3;
            return;
        }
    }
    for (const char *op : kOps2) {
        if (rest.substr(0, 2) == op) {
            emit(TokenKind::Op, op, loc);
            c_.pos += 2;
            return;
        }
    }
    const char ch = c_.peek();
    ++c_.pos;
    if (ch == '\0' || std::strchr(kOps1, ch) == nullptr) {
        unsigned char u = static_cast<unsigned char>(ch);
        if (std::isprint(u)) {
            sink_.error(loc, std::string("invalid character '") + ch + "' in source");
        } else {
            static const char kHex[] = "0123456789abcdef";
            sink_.error(loc, std::string("invalid non-printable character 0x") + kHex[u >> 4] +
                                 kHex[u & 15] + " in source");
        }
        return;
    }
    if (ch == '(' || ch == '[' || ch == '{') {
        brackets_.push_back({ch, loc});
        if (brackets_.size() == kMaxBrackets + 1) sink_.error(loc, "too many nested parentheses");
    } else if (ch == ')' || ch == ']' || ch == '}') {
        const char open = ch == ')' ? '(' : ch == ']' ? '[' : '{';
        if (brackets_.empty()) {
            sink_.error(loc, std::string("unmatched '") + ch + "'");
        } else {
            if (brackets_.back().first != open)
                sink_.error(loc, std::string("closing bracket '") + ch +
                                     "' does not match opening bracket '" + brackets_.back().first +
                                     "'");
            brackets_.pop_back();
        }
    }
    emit(TokenKind::Op, std::string(1, ch), loc);
}

void Lexer::finish() {
    const SourceLoc end = c_.loc();
    if (!brackets_.empty())
        sink_.error(brackets_.back().second,
                    std::string("'") + brackets_.back().first + "' was never closed");
    if (line_has_tokens_) emit(TokenKind::Newline, "", end);
    while (indents_.size() > 1) {
        indents_.pop_back();
        emit(TokenKind::Dedent, "", end);
    }
    emit(TokenKind::End, "", end);
}

} // namespace

std::vector<Token> lex(const SourceFile &file, DiagnosticSink &sink) {
    return Lexer(file, sink).run();
}

const char *token_kind_name(TokenKind kind) {
    switch (kind) {
    case TokenKind::Name:
        return "Name";
    case TokenKind::Int:
        return "Int";
    case TokenKind::Float:
        return "Float";
    case TokenKind::Imag:
        return "Imag";
    case TokenKind::String:
        return "String";
    case TokenKind::Op:
        return "Op";
    case TokenKind::Newline:
        return "Newline";
    case TokenKind::Indent:
        return "Indent";
    case TokenKind::Dedent:
        return "Dedent";
    case TokenKind::End:
        return "End";
    }
    return "?";
}

std::string print_tokens(const std::vector<Token> &tokens) {
    std::string out;
    for (const Token &t : tokens) {
        out += std::to_string(t.loc.line) + ":" + std::to_string(t.loc.col) + " " +
               token_kind_name(t.kind);
        if (t.kind == TokenKind::String) {
            out += " " + t.prefix + "'";
            for (char ch : t.text) {
                if (ch == '\n')
                    out += "\\n";
                else if (ch == '\'' || ch == '\\')
                    out += std::string("\\") + ch;
                else
                    out += ch;
            }
            out += "'";
        } else if (!t.text.empty()) {
            out += " " + t.text;
        }
        out += "\n";
    }
    return out;
}

} // namespace smelt::frontend
