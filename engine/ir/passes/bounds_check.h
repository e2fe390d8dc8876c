// The checked modes, one pass for every primitive (Elementwise, Reduction, Scan, Kernel):
// - bounds (Options::bounds_check, SMELT_BOUNDS_CHECK=1): every index into an array parameter,
//   a local pointer or a local matrix (LOCAL_MEM ones included) goes through the prelude's
//   smelt_checked_index(i, len, table, site), which records the first index outside [0, len)
//   in a table the host reads after the launch and replaces it by 0, so the kernel goes on
//   without touching memory outside its arrays;
// - finite (Options::check_finite, SMELT_CHECK_FINITE=1): every float value stored into an
//   array (a pointer: global or local memory), and the float an entry returns where the
//   primitive uses it (a Reduction's map, a Scan's input), goes through
//   smelt_checked_finite_<f32|f64>(v, index, table, site), which records the first NaN or
//   infinity (Warp's verify_fp).
//
// Every function of the module is rewritten, so accesses in the functions a kernel calls are
// checked too and reported at their own file.py:line:
// - an entry function (the one a wrapper calls, or the kernel itself) gets one more parameter,
//   `smelt_bounds`, the table; the lengths of its array parameters are read from the table's
//   slots (CheckedEntry::length_slots), which the host fills at each launch;
// - any other function gets, after its own parameters, one `long` length per pointer parameter
//   and then the table; each call passes the lengths of the arrays it passes;
// - an entry that is also called from the module (recursion, a scan's output calling its input)
//   keeps its entry form for the wrapper, and the calls go to a copy in the other form.
// A pointer variable that is assigned carries its length in a hidden local beside it.
//
// The table, a long array: [0] how many events were recorded, and for the first one [1] its site
// (an index into `sites`), [2] the index (-1 when a store's index has side effects and is not
// repeated), [3] the length of the indexed dimension (bounds) or the value stored (1 NaN,
// 2 +inf, 3 -inf; finite); then from kBoundsTableHeader on the lengths the entries' slots name.
#pragma once

#include "ir/ir.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace smelt::ir {

struct BoundsSite {
    enum class Kind { Index, Finite, Return };
    Kind kind = Kind::Index;
    SourceLoc loc;         // of the subscript or store
    std::string array;     // the parameter, local pointer or local matrix indexed
    std::string function;  // the function the access is in (its IR name)
    int dim = 0, rank = 1; // Index: which dimension of how many (matrices have several)
};

struct CheckedEntry {
    std::string func;
    // Per parameter of func: the table slot (>= kBoundsTableHeader) the host puts that array's
    // length in, or -1 for a scalar parameter.
    std::vector<int64_t> length_slots;
    // Finite mode: check the float it returns (the primitive uses it), reporting the value of
    // parameter index_param (the item index) when that is >= 0.
    bool check_return = false;
    int index_param = -1;
};

struct BoundsChecked {
    std::shared_ptr<Module> module;
    std::vector<BoundsSite> sites;
};

inline constexpr const char *kBoundsTableParam = "smelt_bounds";
inline constexpr int kBoundsTableHeader = 4; // count, site, index, length or value; then lengths
// The length of an array whose length the pass cannot follow (a pointer returned by a call):
// only negative indices into it are reported.
inline constexpr int64_t kUnknownLength = std::numeric_limits<int64_t>::max();

// The entries' slots: parameter k of `func` at kBoundsTableHeader + k - first_param, for
// k >= first_param; pointer parameters only. first_param = 1 for an Elementwise or map
// function, whose parameter 0 is the item index (index_param).
CheckedEntry entry_with_consecutive_slots(const Function &f, size_t first_param = 0);

BoundsChecked bounds_check(const Module &m, const std::vector<CheckedEntry> &entries,
                           bool check_index = true, bool check_finite = false);

} // namespace smelt::ir
