#include "md2d/config.h"

#include "common/lattice_config.h"
#include "common/lj_limits.h"
#include "common/memory_check.h"
#include "common/neighbor_keys.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace smelt::apps::md2d {

namespace {

std::string short_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

SystemConfig parse_system(const ConfigNode &sys) {
    sys.expect_keys({"lattice", "n", "cells", "density", "spacing", "min_spacing", "box",
                     "box_scale", "boundary", "walls", "mass", "temperature", "seed"});
    SystemConfig out;
    parse_lattice_keys(sys, 2, out.lattice);
    std::string boundary = optional_choice(sys, "boundary", "periodic", {"periodic", "walls"});
    out.boundary = boundary == "walls" ? Boundary::Walls : Boundary::Periodic;
    if (out.boundary == Boundary::Walls) {
        ConfigNode walls = sys.optional_section("walls");
        walls.expect_keys({"stiffness", "range"});
        out.wall_stiffness = optional<double>(walls, "stiffness", 50.0, Range<double>::positive());
        out.wall_range = optional<double>(walls, "range", 0.5, Range<double>::positive());
    } else if (sys.has("walls")) {
        sys.fail_at("walls", "only used with boundary: walls");
    }
    // The paper's setup: with walls the lattice sits in the middle third of the box.
    double default_scale = out.boundary == Boundary::Walls ? 3.0 : 1.0;
    if (sys.has("box") && sys.has("box_scale"))
        sys.fail_at("box_scale", "give either system.box or system.box_scale, not both");
    out.lattice.box_scale =
        optional<double>(sys, "box_scale", default_scale, Range<double>::at_least(1.0));
    out.lattice.periodic = out.boundary == Boundary::Periodic;
    out.mass = optional<double>(sys, "mass", 1.0, Range<double>::positive());
    out.temperature = require<double>(sys, "temperature", Range<double>::non_negative());
    out.seed = optional<uint64_t>(sys, "seed", 1);
    out.lattice.seed = out.seed;
    try {
        out.plan = plan_lattice(out.lattice);
    } catch (const LatticeError &e) {
        sys.fail_at(e.key(), e.what());
    }
    return out;
}

PotentialConfig parse_potential(const ConfigNode &pot) {
    pot.expect_keys({"kind", "epsilon", "sigma", "r_cut", "shift"});
    optional_choice(pot, "kind", "lj", {"lj"});
    PotentialConfig out;
    out.epsilon = optional<double>(pot, "epsilon", 1.0, Range<double>::positive());
    out.sigma = optional<double>(pot, "sigma", 1.0, Range<double>::positive());
    out.r_cut = optional<double>(pot, "r_cut", 2.5, Range<double>::positive());
    out.shift = optional<bool>(pot, "shift", false);
    return out;
}

IntegratorConfig parse_integrator(const ConfigNode &integ) {
    integ.expect_keys({"kind", "dt", "steps"});
    optional_choice(integ, "kind", "velocity_verlet", {"velocity_verlet"});
    IntegratorConfig out;
    out.dt = require<double>(integ, "dt", Range<double>::positive());
    out.steps = require<int64_t>(integ, "steps", Range<int64_t>::non_negative());
    return out;
}

NeighborConfig parse_neighbor(const ConfigNode &nb) {
    nb.expect_keys(
        {"mode", "skin", "rebuild", "newton", "cells_per_r_list", "sorted_lists", "sort_interval"});
    NeighborConfig out;
    out.mode = optional_choice(nb, "mode", "binned", {"binned", "all_pairs"}) == "all_pairs"
                   ? NeighborMode::AllPairs
                   : NeighborMode::Binned;
    out.skin = optional<double>(nb, "skin", 0.3, Range<double>::non_negative());
    out.rebuild = optional_choice(nb, "rebuild", "displacement", {"displacement", "every_step"}) ==
                          "every_step"
                      ? Rebuild::EveryStep
                      : Rebuild::Displacement;
    // auto: on the cpu backend (resolved with the backend, NeighborConfig::newton_on).
    const std::string newton = optional_choice(nb, "newton", "auto", {"auto", "true", "false"});
    if (newton != "auto") out.newton = newton == "true";
    if (out.newton.value_or(false) && out.mode != NeighborMode::Binned)
        nb.fail_at("newton", "half lists need mode: binned (use newton: false or auto with "
                             "all_pairs)");
    // auto: chosen from the backend and the lists (NeighborConfig::cells_per_r_list_for).
    const auto cells_node = nb.find("cells_per_r_list");
    if (cells_node && !(cells_node->yaml().IsScalar() && cells_node->yaml().Scalar() == "auto")) {
        const int per = require<int>(nb, "cells_per_r_list", Range<int>::at_least(1));
        if (per > 2)
            nb.fail_at("cells_per_r_list", "expected auto, 1 or 2, not " + std::to_string(per));
        if (out.mode != NeighborMode::Binned)
            nb.fail_at("cells_per_r_list", "cells are those of mode: binned (all_pairs has no "
                                           "cell grid); use cells_per_r_list: auto");
        out.cells_per_r_list = per;
    }
    // auto: sorted unless the lists are half lists (NeighborConfig::lists_sorted).
    out.sorted_lists = parse_sorted_lists(nb);
    out.sort_interval = parse_sort_interval(nb, out.mode == NeighborMode::Binned);
    return out;
}

// Checks that need more than one section.
void check_combinations(const ConfigNode &root, const Md2dConfig &c) {
    if (c.neighbor.newton.value_or(false) && c.backend != "cpu")
        root.optional_section("neighbor")
            .fail_at("newton", "half lists with Newton's third law run on the cpu backend only "
                               "(GPUs keep full lists: use newton: auto or false)");
    const auto box = c.box();
    const double shortest = std::min(box[0], box[1]);
    if (c.periodic() && !(c.r_list() < 0.5 * shortest))
        root.optional_section("potential")
            .fail_at("r_cut", "r_cut + neighbor.skin = " + format_number(c.r_list()) +
                                  " must be less than half the shortest box edge (" +
                                  short_number(0.5 * shortest) +
                                  ") for the minimum image convention");
    if (!c.periodic() && !(c.system.wall_range < 0.5 * shortest))
        root.section("system").optional_section("walls").fail_at(
            "range",
            "must be less than half the shortest box edge (" + short_number(0.5 * shortest) + ")");
    if (c.periodic() && c.neighbor.mode == NeighborMode::Binned) {
        CellGrid g = cell_grid(c);
        if (g.per_r_list == 2 && (g.ncx < 5 || g.ncy < 5))
            root.optional_section("neighbor")
                .fail_at("cells_per_r_list",
                         "cells of r_list / 2 need at least 5 x 5 of them in a periodic box (the "
                         "box fits " +
                             std::to_string(g.ncx) + " x " + std::to_string(g.ncy) +
                             " of size r_list / 2 = " + format_number(0.5 * c.r_list()) +
                             "); use cells_per_r_list: auto or 1");
        if (g.ncx < 3 || g.ncy < 3)
            root.optional_section("neighbor")
                .fail_at("mode",
                         "binned search in a periodic box needs at least 3 x 3 cells of size "
                         "r_cut + skin = " +
                             format_number(c.r_list()) + " (the box fits " + std::to_string(g.ncx) +
                             " x " + std::to_string(g.ncy) + "); use mode: all_pairs");
    }
}

// Inputs no run survives (lj_limits.h), and a system larger than the machine's memory.
void check_physical_limits(const ConfigNode &root, const Md2dConfig &c) {
    const double tau = c.potential.sigma * std::sqrt(c.system.mass / c.potential.epsilon);
    check_lj_time_step(c.source, "integrator.dt", c.integrator.dt, tau);
    check_thermal_step(c.source, "system.temperature", c.system.temperature, c.system.mass,
                       c.integrator.dt, c.potential.sigma);
    // Per particle at least: 8 state and force arrays, the host copies of a frame, ~20
    // neighbours and the bins (the 2D liquid's count at r_cut + skin = 2.8 sigma); on the cpu
    // backend's half lists also their packed copy with each entry's row and the Newton chunks'
    // buffers (about 330 bytes a particle at 10^6, measured).
    constexpr double kBytesPerParticle = 320;
    check_fits_memory(c.source, root.section("system").has("n") ? "system.n" : "system.cells",
                      c.system.plan.n, kBytesPerParticle);
}

} // namespace

