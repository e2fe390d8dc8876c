// Looking rows up in the backend table (the rows: primitives/backend_table.cpp).
#include "support/backend_table.h"

#include <algorithm>

namespace smelt {

const BackendRow *find_backend_row(const std::string &spec) {
    for (const BackendRow &r : backend_rows())
        if (spec == r.name || (r.alias && spec == r.alias)) return &r;
    const std::string family = spec.substr(0, spec.find(':'));
    for (const BackendRow &r : backend_rows())
        if (family == r.family) return &r;
    return nullptr;
}

std::vector<std::string> backend_families(bool work_groups_only) {
    std::vector<std::string> families;
    for (const BackendRow &r : backend_rows())
        if ((r.work_groups || !work_groups_only) &&
            std::find(families.begin(), families.end(), r.family) == families.end())
            families.push_back(r.family);
    return families;
}

std::string backend_families_text(const char *last_separator, bool work_groups_only) {
    const std::vector<std::string> families = backend_families(work_groups_only);
    std::string out;
    for (size_t k = 0; k < families.size(); ++k)
        out += (k == 0 ? "" : k + 1 == families.size() ? last_separator : ", ") + families[k];
    return out;
}

} // namespace smelt
