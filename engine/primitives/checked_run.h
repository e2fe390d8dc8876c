// The host side of the checked modes (ir/passes/bounds_check.h): the table a checked launch
// gets as its last argument, and the error it reports afterwards. Shared by every primitive.
#pragma once

#include "ir/passes/bounds_check.h"
#include "smelt.h"

#include <string>
#include <vector>

namespace smelt::primitives {

// The length of each argument, in order: the array's size, 0 for a scalar.
std::vector<int64_t> argument_lengths(const std::vector<const Arg *> &args);

// Zeroed counters, then lengths[k] in slot ir::kBoundsTableHeader + k (where
// ir::entry_with_consecutive_slots and the primitives' CheckedEntry slots look for them).
Array checked_run_table(const std::vector<int64_t> &lengths, Backend &backend);

// After the launch: UsageError for the first event the table recorded (an index out of range,
// a non-finite value stored), as file.py:LINE: error: ... naming the array, the index, its
// length and the function the access is in; nothing when there was none.
void report_checked_run(const Array &table, const std::vector<ir::BoundsSite> &sites);

// The arguments of one checked launch of a primitive whose entry takes the user's arguments and
// then the table: made before the launch (lengths at consecutive slots, the user's argument k at
// ir::kBoundsTableHeader + k), report() after it.
class CheckedLaunch {
public:
    CheckedLaunch(const std::vector<const Arg *> &user_args,
                  const std::vector<std::string> &user_names, Backend &backend);
    CheckedLaunch(const CheckedLaunch &) = delete;
    CheckedLaunch &operator=(const CheckedLaunch &) = delete;

    std::vector<const Arg *> args;  // the user's, then the table
    std::vector<std::string> names; // the user's, then ir::kBoundsTableParam
    void report(const std::vector<ir::BoundsSite> &sites) const {
        report_checked_run(table_, sites);
    }

private:
    Array table_;
    Arg table_arg_;
};

} // namespace smelt::primitives