Md2dConfig parse_md2d_config(const ConfigNode &root) {
    root.expect_keys(
        with_run_config_keys({"system", "potential", "integrator", "neighbor", "domain"}));
    Md2dConfig c;
    static_cast<RunConfig &>(c) = parse_run_config(root, {"out/md2d", "md2d"});
    c.system = parse_system(root.section("system"));
    c.potential = parse_potential(root.optional_section("potential"));
    c.integrator = parse_integrator(root.section("integrator"));
    c.neighbor = parse_neighbor(root.optional_section("neighbor"));
    c.domain = parse_domain(root.optional_section("domain"));
    check_combinations(root, c);
    check_domain(root, c);
    check_physical_limits(root, c);
    return c;
}

Md2dConfig load_md2d_config(const std::string &path) {
    return parse_md2d_config(ConfigNode::load_file(path));
}

Md2dConfig load_md2d_config_string(std::string text, std::string file_name) {
    return parse_md2d_config(ConfigNode::load_string(std::move(text), std::move(file_name)));
}

Positions make_initial_positions(const Md2dConfig &config) {
    try {
        return make_positions(config.system.lattice);
    } catch (const LatticeError &e) {
        fail_at_path(config.source, "system." + e.key(), e.what());
    }
}

namespace {

// Cells no smaller than r_list / per_r_list, at most 46340 per side so cell keys fit an int.
CellGrid grid_of(const Md2dConfig &config, int per_r_list) {
    const auto box = config.box();
    const double rl = std::max(config.r_list(), 1e-300);
    CellGrid g;
    g.per_r_list = per_r_list;
    g.ncx = static_cast<int>(std::clamp(std::floor(box[0] * per_r_list / rl), 1.0, 46340.0));
    g.ncy = static_cast<int>(std::clamp(std::floor(box[1] * per_r_list / rl), 1.0, 46340.0));
    g.cell_w = box[0] / g.ncx;
    g.cell_h = box[1] / g.ncy;
    return g;
}

} // namespace

CellGrid cell_grid(const Md2dConfig &config) {
    const int per = config.neighbor.cells_per_r_list_for(config.backend == "cpu");
    CellGrid g = grid_of(config, per);
    // auto falls back to cells of r_list where half-size ones would be too few to be distinct
    // (5 per axis in a periodic box); an explicit 2 is checked in check_combinations.
    if (per == 2 && !config.neighbor.cells_per_r_list && config.periodic() &&
        (g.ncx < 5 || g.ncy < 5))
        return grid_of(config, 1);
    return g;
}

const char *to_string(Boundary b) {
    return b == Boundary::Walls ? "walls" : "periodic";
}
const char *to_string(NeighborMode m) {
    return m == NeighborMode::AllPairs ? "all_pairs" : "binned";
}
const char *to_string(Rebuild r) {
    return r == Rebuild::EveryStep ? "every_step" : "displacement";
}

} // namespace smelt::apps::md2d
