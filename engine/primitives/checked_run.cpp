#include "primitives/checked_run.h"

#include "support/error.h"

namespace smelt::primitives {

// The table of ir/passes/bounds_check.h for one launch: zeroed counters, then the length of
// each parameter (the index first; 0 for scalars).
Array checked_run_table(const std::vector<const Arg *> &args, Backend &backend) {
    std::vector<int64_t> t(ir::kBoundsTableHeader + 1 + args.size(), 0);
    for (size_t k = 0; k < args.size(); ++k)
        if (args[k]->is_array())
            t[ir::kBoundsTableHeader + 1 + k] = static_cast<int64_t>(args[k]->array().size());
    return Array::from_vector(t, &backend);
}

// After a checked launch: UsageError for the first event it recorded (an index out of range, a
// non-finite value stored).
void report_checked_run(const Array &table, const std::vector<ir::BoundsSite> &sites,
                        const std::string &func, const std::vector<const Arg *> &args,
                        const std::vector<std::string> &names) {
    const std::vector<int64_t> t = table.to_vector<int64_t>();
    if (t[0] == 0) return;
    const size_t site = static_cast<size_t>(t[1]);
    SMELT_INTERNAL_ASSERT(site < sites.size(), "bounds site " << site);
    const ir::BoundsSite &where = sites[site];
    std::string extent;
    for (size_t k = 0; k < names.size(); ++k)
        if (names[k] == where.array && args[k]->is_array())
            extent = " (" + std::to_string(args[k]->array().size()) + " elements)";
    const std::string file = where.loc.file ? where.loc.file->name() : std::string("<kernel>");
    const std::string at = file + ":" + std::to_string(where.loc.line) + ": error: ";
    if (where.kind == ir::BoundsSite::Kind::Finite) {
        const char *value = t[3] == 1 ? "nan" : t[3] == 2 ? "inf" : "-inf";
        throw UsageError(at + "'" + func + "' stored " + value + " into '" + where.array + "'" +
                         (t[2] >= 0 ? "[" + std::to_string(t[2]) + "]" : std::string()) +
                         " (finite-checked run; " + std::to_string(t[0]) + " non-finite value" +
                         (t[0] == 1 ? "" : "s") + " stored)");
    }
    throw UsageError(at + "index " + std::to_string(t[2]) + " is out of range for '" + where.array +
                     "'" + extent + " in '" + func + "' (bounds-checked run; " +
                     std::to_string(t[0]) + " access" + (t[0] == 1 ? "" : "es") + " out of range)");
}

} // namespace smelt::primitives
