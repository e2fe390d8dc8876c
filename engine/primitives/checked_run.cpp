#include "primitives/checked_run.h"

#include "support/error.h"

#include <algorithm>

namespace smelt::primitives {

std::vector<int64_t> argument_lengths(const std::vector<const Arg *> &args) {
    std::vector<int64_t> out;
    for (const Arg *a : args)
        out.push_back(a->is_array() ? static_cast<int64_t>(a->array().size()) : 0);
    return out;
}

Array checked_run_table(const std::vector<int64_t> &lengths, Backend &backend) {
    std::vector<int64_t> t(ir::kBoundsTableHeader + lengths.size(), 0);
    std::copy(lengths.begin(), lengths.end(), t.begin() + ir::kBoundsTableHeader);
    return Array::from_vector(t, &backend);
}

CheckedLaunch::CheckedLaunch(const std::vector<const Arg *> &user_args,
                             const std::vector<std::string> &user_names, Backend &backend)
    : args(user_args), names(user_names),
      table_(checked_run_table(argument_lengths(user_args), backend)), table_arg_(table_) {
    args.push_back(&table_arg_);
    names.push_back(ir::kBoundsTableParam);
}

namespace {

std::string plural(int64_t n, const std::string &one, const std::string &many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// " (100 elements)", " (dimension 1 of length 3)", or " (length unknown)".
std::string extent_text(const ir::BoundsSite &where, int64_t length) {
    if (length == ir::kUnknownLength) return " (length unknown)";
    if (where.rank > 1)
        return " (dimension " + std::to_string(where.dim) + " of length " + std::to_string(length) +
               ")";
    return " (" + plural(length, "element", "elements") + ")";
}

} // namespace

void report_checked_run(const Array &table, const std::vector<ir::BoundsSite> &sites) {
    const std::vector<int64_t> t = table.to_vector<int64_t>();
    if (t[0] == 0) return;
    const size_t site = static_cast<size_t>(t[1]);
    SMELT_INTERNAL_ASSERT(site < sites.size(), "bounds site " << site);
    const ir::BoundsSite &where = sites[site];
    const std::string file = where.loc.file ? where.loc.file->name() : std::string("<kernel>");
    const std::string at = file + ":" + std::to_string(where.loc.line) + ": error: ";
    const char *value = t[3] == 1 ? "nan" : t[3] == 2 ? "inf" : "-inf";
    if (where.kind == ir::BoundsSite::Kind::Return)
        throw UsageError(at + "'" + where.function + "' returned " + value +
                         (t[2] >= 0 ? " for item " + std::to_string(t[2]) : std::string()) +
                         " (finite-checked run; " +
                         plural(t[0], "non-finite value", "non-finite values") + ")");
    if (where.kind == ir::BoundsSite::Kind::Finite) {
        throw UsageError(at + "'" + where.function + "' stored " + value + " into '" + where.array +
                         "'" + (t[2] >= 0 ? "[" + std::to_string(t[2]) + "]" : std::string()) +
                         " (finite-checked run; " +
                         plural(t[0], "non-finite value", "non-finite values") + " stored)");
    }
    throw UsageError(at + "index " + std::to_string(t[2]) + " is out of range for '" + where.array +
                     "'" + extent_text(where, t[3]) + " in '" + where.function +
                     "' (bounds-checked run; " + plural(t[0], "access", "accesses") +
                     " out of range)");
}

} // namespace smelt::primitives
