#include "md2d/config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace smelt::apps::md2d {

namespace {

constexpr int64_t kMaxParticles = std::numeric_limits<int32_t>::max(); // kernels index with int

template <class E>
E pick(const std::string &s, std::initializer_list<std::pair<const char *, E>> table) {
    for (const auto &[name, value] : table)
        if (s == name) return value;
    return table.begin()->second; // unreachable: require_choice checked the spelling
}

std::string short_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::array<double, 2> pair_of_numbers(const ConfigNode &node) {
    auto v = node.as<std::vector<double>>();
    if (v.size() != 2) node.fail("expected two numbers [x, y]");
    return {v[0], v[1]};
}

void parse_lattice(const ConfigNode &sys, SystemConfig &out) {
    LatticeSpec &spec = out.lattice;
    std::string kind = require_choice(sys, "lattice", {"square", "triangular", "random"});
    spec.kind = pick<LatticeKind>(kind, {{"square", LatticeKind::Square},
                                         {"triangular", LatticeKind::Triangular},
                                         {"random", LatticeKind::Random}});
    const bool random = spec.kind == LatticeKind::Random;

    if (sys.has("n") && sys.has("cells"))
        sys.fail_at("cells", "give either system.n or system.cells, not both");
    if (sys.has("cells")) {
        if (random)
            sys.fail_at("cells", "lattice 'random' has no cells; give the number of particles n");
        ConfigNode cells = sys.at("cells");
        auto v = cells.as<std::vector<int64_t>>();
        if (v.size() != 2) cells.fail("expected two integers [nx, ny]");
        if (v[0] < 1 || v[1] < 1) cells.fail("both cell counts must be >= 1");
        if (v[0] > kMaxParticles / v[1]) cells.fail("too many particles (more than 2^31 - 1)");
        spec.nx = v[0];
        spec.ny = v[1];
    } else if (sys.has("n")) {
        spec.n = require<int64_t>(sys, "n", Range<int64_t>::between(1, kMaxParticles));
    } else {
        sys.fail_as(sys.key_path("n"), "required key is missing (give system.n or system.cells)");
    }

    if (sys.has("density") && sys.has("spacing"))
        sys.fail_at("spacing", "give either system.density or system.spacing, not both");
    if (random && sys.has("spacing"))
        sys.fail_at("spacing", "lattice 'random' is sized by system.density (its smallest "
                               "distance is system.min_spacing)");
    if (sys.has("density")) {
        spec.density = require<double>(sys, "density", Range<double>::positive());
    } else if (sys.has("spacing")) {
        spec.spacing = require<double>(sys, "spacing", Range<double>::positive());
    } else {
        sys.fail_as(sys.key_path("density"),
                    "required key is missing (give system.density or system.spacing)");
    }
    if (!random && sys.has("min_spacing"))
        sys.fail_at("min_spacing", "only used by lattice: random");
    spec.min_spacing = optional<double>(sys, "min_spacing", 0.9, Range<double>::non_negative());
    if (sys.has("box")) spec.box = pair_of_numbers(sys.at("box"));
}

SystemConfig parse_system(const ConfigNode &sys) {
    sys.expect_keys({"lattice", "n", "cells", "density", "spacing", "min_spacing", "box",
                     "box_scale", "boundary", "walls", "mass", "temperature", "seed"});
    SystemConfig out;
    parse_lattice(sys, out);
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
    nb.expect_keys({"mode", "skin", "rebuild"});
    NeighborConfig out;
    out.mode = optional_choice(nb, "mode", "binned", {"binned", "all_pairs"}) == "all_pairs"
                   ? NeighborMode::AllPairs
                   : NeighborMode::Binned;
    out.skin = optional<double>(nb, "skin", 0.3, Range<double>::non_negative());
    out.rebuild = optional_choice(nb, "rebuild", "displacement", {"displacement", "every_step"}) ==
                          "every_step"
                      ? Rebuild::EveryStep
                      : Rebuild::Displacement;
    return out;
}

OutputConfig parse_output(const ConfigNode &o) {
    o.expect_keys({"directory", "prefix", "frame_interval", "thermo_interval", "h5md", "vtk", "csv",
                   "progress"});
    OutputConfig out;
    out.directory = optional<std::string>(o, "directory", out.directory);
    if (out.directory.empty()) o.fail_at("directory", "must not be empty");
    out.prefix = optional<std::string>(o, "prefix", out.prefix);
    if (out.prefix.empty() || out.prefix.find('/') != std::string::npos)
        o.fail_at("prefix", "must be a file name without '/'");
    out.frame_interval = optional<int64_t>(o, "frame_interval", 100, Range<int64_t>::at_least(1));
    out.thermo_interval = optional<int64_t>(o, "thermo_interval", 100, Range<int64_t>::at_least(1));
    // Formats this build cannot write are errors when asked for, and off by default.
    out.h5md = optional<bool>(o, "h5md", SMELT_APPS_HAVE_HDF5 != 0);
    if (out.h5md && !SMELT_APPS_HAVE_HDF5)
        o.fail_at("h5md", "this build has no HDF5 (SMELT_WITH_HDF5=OFF or HDF5 not found)");
    out.vtk = optional<bool>(o, "vtk", false);
    if (out.vtk && !SMELT_APPS_HAVE_VTK)
        o.fail_at("vtk", "this build has no VTK (SMELT_WITH_VTK=OFF or VTK not found)");
    out.csv = optional<bool>(o, "csv", true);
    out.progress = optional<bool>(o, "progress", true);
    return out;
}

// Checks that need more than one section.
void check_combinations(const ConfigNode &root, const Md2dConfig &c) {
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
        if (g.ncx < 3 || g.ncy < 3)
            root.optional_section("neighbor")
                .fail_at("mode",
                         "binned search in a periodic box needs at least 3 x 3 cells of size "
                         "r_cut + skin = " +
                             format_number(c.r_list()) + " (the box fits " + std::to_string(g.ncx) +
                             " x " + std::to_string(g.ncy) + "); use mode: all_pairs");
    }
}

} // namespace

