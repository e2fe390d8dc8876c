// Type inference and lowering: ast::Module + requested functions → typed ir::Module.
#pragma once

#include "frontend/ast.h"
#include "ir/ir.h"
#include "lower/request.h"

#include <memory>
#include <vector>

namespace smelt::lower {

// Types the requested functions and every function they call (one specialisation per distinct
// argument-type list), and builds their IR. Requested functions keep their names; further
// specialisations of a callee get a numeric suffix. All user errors found are reported together
// as one CompileError; parse errors stored in a reached function are reported first.
std::shared_ptr<ir::Module> lower_module(const ast::Module &module,
                                         const std::vector<KernelRequest> &requests,
                                         const CompileOptions &options);

} // namespace smelt::lower
