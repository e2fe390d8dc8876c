#include "md3d/config.h"

#include "common/domain/cart_grid.h"
#include "common/domain/grid_config.h"
#include "common/domain/mpi_env.h"
#include "common/h5md_reader.h"
#include "common/lattice_config.h"
#include "common/lj_limits.h"
#include "common/memory_check.h"
#include "common/neighbor_keys.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace smelt::apps::md3d {

namespace {

constexpr int kMaxTypes = 64;
const char *const kAxisNames[3] = {"x", "y", "z"};

std::string short_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// A string or a list of three strings, each one of `choices`.
std::array<std::string, 3> per_axis_choice(const ConfigNode &node,
                                           std::initializer_list<std::string_view> choices) {
    auto check = [&](const ConfigNode &v) {
        std::string s = v.as<std::string>();
        if (std::find(choices.begin(), choices.end(), s) == choices.end()) {
            std::string all;
            for (std::string_view c : choices)
                all += (all.empty() ? "" : " | ") + std::string(c);
            v.fail("must be one of " + all + " (got '" + s + "')");
        }
        return s;
    };
    if (!node.is_sequence()) {
        std::string s = check(node);
        return {s, s, s};
    }
    auto items = node.elements();
    if (items.size() != 3) node.fail("expected one value or a list of three [x, y, z]");
    return {check(items[0]), check(items[1]), check(items[2])};
}

// A number or a list of three numbers, each >= 1.
std::array<double, 3> per_axis_scale(const ConfigNode &node) {
    auto check = [](const ConfigNode &v) {
        double s = v.as<double>();
        if (!(s >= 1.0)) v.fail("must be >= 1 (got " + v.yaml().Scalar() + ")");
        return s;
    };
    if (!node.is_sequence()) {
        double s = check(node);
        return {s, s, s};
    }
    auto items = node.elements();
    if (items.size() != 3) node.fail("expected one number or a list of three [x, y, z]");
    return {check(items[0]), check(items[1]), check(items[2])};
}

// A list of `count` values, one per type, each checked by `check`.
template <class T, class Check>
std::vector<T> per_type(const ConfigNode &sys, std::string_view key, size_t count, Check check) {
    ConfigNode node = sys.at(key);
    auto values = node.as<std::vector<T>>();
    if (values.size() != count)
        node.fail("expected one value per type (" + std::to_string(count) + ", the length of " +
                  "system.types), got " + std::to_string(values.size()));
    auto items = node.elements();
    for (size_t k = 0; k < values.size(); ++k)
        check(items[k], values[k]);
    return values;
}

// system.from_file: the frame must be readable; resolves its particle count, box and species.
void read_from_file(const ConfigNode &sys, SystemConfig &out) {
    ConfigNode ff = sys.section("from_file");
    ff.expect_keys({"path", "frame", "continue"});
    FromFileConfig f;
    f.path = require<std::string>(ff, "path");
    if (f.path.empty()) ff.fail_at("path", "must not be empty");
    f.frame = optional<int64_t>(ff, "frame", -1);
    f.continue_run = optional<bool>(ff, "continue", false);
    H5mdFrame frame;
    try {
        frame = read_h5md_frame(f.path, f.frame);
    } catch (const std::runtime_error &e) {
        if (ff.has("frame") && std::string(e.what()).find("does not exist") != std::string::npos)
            ff.fail_at("frame", e.what());
        ff.fail_at("path", e.what());
    }
    if (frame.dim != 3) ff.fail_at("path", f.path + ": not a 3D H5MD file");
    f.frames = frame.frames;
    f.frame_index = frame.index;
    f.step = frame.data.step;
    f.time = frame.data.time;
    out.n = frame.n;
    for (size_t a = 0; a < 3; ++a)
        out.box[a] = frame.box_edges[a];
    const Field *species = frame.data.find("species");
    out.counts.assign(out.types.size(), 0);
    if (species) {
        if (!species->is_integer() || species->components() != 1)
            ff.fail_at("path", f.path + ": /particles/all/species is not one integer per particle");
        for (int64_t s : species->integer[0]) {
            if (s < 0 || s >= int64_t(out.types.size()))
                sys.fail_at("types", f.path + " holds species " + std::to_string(s) + ", but " +
                                         "system.types names " + std::to_string(out.types.size()) +
                                         " type(s)");
            ++out.counts[size_t(s)];
        }
    } else {
        out.counts[0] = out.n; // no species: every particle is of the first type
    }
    const Field *velocity = frame.data.find("velocity");
    if (!sys.has("temperature") && !velocity)
        sys.fail_as(sys.key_path("temperature"),
                    "required key is missing (" + f.path + " holds no velocities to start from)");
    out.from_file = f;
}

// The lattice keys, the box (per-axis box_scale or box) and the resolved plan.
void read_lattice(const ConfigNode &sys, SystemConfig &out) {
    parse_lattice_keys(sys, 3, out.lattice, "lattice_constant");
    if (sys.has("box") && sys.has("box_scale"))
        sys.fail_at("box_scale", "give either system.box or system.box_scale, not both");
    // The Compyle paper's setup: along a wall axis the lattice sits in the middle third.
    std::array<double, 3> scale{};
    for (size_t a = 0; a < 3; ++a)
        scale[a] = out.boundary[a] == Boundary::Walls ? 3.0 : 1.0;
    if (sys.has("box_scale")) scale = per_axis_scale(sys.at("box_scale"));
    out.lattice.periodic = out.boundary[0] == Boundary::Periodic &&
                           out.boundary[1] == Boundary::Periodic &&
                           out.boundary[2] == Boundary::Periodic;
    out.lattice.seed = out.seed;
    auto plan = [&]() {
        try {
            return plan_lattice(out.lattice);
        } catch (const LatticeError &e) {
            sys.fail_at(e.key() == "spacing" ? "lattice_constant" : e.key(), e.what());
        }
    };
    if (!out.lattice.box) {
        // The region times the per-axis scale (the kit's box_scale is one number).
        LatticePlan region = plan();
        out.lattice.box = std::vector<double>{
            region.region[0] * scale[0], region.region[1] * scale[1], region.region[2] * scale[2]};
    }
    out.plan = plan();
    out.n = out.plan.n;
    out.box = out.plan.box;
}

// types, fractions / counts (resolved to counts), masses.
void read_types(const ConfigNode &sys, SystemConfig &out, bool from_file) {
    if (sys.has("types")) {
        ConfigNode node = sys.at("types");
        out.types = node.as<std::vector<std::string>>();
        if (out.types.empty() || out.types.size() > size_t(kMaxTypes))
            node.fail("expected 1 to " + std::to_string(kMaxTypes) + " type names");
        std::set<std::string> seen;
        auto items = node.elements();
        for (size_t k = 0; k < out.types.size(); ++k) {
            if (out.types[k].empty()) items[k].fail("a type name must not be empty");
            if (!seen.insert(out.types[k]).second)
                items[k].fail("type '" + out.types[k] + "' is listed twice");
        }
    }
    const size_t nt = out.types.size();
    out.masses.assign(nt, 1.0);
    if (sys.has("masses"))
        out.masses = per_type<double>(sys, "masses", nt, [](const ConfigNode &v, double m) {
            if (!(m > 0.0)) v.fail("must be > 0 (got " + v.yaml().Scalar() + ")");
        });
    if (from_file) {
        for (const char *k : {"fractions", "counts"})
            if (sys.has(k))
                sys.fail_at(k, "not used with system.from_file (the file's species give the "
                               "types)");
        return;
    }
    if (sys.has("fractions") && sys.has("counts"))
        sys.fail_at("counts", "give either system.fractions or system.counts, not both");
    if (nt > 1 && !sys.has("fractions") && !sys.has("counts"))
        sys.fail_at("types", "several types need system.fractions or system.counts");
    out.counts.assign(nt, 0);
    if (sys.has("counts")) {
        out.counts = per_type<int64_t>(sys, "counts", nt, [](const ConfigNode &v, int64_t c) {
            if (c < 0) v.fail("must be >= 0 (got " + v.yaml().Scalar() + ")");
        });
        int64_t sum = 0;
        for (int64_t c : out.counts)
            sum += c;
        if (sum != out.n)
            sys.fail_at("counts", "the counts add up to " + std::to_string(sum) + ", not to the " +
                                      std::to_string(out.n) + " particles");
    } else {
        std::vector<double> f{1.0};
        if (sys.has("fractions"))
            f = per_type<double>(sys, "fractions", nt, [](const ConfigNode &v, double x) {
                if (!(x >= 0.0)) v.fail("must be >= 0 (got " + v.yaml().Scalar() + ")");
            });
        double sum = 0.0;
        for (double x : f)
            sum += x;
        if (std::abs(sum - 1.0) > 1e-9)
            sys.fail_at("fractions", "the fractions add up to " + format_number(sum) + ", not 1");
        // N_a = round(f_a N) for all types but the last, which gets the rest.
        int64_t assigned = 0;
        for (size_t a = 0; a + 1 < nt; ++a) {
            out.counts[a] = int64_t(std::floor(f[a] * double(out.n) + 0.5));
            assigned += out.counts[a];
        }
        out.counts[nt - 1] = out.n - assigned;
        if (out.counts[nt - 1] < 0)
            sys.fail_at("fractions", "rounded to particle counts they leave " +
                                         std::to_string(out.counts[nt - 1]) +
                                         " particles for the last type");
    }
}

SystemConfig parse_system(const ConfigNode &sys) {
    sys.expect_keys({"lattice", "n", "cells", "density", "lattice_constant", "min_spacing", "box",
                     "box_scale", "boundary", "walls", "types", "fractions", "counts", "masses",
                     "temperature", "seed", "from_file"});
    SystemConfig out;
    if (sys.has("boundary")) {
        auto b = per_axis_choice(sys.at("boundary"), {"periodic", "walls"});
        for (size_t a = 0; a < 3; ++a)
            out.boundary[a] = b[a] == "walls" ? Boundary::Walls : Boundary::Periodic;
    }
    const bool any_walls =
        std::find(out.boundary.begin(), out.boundary.end(), Boundary::Walls) != out.boundary.end();
    if (any_walls) {
        ConfigNode walls = sys.optional_section("walls");
        walls.expect_keys({"stiffness", "range"});
        out.wall_stiffness = optional<double>(walls, "stiffness", 50.0, Range<double>::positive());
        out.wall_range = optional<double>(walls, "range", 0.5, Range<double>::positive());
    } else if (sys.has("walls")) {
        sys.fail_at("walls", "only used when system.boundary has a walls axis");
    }
    out.seed = optional<uint64_t>(sys, "seed", 1);
    const bool from_file = sys.has("from_file");
    if (from_file) {
        for (const char *k : {"lattice", "n", "cells", "density", "lattice_constant", "min_spacing",
                              "box", "box_scale"})
            if (sys.has(k))
                sys.fail_at(k, "not used with system.from_file (the file gives the positions and "
                               "the box)");
        read_types(sys, out, true);
        read_from_file(sys, out);
        if (sys.has("temperature"))
            out.temperature = require<double>(sys, "temperature", Range<double>::non_negative());
    } else {
        read_lattice(sys, out);
        read_types(sys, out, false);
        out.temperature = require<double>(sys, "temperature", Range<double>::non_negative());
    }
    return out;
}

PotentialConfig parse_potential(const ConfigNode &pot, const SystemConfig &sys) {
    pot.expect_keys({"kind", "epsilon", "sigma", "r_cut", "pairs", "shift", "tail"});
    optional_choice(pot, "kind", "lj", {"lj"});
    PotentialConfig out;
    const size_t nt = sys.types.size();
    const double r_cut = optional<double>(pot, "r_cut", 2.5, Range<double>::positive());
    out.shift = optional<bool>(pot, "shift", false);
    out.tail = optional<bool>(pot, "tail", false);
    if (!pot.has("pairs")) {
        if (nt > 1)
            pot.fail_as(pot.key_path("pairs"), "required key is missing (several types need "
                                               "one entry per pair of types)");
        PairParameters p;
        p.epsilon = optional<double>(pot, "epsilon", 1.0, Range<double>::positive());
        p.sigma = optional<double>(pot, "sigma", 1.0, Range<double>::positive());
        p.r_cut = r_cut;
        out.pairs = {p};
        return out;
    }
    for (const char *k : {"epsilon", "sigma"})
        if (pot.has(k)) pot.fail_at(k, "give the parameters in potential.pairs, not both");
    ConfigNode pairs = pot.at("pairs");
    if (!pairs.is_sequence()) pairs.fail("expected a list of {types: [A, B], epsilon, sigma}");
    out.pairs.assign(nt * nt, PairParameters{});
    std::vector<bool> given(nt * nt, false);
    for (const ConfigNode &entry : pairs.elements()) {
        if (!entry.is_map()) entry.fail("expected a mapping {types: [A, B], epsilon, sigma}");
        entry.expect_keys({"types", "epsilon", "sigma", "r_cut"});
        ConfigNode types = entry.at("types");
        auto names = types.as<std::vector<std::string>>();
        if (names.size() != 2) types.fail("expected two type names [A, B]");
        size_t idx[2];
        auto items = types.elements();
        for (size_t k = 0; k < 2; ++k) {
            auto it = std::find(sys.types.begin(), sys.types.end(), names[k]);
            if (it == sys.types.end())
                items[k].fail("unknown type '" + names[k] + "' (system.types lists the types)");
            idx[k] = size_t(it - sys.types.begin());
        }
        if (given[idx[0] * nt + idx[1]])
            types.fail("the pair " + names[0] + "-" + names[1] + " is listed twice");
        PairParameters p;
        p.epsilon = require<double>(entry, "epsilon", Range<double>::non_negative());
        p.sigma = require<double>(entry, "sigma", Range<double>::positive());
        p.r_cut = optional<double>(entry, "r_cut", r_cut, Range<double>::positive());
        for (auto [a, b] : {std::pair{idx[0], idx[1]}, std::pair{idx[1], idx[0]}}) {
            out.pairs[a * nt + b] = p;
            given[a * nt + b] = true;
        }
    }
    for (size_t a = 0; a < nt; ++a)
        for (size_t b = a; b < nt; ++b)
            if (!given[a * nt + b])
                pairs.fail("the pair " + sys.types[a] + "-" + sys.types[b] +
                           " is missing (every pair of types needs one entry)");
    return out;
}

IntegratorConfig parse_integrator(const ConfigNode &integ, uint64_t system_seed) {
    integ.expect_keys({"kind", "dt", "steps", "kT", "gamma", "tau", "seed"});
    IntegratorConfig out;
    const std::string kind = optional_choice(integ, "kind", "nve", {"nve", "langevin", "bussi"});
    out.kind = kind == "langevin" ? IntegratorKind::Langevin
               : kind == "bussi"  ? IntegratorKind::Bussi
                                  : IntegratorKind::Nve;
    out.dt = require<double>(integ, "dt", Range<double>::positive());
    out.steps = require<int64_t>(integ, "steps", Range<int64_t>::non_negative());
    if (out.kind == IntegratorKind::Nve) {
        if (integ.has("kT")) integ.fail_at("kT", "not used by integrator nve (no thermostat)");
    } else {
        out.kT = require<double>(integ, "kT", Range<double>::non_negative());
    }
    if (integ.has("gamma") && out.kind != IntegratorKind::Langevin)
        integ.fail_at("gamma", "only used by integrator langevin");
    if (integ.has("tau") && out.kind != IntegratorKind::Bussi)
        integ.fail_at("tau", "only used by integrator bussi");
    if (integ.has("seed") && out.kind == IntegratorKind::Nve)
        integ.fail_at("seed", "not used by integrator nve (no random numbers)");
    out.gamma = optional<double>(integ, "gamma", 1.0, Range<double>::non_negative());
    out.tau = optional<double>(integ, "tau", 0.5, Range<double>::positive());
    out.seed = optional<uint64_t>(integ, "seed", system_seed);
    return out;
}

NeighborConfig parse_neighbor(const ConfigNode &nb) {
    nb.expect_keys({"mode", "skin", "rebuild", "sort_interval", "sorted_lists", "newton", "lanes",
                    "overlap_test", "cells_per_r_list"});
    NeighborConfig out;
    out.mode = optional_choice(nb, "mode", "binned", {"binned", "all_pairs"}) == "all_pairs"
                   ? NeighborMode::AllPairs
                   : NeighborMode::Binned;
    out.skin = optional<double>(nb, "skin", 0.3, Range<double>::non_negative());
    out.rebuild = optional_choice(nb, "rebuild", "displacement", {"displacement", "every_step"}) ==
                          "every_step"
                      ? Rebuild::EveryStep
                      : Rebuild::Displacement;
    const bool binned = out.mode == NeighborMode::Binned;
    out.sort_interval = parse_sort_interval(nb, binned);
    // auto: sorted on the cpu backend only (resolved with the backend, Md3dConfig::neighbor).
    out.sorted_lists = parse_sorted_lists(nb);
    // auto: on the cpu backend (resolved with the backend, Md3dConfig::neighbor.newton_on).
    const std::string newton = optional_choice(nb, "newton", "auto", {"auto", "true", "false"});
    if (newton != "auto") out.newton = newton == "true";
    out.overlap_test = optional_choice(nb, "overlap_test", "auto", {"auto", "false"}) == "auto";
    if (out.newton.value_or(false) && !binned)
        nb.fail_at("newton", "half lists need mode: binned (use newton: false or auto with "
                             "all_pairs)");
    // auto: chosen from N and the backend (Md3dConfig::neighbor.lanes_for).
    const auto lanes_node = nb.find("lanes");
    if (lanes_node && !(lanes_node->yaml().IsScalar() && lanes_node->yaml().Scalar() == "auto")) {
        const int lanes = require<int>(nb, "lanes", Range<int>::at_least(1));
        if (lanes > 32 || (lanes & (lanes - 1)) != 0)
            nb.fail_at("lanes", "expected auto or a power of two from 1 to 32, not " +
                                    std::to_string(lanes));
        out.lanes = lanes;
    }
    // auto: chosen from the backend and the lists (NeighborConfig::cells_per_r_list_for).
    const auto cells_node = nb.find("cells_per_r_list");
    if (cells_node && !(cells_node->yaml().IsScalar() && cells_node->yaml().Scalar() == "auto")) {
        const int per = require<int>(nb, "cells_per_r_list", Range<int>::at_least(1));
        if (per > 2)
            nb.fail_at("cells_per_r_list", "expected auto, 1 or 2, not " + std::to_string(per));
        if (!binned)
            nb.fail_at("cells_per_r_list", "cells are those of mode: binned (all_pairs has no "
                                           "cell grid); use cells_per_r_list: auto");
        out.cells_per_r_list = per;
    }
    return out;
}

DomainConfig parse_domain(const ConfigNode &dom) {
    DomainConfig out;
    domain::parse_grid(dom, out.grid, {"overlap", "transport"});
    out.overlap = optional<bool>(dom, "overlap", true);
    out.transport = domain::parse_transport(
        optional_choice(dom, "transport", "auto", {"auto", "host", "nccl"}));
    return out;
}

// On more than one MPI rank: the grid must fit the rank count, and every decomposed axis' sub-box
// must hold the interaction range (ghosts come from the adjacent ranks only).
void check_domain(const ConfigNode &root, const Md3dConfig &c) {
    domain::check_grid(root, c.domain.grid, c.system.box,
                       {c.axis_periodic(0), c.axis_periodic(1), c.axis_periodic(2)}, c.r_list(), 3);
}

// Checks that need more than one section.
void check_combinations(const ConfigNode &root, const Md3dConfig &c) {
    ConfigNode pot = root.optional_section("potential");
    ConfigNode sys = root.section("system");
    if (c.neighbor.newton.value_or(false) && c.backend != "cpu")
        root.optional_section("neighbor")
            .fail_at("newton", "half lists with Newton's third law run on the cpu backend only "
                               "(GPUs keep full lists: use newton: auto or false)");
    // Mixed precision's force loops (compute_forces_mixed and its CPU form) take full lists;
    // auto resolves to them.
    if (c.neighbor.newton.value_or(false) && c.precision == Precision::Mixed)
        root.optional_section("neighbor")
            .fail_at("newton", "precision: mixed runs the full-list force loop (no half lists): "
                               "use newton: auto or false");
    if (c.neighbor.lanes.value_or(1) > 1) {
        const ConfigNode nb = root.optional_section("neighbor");
        if (c.backend == "cpu")
            nb.fail_at("lanes", "lanes split a particle's neighbours over GPU threads; the cpu "
                                "backend runs one chunked loop per particle (use lanes: auto or "
                                "1)");
        if (c.neighbor.mode != NeighborMode::Binned || c.neighbor.lists_sorted(false, false))
            nb.fail_at("lanes", "lanes need mode: binned with sorted_lists: false or auto (use "
                                "lanes: auto or 1)");
    }
    if (c.domain.transport == domain::Transport::Nccl && c.backend != "cuda")
        root.optional_section("domain").fail_at(
            "transport", "nccl links the GPUs of the cuda backend (backend: " + c.backend +
                             "); use transport: auto or host");
    if (c.potential.tail) {
        if (!c.all_periodic())
            pot.fail_at("tail", "tail corrections assume a homogeneous fluid: every axis must be "
                                "periodic");
        if (c.potential.shift)
            pot.fail_at("tail", "tail corrections integrate the unshifted potential: use "
                                "shift: false with tail: true");
    }
    // The minimum image needs r_list < L/2 on every periodic axis.
    for (int a = 0; a < 3; ++a) {
        const double half = 0.5 * c.system.box[size_t(a)];
        if (c.axis_periodic(a) && !(c.r_list() < half))
            pot.fail_at(pot.has("pairs") ? "pairs" : "r_cut",
                        "the largest r_cut + neighbor.skin = " + format_number(c.r_list()) +
                            " must be less than half the periodic box edge along " + kAxisNames[a] +
                            " (" + short_number(half) + ") for the minimum image convention");
    }
    double shortest_wall_axis = INFINITY;
    for (int a = 0; a < 3; ++a)
        if (!c.axis_periodic(a))
            shortest_wall_axis = std::min(shortest_wall_axis, c.system.box[size_t(a)]);
    if (!(c.system.wall_range < 0.5 * shortest_wall_axis))
        sys.optional_section("walls").fail_at(
            "range", "must be less than half the shortest box edge with walls (" +
                         short_number(0.5 * shortest_wall_axis) + ")");
    if (c.neighbor.mode == NeighborMode::Binned) {
        CellGrid g = cell_grid(c);
        for (int a = 0; a < 3; ++a)
            if (c.axis_periodic(a) && g.per_r_list == 2 && g.cells[size_t(a)] < 5)
                root.optional_section("neighbor")
                    .fail_at("cells_per_r_list",
                             std::string("cells of r_list / 2 need at least 5 of them along "
                                         "every periodic axis (the box fits ") +
                                 std::to_string(g.cells[0]) + " x " + std::to_string(g.cells[1]) +
                                 " x " + std::to_string(g.cells[2]) +
                                 " of size r_list / 2 = " + format_number(0.5 * c.r_list()) +
                                 "); use cells_per_r_list: auto or 1");
        for (int a = 0; a < 3; ++a)
            if (c.axis_periodic(a) && g.cells[size_t(a)] < 3)
                root.optional_section("neighbor")
                    .fail_at("mode", std::string("binned search needs at least 3 cells of size "
                                                 "r_list = ") +
                                         format_number(c.r_list()) + " along every periodic axis " +
                                         "(the box fits " + std::to_string(g.cells[0]) + " x " +
                                         std::to_string(g.cells[1]) + " x " +
                                         std::to_string(g.cells[2]) + "); use mode: all_pairs");
    }
}

} // namespace