Md2dConfig parse_md2d_config(const ConfigNode &root) {
    root.expect_keys({"backend", "precision", "threads", "system", "potential", "integrator",
                      "neighbor", "output"});
    Md2dConfig c;
    c.source = root.source();
    c.backend = pick<Backend>(
        optional_choice(root, "backend", "cpu", {"cpu", "opencl", "cuda"}),
        {{"cpu", Backend::Cpu}, {"opencl", Backend::OpenCL}, {"cuda", Backend::Cuda}});
    c.precision = optional_choice(root, "precision", "double", {"double", "single"}) == "single"
                      ? Precision::Single
                      : Precision::Double;
    c.threads = optional<int>(root, "threads", 0, Range<int>::between(0, 4096));
    c.system = parse_system(root.section("system"));
    c.potential = parse_potential(root.optional_section("potential"));
    c.integrator = parse_integrator(root.section("integrator"));
    c.neighbor = parse_neighbor(root.optional_section("neighbor"));
    c.output = parse_output(root.optional_section("output"));
    check_combinations(root, c);
    return c;
}

Md2dConfig load_md2d_config(const std::string &path) {
    return parse_md2d_config(ConfigNode::load_file(path));
}

Md2dConfig load_md2d_config_string(std::string text, std::string file_name) {
    return parse_md2d_config(ConfigNode::load_string(std::move(text), std::move(file_name)));
}

Positions2D make_initial_positions(const Md2dConfig &config) {
    try {
        return make_positions(config.system.lattice);
    } catch (const LatticeError &e) {
        fail_at_path(config.source, "system." + e.key(), e.what());
    }
}

CellGrid cell_grid(const Md2dConfig &config) {
    // Cells no smaller than r_list, at most 46340 per side so cell keys fit an int.
    const auto box = config.box();
    const double rl = std::max(config.r_list(), 1e-300);
    CellGrid g;
    g.ncx = static_cast<int>(std::clamp(std::floor(box[0] / rl), 1.0, 46340.0));
    g.ncy = static_cast<int>(std::clamp(std::floor(box[1] / rl), 1.0, 46340.0));
    g.cell_w = box[0] / g.ncx;
    g.cell_h = box[1] / g.ncy;
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
const char *to_string(Backend b) {
    return b == Backend::Cuda ? "cuda" : b == Backend::OpenCL ? "opencl" : "cpu";
}
const char *to_string(Precision p) {
    return p == Precision::Single ? "single" : "double";
}
const char *to_string(LatticeKind k) {
    return k == LatticeKind::Random       ? "random"
           : k == LatticeKind::Triangular ? "triangular"
                                          : "square";
}

} // namespace smelt::apps::md2d
