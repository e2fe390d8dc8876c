// Tokens of Python source, as produced by the lexer.
#pragma once

#include "support/source.h"

#include <string>

namespace smelt {

enum class TokenKind {
    Name,
    Int,     // integer literal (decimal, 0x, 0o, 0b; underscores allowed)
    Float,   // float literal
    Imag,    // imaginary literal (1j): lexed so it can be rejected with a message
    String,  // string or bytes literal; `text` holds the decoded value
    Op,      // operator or delimiter; `text` holds its spelling ("+", "**=", "(", "->", ...)
    Newline, // end of a logical line
    Indent,
    Dedent,
    End,
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text; // spelling (for String: the value without quotes and prefix)
    SourceLoc loc;
    std::string prefix; // String only: the prefix letters (r, b, f, ...), lower-cased

    bool is_op(const char *s) const { return kind == TokenKind::Op && text == s; }
    bool is_name(const char *s) const { return kind == TokenKind::Name && text == s; }
};

} // namespace smelt
