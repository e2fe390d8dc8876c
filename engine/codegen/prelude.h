// The helper functions generated code relies on (Python's // and %, wrapping arithmetic,
// min/max, integer abs and pow, isnan/isinf/isfinite, atomics, constants), as C text for a
// dialect. The arithmetic is one macro-parametrised text shared by all dialects
// (prelude_common.inc); the dialect adds its head (includes, SMELT_INLINE) and atomics.
#pragma once

#include "codegen/dialect.h"

#include <string>

namespace smelt::codegen {

// `with_f64 = false` leaves out every double-precision instance (and the word "double"), for
// single-precision programs on devices without fp64.
// `bounds_checked` adds smelt_checked_index and smelt_checked_finite_* (the checked modes of
// ir/passes/bounds_check.h), which need 64-bit atomics.
std::string prelude(const Dialect &d, bool with_f64 = true, bool bounds_checked = false);

} // namespace smelt::codegen
