// The translation unit of an Elementwise specialisation, from parameter types alone (used by the
// Elementwise class and by `smelt emit --primitive elementwise`).
#pragma once

#include "frontend/ast.h"
#include "ir/passes/bounds_check.h"
#include "pipeline.h"
#include "primitives/target.h"

#include <optional>
#include <string>
#include <vector>

namespace smelt::primitives {

// What the launch's arguments allow the wrapper to assume (see ElementwiseWrapper); the
// default assumes nothing.
struct ElementwiseArgLayout {
    bool distinct_arrays = false; // no two array arguments share memory
    std::vector<bool> covers_n;   // per argument: an array of at least n items
};

struct ElementwiseUnit {
    std::string source;
    std::string signature;             // canonical "x=doublep,a=double" (+ ";single")
    std::vector<std::string> names;    // parameters after the index
    std::vector<Type> packed;          // the types they are passed as
    int items_per_thread = 1;          // of the target's wrapper
    std::vector<std::string> entries;  // the wrapper's entry points
    std::vector<bool> indexed_at_item; // per parameter after the index (length_check.h)
    // Checked modes (bounds, finite): the wrapper takes one more argument after the user's, the
    // table of ir/passes/bounds_check.h (also in `packed`), and these are its sites.
    bool bounds_checked = false;
    std::vector<ir::BoundsSite> bounds_sites;
};

// `given[k]`: the type the call gives parameter k + 1 (nullopt: use its annotation). UsageError
// for a wrong count or types that do not fit (binding.h); CompileError from the frontend.
ElementwiseUnit elementwise_unit(const ast::Module &module, const std::string &func,
                                 const std::vector<std::optional<Type>> &given, Precision precision,
                                 const PrimitiveTarget &target, const std::string &backend_name,
                                 const ElementwiseArgLayout &layout = {}, bool bounds_check = false,
                                 bool check_finite = false);

// Number of arguments `func` takes after its index; UsageError when there is no such function
// or it has no parameters.
size_t elementwise_arity(const ast::Module &module, const std::string &func);

} // namespace smelt::primitives
