// Folds operations whose operands are literals: arithmetic (integers wrap at the type's width;
// // and % follow Python), comparisons, casts, `and`/`or`/`not`, min/max, and selects and ifs
// on a constant condition. Division or modulo by zero, shifts by a negative amount or by the
// width or more, and float→int casts out of range are left for run time, never folded.
#pragma once

#include "ir/ir.h"

#include <memory>

namespace smelt::ir {

std::shared_ptr<Module> constant_fold(const Module &m);

} // namespace smelt::ir
