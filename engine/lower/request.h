// What the stages after parsing are asked for: the functions a primitive or the CLI requests
// and the options they are compiled with. Lowering (lower/) reads them; pipeline.h and the
// primitives fill them in.
#pragma once

#include "ir/type.h"
#include "support/source.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace smelt::lower {

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

} // namespace smelt::lower

namespace smelt {

// What every stage from lowering on is asked for, and Precision is the public API's
// (Options::precision): also names of smelt itself.
using lower::CompileOptions;
using lower::KernelRequest;
using lower::LoopEntry;
using lower::Precision;

} // namespace smelt
