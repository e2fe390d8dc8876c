// compile(): the stages from kernel text to generated source, in order. Each stage is a pure
// function of its inputs; SMELT_DEBUG=N dumps stage outputs to stderr (see support/debug.h).
//
//   SourceFile → frontend::parse → ast::Module → types::lower_module (infer + build IR)
//              → ir::run_passes (fold, verify) → codegen::emit_module(dialect) → backend
#pragma once

#include "frontend/ast.h"
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

struct CompileOptions {
    Precision precision = Precision::Double;
    std::string backend = "cpu"; // decides which builtins are allowed (LID_0 etc. not on cpu)
};

} // namespace smelt
