// The per-call header a wrapper writes before an algorithm file (primitives/algorithms/): the
// #defines that give the algorithm its value type, combine and the spelling of the user's
// calls. Shared by every backend's wrappers.
#pragma once

#include "codegen/dialect.h"
#include "primitives/wrapper_spec.h"

#include <functional>
#include <string>
#include <vector>

namespace smelt::primitives {

// "#define NAME VALUE\n". A VALUE of several lines (a block of statements) continues them with
// backslashes, so the lines keep their layout in the generated text.
std::string define_macro(const std::string &name, const std::string &value);

// SMELT_PARAMS: the user parameters as a function's, each followed by ", " (for
// "f(SMELT_PARAMS smelt_i64 smelt_n)"); SMELT_ARGS: their names, each followed by ", ".
// vars.params gets the names smelt_p0, smelt_p1...
std::string user_param_macros(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                              CallVars &vars);

// SMELT_T (the accumulator type `acc`), SMELT_COMBINE(smelt_a, smelt_b) (as SMELT_T) and
// SMELT_NEUTRAL, from the compiled combine functions.
std::string combine_macros(const codegen::Dialect &d, Scalar acc, const CombineSymbols &ops);

// What chunk_reduce.kernel expects beyond SMELT_PARAMS/SMELT_ARGS: combine_macros and
// SMELT_ITEM(smelt_i), spelled over vars.params.
std::string reduce_macros(const codegen::Dialect &d, const ReductionWrapper &w,
                          const CallVars &vars);

// What chunk_scan.kernel expects beyond SMELT_PARAMS/SMELT_ARGS: combine_macros,
// SMELT_INPUT(smelt_i), SMELT_OUTPUT(smelt_i, smelt_item, smelt_prev, smelt_last) and, with
// segments, SMELT_SEGMENT(smelt_i), spelled over vars (CallVars::for_scan() names).
std::string scan_macros(const codegen::Dialect &d, const ScanWrapper &w, const CallVars &vars);

// What elementwise_each.kernel and elementwise_tiled.kernel expect but SMELT_ENTRY_PARAMS
// (vars.params set): the entry names (tiled: SMELT_TILED_ENTRY = entry, SMELT_EACH_ENTRY =
// each_entry; else SMELT_EACH_ENTRY = entry), SMELT_CALL(smelt_i), and for the tiled form
// SMELT_ITEMS = items, SMELT_PRELOAD(smelt_i) from preload(k, index) (the statements loading array
// parameter k at `index`, smelt_i converted to the call's index type) for each array w.preload
// marks, and then SMELT_INDEX_FITS where the index type is narrower than int64.
std::string
elementwise_macros(const codegen::Dialect &d, const ElementwiseWrapper &w, const CallVars &vars,
                   bool tiled, const std::string &entry, const std::string &each_entry, int items,
                   const std::function<std::string(size_t k, const std::string &index)> &preload);

} // namespace smelt::primitives
