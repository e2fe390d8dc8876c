// What a Program holds: the kernel file and its parsed module, shared by every primitive made
// from it.
#pragma once

#include "frontend/ast.h"
#include "support/source.h"

#include <memory>

namespace smelt::primitives {

struct ProgramData {
    std::shared_ptr<const SourceFile> file;
    std::shared_ptr<const ast::Module> module;
};

} // namespace smelt::primitives
