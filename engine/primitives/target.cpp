// Backend → PrimitiveTarget, through the backend table (support/backend_table.h).
#include "primitives/target.h"

#include "support/backend_table.h"
#include "support/error.h"

namespace smelt::primitives {

namespace {

const BackendRow &row_with_target(const std::string &backend_name) {
    const BackendRow *row = find_backend_row(backend_name);
    if (!row || !row->target)
        throw UsageError("the parallel primitives are not available on backend '" + backend_name +
                         "' yet (available: " + backend_families_text(", ") + ")");
    return *row;
}

} // namespace

const PrimitiveTarget &primitive_target(const std::string &backend_name) {
    return row_with_target(backend_name).target(nullptr);
}

const PrimitiveTarget &primitive_target(Backend &backend) {
    return row_with_target(backend.name()).target(&backend);
}

} // namespace smelt::primitives
