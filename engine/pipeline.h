// compile(): the stages from kernel text to generated source, in order. Each stage is a pure
// function of its inputs; SMELT_DEBUG=N dumps stage outputs to stderr (see support/debug.h).
//
//   SourceFile → frontend::parse → ast::Module → lower::lower_module (infer + build IR)
//              → ir::run_passes (fold, verify) → codegen::emit_module(dialect) → backend
#pragma once

#include "frontend/ast.h"
#include "frontend/constant_overrides.h"
#include "ir/ir.h"
#include "lower/request.h"
#include "support/source.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace smelt {

// Reads a kernel file. A missing or unreadable file is a UsageError.
std::shared_ptr<const SourceFile> read_source_file(const std::string &path);

// Lexes and parses a whole file (stage dump at SMELT_DEBUG >= 4). Errors inside functions are
// kept with each function and reported only when it is compiled. Its `from ... import`s are
// not followed (see parse_program).
std::shared_ptr<const ast::Module> parse_source(std::shared_ptr<const SourceFile> file);

// parse_source() of `main` and of every kernel file it imports (kernel libraries, see
// frontend/imports.h and docs/LANGUAGE.md): modules are looked for in main's directory, then in
// `kernel_path`, then in $SMELT_KERNEL_PATH. Throws CompileError for module-level syntax errors
// in any of the files and for names imported from a kernel file that it does not define.
// `constants` then sets module constants of main (frontend/constant_overrides.h; UsageError
// for a name that is not one). `externals` are the external functions the program's kernels
// may call (frontend/external.h; UsageError for a declaration that cannot be used).
std::shared_ptr<const ast::Module>
parse_program(std::shared_ptr<const SourceFile> main,
              const std::vector<std::string> &kernel_path = {},
              const std::map<std::string, ConstantValue> &constants = {},
              const std::vector<External> &externals = {});

// Types and lowers the requested functions and their callees, then runs the IR pass script
// (dumps at SMELT_DEBUG >= 2). Throws CompileError with every diagnostic found.
std::shared_ptr<ir::Module> build_ir(const ast::Module &module,
                                     const std::vector<KernelRequest> &requests,
                                     const CompileOptions &options);

// The device functions of `module` as source for a backend ("cpu", "opencl", "cuda"),
// with the backend's prelude first.
std::string emit_source(const ir::Module &module, const std::string &backend);

// `smelt check`: every diagnostic of the named functions, or of every annotated function when
// `names` is empty. An empty result means the file is clean.
std::vector<Diagnostic> check_functions(const ast::Module &module,
                                        const std::vector<std::string> &names,
                                        const CompileOptions &options);

} // namespace smelt
