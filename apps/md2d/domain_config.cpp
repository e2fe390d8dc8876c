// md2d's `domain` section: the grid of MPI ranks over x and y (md2d/domain.h). Kept apart from
// config.cpp: only a run on more than one rank reads it.
#include "common/domain/cart_grid.h"
#include "common/domain/mpi_env.h"
#include "md2d/config.h"

#include <stdexcept>

namespace smelt::apps::md2d {

DomainConfig parse_domain(const ConfigNode &dom) {
    dom.expect_keys({"grid"});
    DomainConfig out;
    if (auto g = dom.find("grid")) {
        auto items = g->elements();
        if (!g->is_sequence() || items.size() != 2)
            g->fail("expected two rank counts [x, y] (0 = chosen by MPI)");
        for (size_t a = 0; a < 2; ++a) {
            out.grid[a] = items[a].as<int>();
            if (out.grid[a] < 0) items[a].fail("must be >= 0 (0 = chosen by MPI)");
        }
    }
    return out;
}

std::array<int, 3> domain_dims(const Md2dConfig &config, int ranks) {
    return domain::choose_dims(ranks, {config.domain.grid[0], config.domain.grid[1], 1}, 2);
}

// On more than one MPI rank: the grid must fit the rank count, and every cut axis' sub-box must
// hold r_list (ghosts come from the adjacent ranks only).
void check_domain(const ConfigNode &root, const Md2dConfig &c) {
    if (!mpi::distributed()) return;
    const ConfigNode dom = root.optional_section("domain");
    auto fail = [&](const std::string &message) {
        if (dom.has("grid")) dom.fail_at("grid", message);
        root.fail_as("domain.grid", message);
    };
    std::array<int, 3> dims;
    try {
        dims = domain_dims(c, mpi::size());
    } catch (const std::invalid_argument &e) {
        fail(e.what());
    }
    const auto box = c.box();
    const auto grid =
        domain::CartGrid::make(0, dims, {box[0], box[1], 1.0}, {c.periodic(), c.periodic(), false});
    const std::string thin = domain::check_thickness(grid, c.r_list(), 2);
    if (!thin.empty()) fail(thin);
}

} // namespace smelt::apps::md2d
