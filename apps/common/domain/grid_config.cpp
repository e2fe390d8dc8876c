#include "common/domain/grid_config.h"

#include "common/domain/cart_grid.h"
#include "common/domain/mpi_env.h"

#include <stdexcept>
#include <string>

namespace smelt::apps::domain {

void parse_grid(const ConfigNode &dom, std::span<int> grid,
                const std::vector<std::string_view> &app_keys) {
    std::vector<std::string_view> keys = {"grid"};
    keys.insert(keys.end(), app_keys.begin(), app_keys.end());
    dom.expect_keys(keys);
    const auto g = dom.find("grid");
    if (!g) return;
    auto items = g->elements();
    if (!g->is_sequence() || items.size() != grid.size())
        g->fail(grid.size() == 2 ? "expected two rank counts [x, y] (0 = chosen by MPI)"
                                 : "expected three rank counts [x, y, z] (0 = chosen by MPI)");
    for (size_t a = 0; a < grid.size(); ++a) {
        grid[a] = items[a].as<int>();
        if (grid[a] < 0) items[a].fail("must be >= 0 (0 = chosen by MPI)");
    }
}

void check_grid(const ConfigNode &root, const std::array<int, 3> &requested,
                const std::array<double, 3> &box, const std::array<bool, 3> &periodic,
                double r_list, int dimensions) {
    if (!mpi::distributed()) return;
    const ConfigNode dom = root.optional_section("domain");
    auto fail = [&](const std::string &message) {
        if (dom.has("grid")) dom.fail_at("grid", message);
        root.fail_as("domain.grid", message);
    };
    std::array<int, 3> dims;
    try {
        dims = choose_dims(mpi::size(), requested, dimensions);
    } catch (const std::invalid_argument &e) {
        fail(e.what());
    }
    const auto grid = CartGrid::make(0, dims, box, periodic);
    const std::string thin = check_thickness(grid, r_list, dimensions);
    if (!thin.empty()) fail(thin);
}

} // namespace smelt::apps::domain
