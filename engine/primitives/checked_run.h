// The host side of the checked modes (ir/passes/bounds_check.h): the table a checked launch
// gets as its last argument, and the error it reports afterwards.
#pragma once

#include "ir/passes/bounds_check.h"
#include "smelt.h"

#include <string>
#include <vector>

namespace smelt::primitives {

// Zeroed counters, then the length of each parameter (the index first; 0 for scalars).
Array checked_run_table(const std::vector<const Arg *> &args, Backend &backend);

// After the launch: UsageError for the first event the table recorded (an index out of range,
// a non-finite value stored), as file.py:LINE: error: ...; nothing when there was none.
// `args` and `names` are the user's arguments and parameter names (for the array's length).
void report_checked_run(const Array &table, const std::vector<ir::BoundsSite> &sites,
                        const std::string &func, const std::vector<const Arg *> &args,
                        const std::vector<std::string> &names);

} // namespace smelt::primitives
