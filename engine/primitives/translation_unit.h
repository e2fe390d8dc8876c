// Assembling and compiling a primitive's translation unit:
//     prelude + device functions (one or more IR modules) + line-number reset + wrapper.
#pragma once

#include "ir/ir.h"
#include "primitives/target.h"
#include "smelt.h"

#include <string>
#include <vector>

namespace smelt::primitives {

std::string assemble_unit(const PrimitiveTarget &target,
                          const std::vector<const ir::Module *> &modules,
                          const std::string &wrapper);

// Compiles through the backend's cache (in-process map, disk, build) and resolves the entry
// points: `symbols`, or when empty the target's entry_points(primitive). Throws BackendError
// when the toolchain fails.
// `options`: the primitive's Options (fast_math; includes, libs and extra_flags for external
// functions, primitives/external_options.h).
CompiledKernel compile_unit(Backend &backend, const PrimitiveTarget &target, std::string source,
                            const std::string &primitive, const std::string &signature,
                            const Options &options, std::vector<std::string> symbols = {});

} // namespace smelt::primitives
