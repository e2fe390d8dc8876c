// Reads the declared types of a function's parameters and result from every form the language
// accepts: @annotate(x='doublep'), @annotate(doublep='x, y'), Python annotations; and the types
// default values suggest.
#pragma once

#include "frontend/ast.h"
#include "ir/type.h"

#include <optional>
#include <vector>

namespace smelt::lower {

struct DeclaredTypes {
    std::vector<std::optional<Type>> params; // nullopt: not annotated in the source
    // The type a default value suggests (x=0 → long, x=[0.0] → doublep), for parameters that are
    // not annotated. As in Compyle, it is used only where no call gives the parameter a type (a
    // function compiled alone); an argument's type wins over it.
    std::vector<std::optional<Type>> defaults;
    std::optional<Type> result; // nullopt: inferred from the return statements
};

// Problems (an unknown type name, a name that is not a parameter, a type given twice) are
// reported to `sink`. `single` applies the single-precision switch (double → float).
DeclaredTypes read_declared_types(const ast::FunctionDef &fn, bool single, DiagnosticSink &sink);

// A type name written in the source: a string, a name (int_, doublep) or a dotted name
// (types.doublep). Reports to `sink` and returns nullopt when it is not a type.
std::optional<Type> type_from_expr(const ast::Expr &e, bool single, DiagnosticSink &sink);

// Parses a declare() type string: "double", "matrix(3)", "matrix((2, 2), 'int')",
// "LOCAL_MEM matrix(128)", "LOCAL_MEM float". `constant` resolves module constants used as extents.
struct DeclaredLocal {
    Type type; // a LOCAL_MEM scalar has its scalar type here, with local_mem set
    bool local_mem = false;
};
std::optional<DeclaredLocal> parse_declare_string(const std::string &text, bool single,
                                                  const ast::Module &module, std::string &error);

} // namespace smelt::lower
