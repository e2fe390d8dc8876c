// The checked modes of the entry function of a primitive:
// - bounds (Options::bounds_check, SMELT_BOUNDS_CHECK=1): every index into an array parameter
//   or a local matrix goes through the prelude's smelt_checked_index(i, len, table, site), which
//   records the first index outside [0, len) in a table the host reads after the launch and
//   replaces it by 0, so the kernel goes on without touching memory outside its arrays;
// - finite (Options::check_finite, SMELT_CHECK_FINITE=1): every float value stored into an
//   array parameter goes through smelt_checked_finite_<f32|f64>(v, index, table, site), which
//   records the first NaN or infinity stored (Warp's verify_fp).
//
// The entry function gets one more parameter, `smelt_bounds`, a long array:
//   [0] how many events were recorded, and for the first one [1] its site (an index into
//   `sites`), [2] the index (-1 when the store's index has side effects and is not repeated),
//   [3] the value stored (1 NaN, 2 +inf, 3 -inf; finite mode), then [4 + k] the length of
//   parameter k (0 for scalars).
// Accesses in the functions it calls are not checked (they are given plain pointers).
#pragma once

#include "ir/ir.h"

#include <memory>
#include <string>
#include <vector>

namespace smelt::ir {

struct BoundsSite {
    enum class Kind { Index, Finite };
    Kind kind = Kind::Index;
    SourceLoc loc;     // of the subscript or store
    std::string array; // the parameter or local matrix indexed
};

struct BoundsChecked {
    std::shared_ptr<Module> module;
    std::vector<BoundsSite> sites;
};

inline constexpr const char *kBoundsTableParam = "smelt_bounds";
inline constexpr int kBoundsTableHeader = 4; // count, site, index, value; then the lengths

BoundsChecked bounds_check(const Module &m, const std::string &entry, bool check_index = true,
                           bool check_finite = false);

} // namespace smelt::ir
