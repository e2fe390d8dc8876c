// The part of a translation unit that external functions need (ir::Module::externals): their
// headers and pasted source, ahead of the module's functions.
#pragma once

#include "ir/ir.h"

#include <string>

namespace smelt::codegen {

// One block per header and per code text, each inside an include guard named after a hash of
// its text, so a unit assembled from several modules calling the same externals includes each
// once even where the header itself has no guard. Pasted code is preceded by
// `#line 1 "<external NAME>"`, so compiler messages about it name the external. "" when the
// module calls no external.
std::string external_declarations(const ir::Module &m);

} // namespace smelt::codegen
