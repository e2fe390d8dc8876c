// Rewrites x**k, for a constant integral k in 0..8 and a pure x (no call or atomic inside), into
// multiplications by repeated squaring: x**2 → x*x, x**3 → (x*x)*x, x**4 → (x*x)*(x*x).
// x**0 is 1 (also for a NaN x, as in Python); every other Pow is left alone.
#pragma once

#include "ir/ir.h"

#include <memory>

namespace smelt::ir {

std::shared_ptr<Module> expand_pow(const Module &m);

} // namespace smelt::ir
