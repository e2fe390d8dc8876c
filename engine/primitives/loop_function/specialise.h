// One specialisation of a loop-parallel function, from its arguments to its translation unit,
// without a backend object: LoopFunction compiles what this gives, and tests check the unit of
// any backend (the CUDA one with NVRTC, on machines without a GPU).
#pragma once

#include "primitives/loop_function/units.h"
#include "smelt.h"

#include <string>
#include <vector>

namespace smelt::primitives::loops {

struct Specialisation {
    Outlined code;
    Unit unit;
    std::vector<Type> packed; // the loop function's parameter types
};

// `backend`: "cpu", "opencl" or "cuda" (the unit's dialect and layout).
Specialisation specialise(const ast::Module &module, const std::string &func,
                          const ParallelSpec &spec, const std::vector<Arg> &args,
                          Precision precision, const std::string &backend);

} // namespace smelt::primitives::loops
