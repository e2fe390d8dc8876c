// Binding call arguments to kernel parameters (JIT typing and checks) and packing them for a
// launch. Shared by every primitive and backend.
#pragma once

#include "frontend/ast.h"
#include "smelt.h"

#include <optional>
#include <string>
#include <vector>

namespace smelt::primitives {

// The parameter types a function declares in its source (nullopt where it declares none), read
// without the single-precision switch so messages can show what the user wrote.
std::vector<std::optional<Type>> declared_param_types(const ast::Module &module,
                                                      const ast::FunctionDef &fn);

// The type parameter `param` of `func` is compiled with, given its declared type (if any) and the
// type of what the call gives it (if anything). `for_request` is true when the type must be handed
// to build_ir (the parameter is unannotated). UsageError for an array whose element type does not
// match, an array for a scalar parameter or a scalar for a pointer one, float64 arrays in single
// precision, and a parameter with neither a declaration nor an argument.
struct BoundParam {
    Type type;
    bool for_request = false;
};
BoundParam bind_param(const std::string &func, const std::string &param,
                      const std::optional<Type> &declared, const std::optional<Type> &given,
                      Precision precision);

// The backend named in options ("" → default_backend()).
Backend &resolve_backend(const Options &options);

// Options with the environment's switches applied (SMELT_FAST_MATH=1 sets fast_math,
// SMELT_BOUNDS_CHECK=1 bounds_check, SMELT_CHECK_FINITE=1 check_finite): what a primitive
// keeps, read once when it is made.
Options with_environment(Options options);

// True when the variable is set to a value other than "", "0", "false", "no" or "off".
bool env_flag(const char *name);

// One byte per argument (array dtype or scalar type): the in-memory specialisation key.
void append_type_key(std::string &key, const Arg &a);

// KernelArgs for the user arguments, scalars converted to their packed types. UsageError for
// an array of another backend. `names` names each argument for messages.
void pack_args(const std::vector<const Arg *> &args, const std::vector<Type> &packed,
               const std::vector<std::string> &names, Backend &backend,
               std::vector<KernelArg> &out);

// For arguments given by name: the index in `given` of the argument for each of `params`, in
// order. UsageError (starting with `who`, e.g. "'f'") naming a name given twice, names that are
// no parameter, and parameters given nothing.
std::vector<size_t> named_order(const std::vector<std::string> &given,
                                const std::vector<std::string> &params, const std::string &who);

// The arguments of `named` (smelt::Named::entries()) in the order of `params` (see named_order).
template <class A>
std::vector<A> order_named(const std::vector<std::pair<std::string, A>> &named,
                           const std::vector<std::string> &params, const std::string &who) {
    std::vector<std::string> given;
    for (const auto &[name, _] : named)
        given.push_back(name);
    std::vector<A> out;
    for (size_t k : named_order(given, params, who))
        out.push_back(named[k].second);
    return out;
}

// "x=doublep,n=int": canonical text of parameter types, for cache keys and messages.
std::string signature_text(const std::vector<std::string> &names, const std::vector<Type> &types);

} // namespace smelt::primitives
