// The lexer's read position, shared by the main lexer and the string-literal scanner.
// Internal to the frontend.
#pragma once

#include "frontend/token.h"
#include "support/error.h"

#include <string>
#include <string_view>

namespace smelt::frontend::detail {

struct Cursor {
    std::string_view src;
    const SourceFile *file = nullptr; // stamped on every location
    int line_offset = 0;
    size_t pos = 0;
    int line = 1;          // physical line of `pos`, 1-based
    size_t line_start = 0; // offset of the first byte of that line

    bool eof() const { return pos >= src.size(); }
    // The byte `ahead` positions on, or '\0' past the end.
    char peek(size_t ahead = 0) const { return pos + ahead < src.size() ? src[pos + ahead] : '\0'; }
    SourceLoc loc() const {
        return {line + line_offset, static_cast<int>(pos - line_start) + 1, file};
    }
    // Steps over the '\n' at `pos`, starting the next physical line.
    void newline() {
        ++pos;
        ++line;
        line_start = pos;
    }
};

// Scans a string literal whose opening quote is at c.pos (the prefix, lower-cased, has already
// been consumed). Sets tok.text to the decoded value (raw text for f-strings, which are only
// ever rejected) and leaves c.pos after the closing quote. Reports errors into `sink` at
// tok.loc and returns false when the literal is unterminated or has a bad escape.
bool scan_string(Cursor &c, const std::string &prefix, Token &tok, DiagnosticSink &sink);

} // namespace smelt::frontend::detail
