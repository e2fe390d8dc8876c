// The pass script: the passes that run between IR construction and code generation, in order,
// with verify() after each. `dump`, when given, sees the module after every pass (SMELT_DEBUG).
#pragma once

#include "ir/ir.h"

#include <functional>
#include <memory>
#include <string>

namespace smelt::ir {

using PassDump = std::function<void(const std::string &pass, const Module &)>;

std::shared_ptr<Module> run_passes(const Module &m, const PassDump &dump = {});

} // namespace smelt::ir
