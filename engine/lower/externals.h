// External functions in the type checker: their declarations checked when a program is made,
// and looked up by name when a kernel calls one (lower_external.cpp types the call).
#pragma once

#include "frontend/ast.h"
#include "frontend/external.h"
#include "ir/type.h"

#include <optional>
#include <vector>

namespace smelt::lower {

// UsageError naming the external and the field for a declaration that cannot be used: a name
// that is no Python identifier or is declared twice, a C name that is no C identifier, a type
// name the language does not know (or a matrix), a backend other than cpu, opencl, cuda, a code
// entry for an unknown backend.
void check_externals(const std::vector<External> &externals);

// The external `name` of the program whose main file is `main` (nullptr when none).
const External *find_external(const ast::Module &main, const std::string &name);

// The parameter or result type an external declares ("void" → Type::void_()); the name was
// checked by check_externals.
Type external_type(const std::string &name);

// Whether `x` exists on `backend` ("cpu", "cpu:serial", "opencl", "cuda"; "" → yes: a check
// for any backend).
bool external_available(const External &x, const std::string &backend);

} // namespace smelt::lower