double PotentialConfig::max_r_cut() const {
    double m = 0.0;
    for (const PairParameters &p : pairs)
        m = std::max(m, p.r_cut);
    return m;
}

int32_t Md3dConfig::periodic_mask() const {
    int32_t mask = 0;
    for (int a = 0; a < 3; ++a)
        if (axis_periodic(a)) mask |= 1 << a;
    return mask;
}

namespace {

// Inputs no run survives (lj_limits.h), against the shortest time and length scales of the
// mixture, and a system larger than the machine's memory.
void check_physical_limits(const ConfigNode &root, const Md3dConfig &c) {
    const double m_min = *std::min_element(c.system.masses.begin(), c.system.masses.end());
    double tau = 0, sigma = 0;
    for (const PairParameters &p : c.potential.pairs) {
        if (!(p.epsilon > 0)) continue;
        const double t = p.sigma * std::sqrt(m_min / p.epsilon);
        if (tau == 0 || t < tau) tau = t;
        if (sigma == 0 || p.sigma < sigma) sigma = p.sigma;
    }
    if (tau > 0) check_lj_time_step(c.source, "integrator.dt", c.integrator.dt, tau);
    if (sigma > 0) {
        if (c.system.temperature)
            check_thermal_step(c.source, "system.temperature", *c.system.temperature, m_min,
                               c.integrator.dt, sigma);
        if (c.integrator.kind != IntegratorKind::Nve)
            check_thermal_step(c.source, "integrator.kT", c.integrator.kT, m_min, c.integrator.dt,
                               sigma);
    }
    // Per particle at least: 12 state and force arrays, the host copies of a frame, ~70
    // neighbours (the 3D liquid's count at r_cut + skin = 2.8 sigma) and the bins.
    constexpr double kBytesPerParticle = 400;
    const ConfigNode sys = root.section("system");
    check_fits_memory(c.source,
                      sys.has("from_file") ? "system.from_file"
                      : sys.has("n")       ? "system.n"
                                           : "system.cells",
                      c.system.n, kBytesPerParticle);
}

} // namespace

