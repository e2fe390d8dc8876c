// md2d's `domain` section: the grid of MPI ranks over x and y (md2d/domain.h). Kept apart from
// config.cpp: only a run on more than one rank reads it.
#include "common/domain/cart_grid.h"
#include "common/domain/grid_config.h"
#include "md2d/config.h"

namespace smelt::apps::md2d {

DomainConfig parse_domain(const ConfigNode &dom) {
    DomainConfig out;
    domain::parse_grid(dom, out.grid, {"transport"});
    out.transport = domain::parse_transport(
        optional_choice(dom, "transport", "auto", {"auto", "host", "nccl"}));
    return out;
}

std::array<int, 3> domain_dims(const Md2dConfig &config, int ranks) {
    return domain::choose_dims(ranks, {config.domain.grid[0], config.domain.grid[1], 1}, 2);
}

// On more than one MPI rank: the grid must fit the rank count, and every cut axis' sub-box must
// hold r_list (ghosts come from the adjacent ranks only).
void check_domain(const ConfigNode &root, const Md2dConfig &c) {
    const auto box = c.box();
    domain::check_grid(root, {c.domain.grid[0], c.domain.grid[1], 1}, {box[0], box[1], 1.0},
                       {c.periodic(), c.periodic(), false}, c.r_list(), 2);
    if (c.domain.transport == domain::Transport::Nccl && c.backend != "cuda")
        root.optional_section("domain").fail_at(
            "transport", "nccl links the GPUs of the cuda backend (backend: " + c.backend +
                             "); use transport: auto or host");
}

} // namespace smelt::apps::md2d
