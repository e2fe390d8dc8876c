// Spelling calls of device functions in wrapper text, shared by every backend's wrappers.
#pragma once

#include "codegen/dialect.h"
#include "primitives/wrapper_spec.h"

#include <string>

namespace smelt::primitives {

// "f((int32_t)smelt_i, smelt_p0, (double)smelt_p1)": a call with the wrapper's variables,
// converted with a C cast where the callee's parameter type differs from the variable's.
// Index and N variables are int64_t; item variables have type `item`.
std::string spell_call(const codegen::Dialect &d, const Call &call, const CallVars &vars,
                       const std::vector<EntryParam> &params, Scalar item = Scalar::F64);

// `expr` (of type `from`) converted to `to`: "(int32_t)(expr)", or expr when they are equal.
std::string convert(const codegen::Dialect &d, const std::string &expr, const Type &from,
                    const Type &to);

// A condition on the int64 item count `n` under which every index below n converts to `index`
// (the callee's index type) unchanged, e.g. "smelt_n <= 2147483648" for int32; "" when every
// int64 does.
std::string index_fits(const Type &index, const std::string &n);

} // namespace smelt::primitives
