// Parser: tokens → ast::Module, the restricted kernel grammar. The sole owner of
// "X is not supported in kernels" for everything that can be seen in the syntax.
#pragma once

#include "frontend/ast.h"
#include "support/source.h"

#include <memory>

namespace smelt::frontend {

// Parses a whole file into an ast::Module.
//
// Throws CompileError (is_syntax_error() true) only for lexical errors or errors at module level
// that make the file unreadable (an unexpected indent, a `def` line that is not Python). Errors
// inside a function (its parameters, return annotation, decorators or body) are stored in
// FunctionDef::errors and the function is still returned, with the bad statements dropped: a
// file may hold ordinary Python functions beside its kernels, and only compiled functions
// report their errors.
//
// Top-level code other than imports, `def`s and numeric constants (`NAME = <expr>`) is skipped
// unread: it is ordinary Python that is never compiled.
std::shared_ptr<ast::Module> parse(std::shared_ptr<const SourceFile> file);

} // namespace smelt::frontend
