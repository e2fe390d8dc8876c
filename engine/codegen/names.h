// C identifiers for the names in a module. User names are kept as written unless they clash
// with a keyword or predefined name of any C-family dialect (so a function body reads the same
// on every backend), with the prelude's smelt_/SMELT_ namespace, or with an identifier C
// reserves (leading "__" or "_X"); such a name gets a "_" suffix (then "_2", "_3"...).
#pragma once

#include "ir/ir.h"

#include <map>
#include <set>
#include <string>

namespace smelt::codegen {

bool is_reserved_identifier(const std::string &name);

// Chooses C names: `wanted` are the names in order; names already valid are kept (and
// claimed first), the others are renamed to unused names. `taken` holds names that must
// not be used (e.g. the module's function names, for variables).
std::vector<std::string> choose_names(const std::vector<std::string> &wanted,
                                      const std::set<std::string> &taken);

struct ModuleNames {
    std::map<std::string, std::string> functions; // IR name → C name
    std::map<const ir::Function *, std::map<const ir::Var *, std::string>> vars;
};

ModuleNames name_module(const ir::Module &m);

} // namespace smelt::codegen
