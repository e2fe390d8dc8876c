// compile(): the stages from kernel text to generated source, in order. Each stage is a pure
// function of its inputs; SMELT_DEBUG=N dumps stage outputs to stderr (see support/debug.h).
//
//   SourceFile → frontend::parse → ast::Module → types::lower_module (infer + build IR)
//              → ir::run_passes (fold, verify) → codegen::emit_module(dialect) → backend
#pragma once

#include "frontend/ast.h"
#include "frontend/constant_overrides.h"
#include "ir/ir.h"
#include "support/source.h"
#include "types/type.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace smelt {

enum class Precision : uint8_t { Double, Single };

// One function asked for by a primitive or the CLI. `arg_types` gives types to parameters the
// source leaves unannotated (JIT specialisation); an annotated parameter given a different type
// here is a UsageError.
struct KernelRequest {
    std::string name;
    std::map<std::string, Type> arg_types;
    SourceLoc requested_at; // where the request came from, if from source (else invalid)
};

// What a loop-parallel function (LoopFunction, ParPy's model) is specialised on besides its
// parameter types: integer scalar arguments become constants of the entry function (loop
// bounds known when it is compiled) and arrays have known extents (`x[:]`, parpy.sum(x[i, :])).
struct LoopEntry {
    std::string function;                               // the requested (emitted) name
    std::map<std::string, int64_t> values;              // parameter → its value
    std::map<std::string, std::vector<int64_t>> shapes; // array parameter → its extents
};

struct CompileOptions {
    Precision precision = Precision::Double;
    std::string backend = "cpu"; // decides which builtins are allowed (LID_0 etc. not on cpu)
    std::shared_ptr<const LoopEntry> loop_entry; // set by LoopFunction only
};

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
