// Lexer: Python source text → tokens with NEWLINE/INDENT/DEDENT, as Python's own tokenizer does.
#pragma once

#include "frontend/token.h"
#include "support/error.h"
#include "support/source.h"

#include <string>
#include <vector>

namespace smelt::frontend {

// Tokenises the whole file. Lexical errors (unterminated string, bad character, inconsistent
// dedent, tab/space mix) are reported into `sink`; the lexer recovers where it can, so one run
// reports every lexical error. The result always ends with an End token.
std::vector<Token> lex(const SourceFile &file, DiagnosticSink &sink);

// "Name", "Int", ... for messages and dumps.
const char *token_kind_name(TokenKind kind);

// One token per line, "LINE:COL KIND text", for SMELT_DEBUG dumps.
std::string print_tokens(const std::vector<Token> &tokens);

} // namespace smelt::frontend
