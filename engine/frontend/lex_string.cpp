// String literals: finding where a literal ends (including the replacement fields of f-strings,
// which may hold nested strings) and decoding the escapes of non-raw literals.
#include "frontend/lex_cursor.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace smelt::frontend::detail {
namespace {

bool is_ident_char(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ||
           u >= 0x80;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void append_utf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Reads exactly `n` hex digits at body[i]; returns -1 when there are fewer.
int64_t read_hex(std::string_view body, size_t i, int n) {
    int64_t v = 0;
    for (int k = 0; k < n; ++k) {
        if (i + k >= body.size()) return -1;
        int d = hex_value(body[i + k]);
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

// Decodes the escapes of a non-raw literal body, as Python does. Code points are written as
// UTF-8 in str literals and as single bytes in bytes literals. \N{name} is kept as written
// (there is no Unicode name table here; such a string can only be rejected later anyway).
// Returns an error message, or an empty string.
std::string decode_escapes(std::string_view body, bool bytes, std::string &out) {
    size_t i = 0;
    while (i < body.size()) {
        char ch = body[i];
        if (ch == '\r' && i + 1 < body.size() && body[i + 1] == '\n') {
            ++i; // line endings inside literals are normalised to '\n'
            continue;
        }
        if (ch != '\\' || i + 1 >= body.size()) {
            out += ch;
            ++i;
            continue;
        }
        char e = body[i + 1];
        i += 2;
        switch (e) {
        case '\n':
            break; // backslash-newline: the line continues, nothing is added
        case '\r':
            if (i < body.size() && body[i] == '\n') ++i;
            break;
        case '\\':
        case '\'':
        case '"':
            out += e;
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case '0':
        case '1':
        case '2':
        case '3':
        case '4':
        case '5':
        case '6':
        case '7': {
            uint32_t v = e - '0';
            for (int k = 0; k < 2 && i < body.size() && body[i] >= '0' && body[i] <= '7'; ++k)
                v = v * 8 + (body[i++] - '0');
            if (bytes)
                out += static_cast<char>(v & 0xFF);
            else
                append_utf8(out, v);
            break;
        }
        case 'x': {
            int64_t v = read_hex(body, i, 2);
            if (v < 0) return "invalid \\x escape: it needs two hex digits (\\xhh)";
            i += 2;
            if (bytes)
                out += static_cast<char>(v);
            else
                append_utf8(out, static_cast<uint32_t>(v));
            break;
        }
        case 'u':
        case 'U': {
            if (bytes) { // not an escape in bytes literals: kept as written
                out += '\\';
                out += e;
                break;
            }
            int n = e == 'u' ? 4 : 8;
            int64_t v = read_hex(body, i, n);
            if (v < 0)
                return e == 'u' ? "invalid \\u escape: it needs four hex digits"
                                : "invalid \\U escape: it needs eight hex digits";
            if (v > 0x10FFFF) return "invalid \\U escape: code point above U+10FFFF";
            i += n;
            append_utf8(out, static_cast<uint32_t>(v));
            break;
        }
        default: // unknown escapes keep their backslash, as in Python
            out += '\\';
            out += e;
            break;
        }
    }
    return {};
}

bool skip_fstring_field(Cursor &c, DiagnosticSink &sink);

// Skips a nested string literal inside an f-string field; its prefix letters were already
// passed over as ordinary characters, so they are read back from the text before the quote.
bool skip_nested_string(Cursor &c, DiagnosticSink &sink) {
    size_t p = c.pos;
    while (p > 0 && is_ident_char(c.src[p - 1]) && c.pos - p < 2)
        --p;
    std::string prefix;
    for (size_t k = p; k < c.pos; ++k)
        prefix += static_cast<char>(std::tolower(c.src[k]));
    if (prefix.find_first_not_of("rbfut") != std::string::npos) prefix.clear();
    Token inner;
    inner.loc = c.loc();
    return scan_string(c, prefix, inner, sink);
}

// The format spec after ':' in a field: literal text, except nested {fields}.
bool skip_format_spec(Cursor &c, DiagnosticSink &sink) {
    while (!c.eof()) {
        char ch = c.peek();
        if (ch == '\n') {
            c.newline();
        } else if (ch == '{') {
            ++c.pos;
            if (!skip_fstring_field(c, sink)) return false;
        } else if (ch == '}') {
            ++c.pos;
            return true;
        } else {
            ++c.pos;
        }
    }
    return false;
}

// Skips one replacement field of an f-string; c.pos is just after its '{'. Since Python 3.12 a
// field may hold strings with the same quote as the enclosing literal, so nested literals are
// scanned as literals rather than searched for the closing quote.
bool skip_fstring_field(Cursor &c, DiagnosticSink &sink) {
    int depth = 0; // brackets opened inside the field's expression
    while (!c.eof()) {
        char ch = c.peek();
        if (ch == '\n') {
            c.newline();
            continue;
        }
        if (ch == '\'' || ch == '"') {
            if (!skip_nested_string(c, sink)) return false;
            continue;
        }
        if (ch == '(' || ch == '[' || ch == '{') {
            ++depth;
        } else if (ch == ')' || ch == ']') {
            --depth;
        } else if (ch == '}') {
            ++c.pos;
            if (depth == 0) return true;
            --depth;
            continue;
        } else if (ch == ':' && depth == 0 && c.peek(1) != '=') {
            ++c.pos;
            return skip_format_spec(c, sink);
        }
        ++c.pos;
    }
    return false;
}

} // namespace

bool scan_string(Cursor &c, const std::string &prefix, Token &tok, DiagnosticSink &sink) {
    const char quote = c.peek();
    const bool triple = c.peek(1) == quote && c.peek(2) == quote;
    const bool raw = prefix.find('r') != std::string::npos;
    const bool formatted =
        prefix.find('f') != std::string::npos || prefix.find('t') != std::string::npos;
    const bool bytes = prefix.find('b') != std::string::npos;
    const char *unterminated =
        triple ? "unterminated triple-quoted string literal" : "unterminated string literal";
    tok.kind = TokenKind::String;
    tok.prefix = prefix;
    c.pos += triple ? 3 : 1;
    const size_t body_start = c.pos;
    for (;;) {
        if (c.eof()) {
            sink.error(tok.loc, unterminated);
            return false;
        }
        char ch = c.peek();
        if (ch == '\\') {
            // An escaped character never ends the literal, in raw literals too (r"\"" is valid).
            if (c.peek(1) == '\r' && c.peek(2) == '\n') ++c.pos;
            if (c.peek(1) == '\n') {
                ++c.pos;
                c.newline();
            } else {
                c.pos = std::min(c.pos + 2, c.src.size());
            }
            continue;
        }
        if (ch == '\n') {
            if (!triple) {
                // Stop at the end of the line so the next line is lexed normally.
                sink.error(tok.loc, unterminated);
                return false;
            }
            c.newline();
            continue;
        }
        if (formatted && ch == '{') {
            if (c.peek(1) == '{') {
                c.pos += 2;
                continue;
            }
            ++c.pos;
            if (!skip_fstring_field(c, sink)) {
                sink.error(tok.loc, unterminated);
                return false;
            }
            continue;
        }
        if (ch == quote && (!triple || (c.peek(1) == quote && c.peek(2) == quote))) break;
        ++c.pos;
    }
    std::string_view body = c.src.substr(body_start, c.pos - body_start);
    c.pos += triple ? 3 : 1;
    tok.text.clear();
    if (raw || formatted) {
        for (size_t i = 0; i < body.size(); ++i)
            if (!(body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n'))
                tok.text += body[i];
        return true;
    }
    std::string err = decode_escapes(body, bytes, tok.text);
    if (!err.empty()) {
        sink.error(tok.loc, err);
        return false;
    }
    return true;
}

} // namespace smelt::frontend::detail