Md3dConfig parse_md3d_config(const ConfigNode &root) {
    root.expect_keys(
        with_run_config_keys({"system", "potential", "integrator", "neighbor", "domain"}));
    Md3dConfig c;
    static_cast<RunConfig &>(c) = parse_run_config(root, {"out/md3d", "md3d", {"force"}, true});
    c.output_force = optional<bool>(root.optional_section("output"), "force", false);
    c.system = parse_system(root.section("system"));
    c.potential = parse_potential(root.optional_section("potential"), c.system);
    c.integrator = parse_integrator(root.section("integrator"), c.system.seed);
    c.neighbor = parse_neighbor(root.optional_section("neighbor"));
    c.domain = parse_domain(root.optional_section("domain"));
    check_combinations(root, c);
    if (c.precision == Precision::Mixed) c.neighbor.newton = false;
    check_domain(root, c);
    check_physical_limits(root, c);
    return c;
}

Md3dConfig load_md3d_config(const std::string &path) {
    return parse_md3d_config(ConfigNode::load_file(path));
}

Md3dConfig load_md3d_config_string(std::string text, std::string file_name) {
    return parse_md3d_config(ConfigNode::load_string(std::move(text), std::move(file_name)));
}

namespace {

// Cells no smaller than r_list / per_r_list, at most 1290 per axis so cell keys fit an int.
CellGrid grid_of(const Md3dConfig &config, int per_r_list) {
    CellGrid g;
    g.per_r_list = per_r_list;
    for (size_t a = 0; a < 3; ++a) {
        const double rl = std::max(config.r_list(), 1e-300);
        g.cells[a] = static_cast<int>(
            std::clamp(std::floor(config.system.box[a] * per_r_list / rl), 1.0, 1290.0));
        g.size[a] = config.system.box[a] / g.cells[a];
    }
    return g;
}

} // namespace

CellGrid cell_grid(const Md3dConfig &config) {
    // An explicit 2 with fewer than 5 cells on a periodic axis is refused in check_combinations.
    return grid_of(config, config.neighbor.cells_per_r_list_for(config.backend == "cpu"));
}

std::array<int, 3> domain_dims(const Md3dConfig &config, int ranks) {
    return domain::choose_dims(ranks, config.domain.grid);
}

const char *to_string(Boundary b) {
    return b == Boundary::Walls ? "walls" : "periodic";
}
const char *to_string(IntegratorKind k) {
    return k == IntegratorKind::Langevin ? "langevin"
           : k == IntegratorKind::Bussi  ? "bussi"
                                         : "nve";
}
const char *to_string(NeighborMode m) {
    return m == NeighborMode::AllPairs ? "all_pairs" : "binned";
}
const char *to_string(Rebuild r) {
    return r == Rebuild::EveryStep ? "every_step" : "displacement";
}

} // namespace smelt::apps::md3d
