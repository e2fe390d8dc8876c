// Kernel libraries: a kernel file may import functions and constants from other kernel files
// (`from box import min_image`). load_program() parses a file and every kernel file it imports,
// transitively, and links each `from ... import` to the file it names.
#pragma once

#include "frontend/ast.h"
#include "support/source.h"

#include <memory>
#include <string>
#include <vector>

namespace smelt::frontend {

// The directories searched for `from a.b import ...` after the importing file's own directory:
// `given`, in order, then the entries of $SMELT_KERNEL_PATH (colon-separated; empty entries are
// skipped).
std::vector<std::string> kernel_search_path(const std::vector<std::string> &given);

// True for modules that are never kernel files wherever a file of their name is (the language's
// own packages and the ones kernel files import for CPython): smelt, compyle, numpy, math,
// cmath, __future__ and their submodules.
bool is_python_only_module(const std::string &module);

// Parses `main` and the kernel files it imports. A module `a.b` is the file `a/b.py`, looked for
// in the importing file's directory, then in `search_path` (absolute imports); `from .a import`
// looks only in the importing file's directory (`..a` in its parent, ...). A module with no such
// file is an ordinary Python import (math, numpy, smelt, ...): its Import keeps `resolved` null,
// and only a kernel that calls a name it imports is an error (when compiled). A file reached
// twice (diamonds, cycles) is parsed once. The returned main module owns the others
// (ast::Module::imported_modules).
//
// Throws CompileError for a module-level syntax error in any file (in that file's name and
// lines), and for a name imported from a kernel file that the file does not define (located at
// the name in the import statement). A file whose name starts with '<' (text with no file, e.g.
// "<string>") has no directory: only `search_path` is searched for its imports.
std::shared_ptr<ast::Module> load_program(std::shared_ptr<const SourceFile> main,
                                          const std::vector<std::string> &search_path);

} // namespace smelt::frontend
