#include "vortex/config.h"

#include "common/memory_check.h"
#include "support/backend_table.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace smelt::apps::vortex {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxVortices = std::numeric_limits<int32_t>::max(); // kernels index with int

// Every key of `initial`, and those of each kind besides kind and center.
const std::vector<std::string_view> kInitialKeys = {"kind",
                                                    "center",
                                                    "n",
                                                    "shape",
                                                    "radius",
                                                    "side",
                                                    "total_circulation",
                                                    "circulation_spread",
                                                    "seed",
                                                    "n_side",
                                                    "rings",
                                                    "core_radius",
                                                    "extent",
                                                    "separation",
                                                    "circulations",
                                                    "circulation",
                                                    "phase",
                                                    "perturbation",
                                                    "amplitude",
                                                    "path",
                                                    "format",
                                                    "frame"};

struct KindKeys {
    InitialKind kind;
    const char *name;
    bool has_center;
    std::vector<std::string_view> keys;
};

const std::vector<KindKeys> &kinds() {
    static const std::vector<KindKeys> k = {
        {InitialKind::Patch,
         "patch",
         true,
         {"n", "shape", "radius", "side", "total_circulation", "circulation_spread", "seed"}},
        {InitialKind::Lattice,
         "lattice",
         true,
         {"n_side", "shape", "side", "radius", "total_circulation"}},
        {InitialKind::LambOseen,
         "lamb_oseen",
         true,
         {"rings", "core_radius", "extent", "total_circulation"}},
        {InitialKind::Pair, "pair", true, {"separation", "circulations"}},
        {InitialKind::OppositePair, "opposite_pair", true, {"separation", "circulation"}},
        {InitialKind::Ring,
         "ring",
         true,
         {"n", "radius", "circulation", "phase", "perturbation", "seed"}},
        {InitialKind::Sheet, "sheet", false, {"n", "amplitude", "total_circulation"}},
        {InitialKind::File, "file", false, {"path", "format", "frame"}},
    };
    return k;
}

std::string join(const std::vector<std::string_view> &v) {
    std::string s;
    for (std::string_view x : v)
        s += (s.empty() ? "" : ", ") + std::string(x);
    return s;
}

std::array<double, 2> pair_of(const ConfigNode &node, std::string_view key,
                              std::array<double, 2> fallback, const char *what) {
    if (!node.has(key)) return fallback;
    ConfigNode v = node.at(key);
    auto list = v.as<std::vector<double>>();
    if (list.size() != 2) v.fail(std::string("expected two numbers ") + what);
    return {list[0], list[1]};
}

PhysicsConfig parse_physics(const ConfigNode &ph) {
    ph.expect_keys({"regularisation", "delta", "periodic_x", "period"});
    PhysicsConfig out;
    const std::string reg =
        optional_choice(ph, "regularisation", "point", {"point", "krasny", "gaussian"});
    out.regularisation = reg == "krasny"     ? Regularisation::Krasny
                         : reg == "gaussian" ? Regularisation::Gaussian
                                             : Regularisation::Point;
    if (out.regularisation == Regularisation::Point) {
        if (ph.has("delta"))
            ph.fail_at("delta", "only used with regularisation: krasny or gaussian (point "
                                "vortices have no radius)");
    } else {
        out.delta = require<double>(ph, "delta", Range<double>::positive());
    }
    out.periodic_x = optional<bool>(ph, "periodic_x", false);
    if (out.periodic_x) {
        out.period = require<double>(ph, "period", Range<double>::positive());
        // The Gaussian blob's periodic kernel keeps only the nearest image's tail.
        if (out.regularisation == Regularisation::Gaussian && !(16.0 * out.delta <= out.period))
            ph.fail_at("delta", "must be <= period/16 = " + format_number(out.period / 16.0) +
                                    " for periodic Gaussian blobs (got " +
                                    format_number(out.delta) + ")");
    } else if (ph.has("period")) {
        ph.fail_at("period", "only used with periodic_x: true");
    }
    return out;
}

IntegratorConfig parse_integrator(const ConfigNode &integ) {
    integ.expect_keys({"kind", "dt", "steps"});
    IntegratorConfig out;
    const std::string kind = optional_choice(integ, "kind", "rk4", {"euler", "rk2", "heun", "rk4"});
    out.kind = kind == "euler"  ? Integrator::Euler
               : kind == "rk2"  ? Integrator::Rk2
               : kind == "heun" ? Integrator::Heun
                                : Integrator::Rk4;
    out.dt = require<double>(integ, "dt", Range<double>::positive());
    out.steps = require<int64_t>(integ, "steps", Range<int64_t>::non_negative());
    return out;
}

EvaluationConfig parse_evaluation(const ConfigNode &ev, const std::string &backend) {
    ev.expect_keys({"method", "tile"});
    EvaluationConfig out;
    const std::string m = optional_choice(ev, "method", "auto", {"auto", "elementwise", "tiled"});
    out.method = m == "tiled"         ? Method::Tiled
                 : m == "elementwise" ? Method::Elementwise
                                      : Method::Auto;
    // The tiled form shares tiles of vortices through local memory within a work-group.
    const smelt::BackendRow *row = smelt::find_backend_row(backend);
    const bool work_groups = row && row->work_groups;
    if (out.method == Method::Tiled && !work_groups)
        ev.fail_at("method", "tiled needs backend " + smelt::backend_families_text(" or ", true) +
                                 " (work-groups and local memory); use elementwise or auto on " +
                                 backend);
    if (out.method == Method::Elementwise && ev.has("tile"))
        ev.fail_at("tile", "only used by method tiled (or auto on " +
                               smelt::backend_families_text(" and ", true) + ")");
    out.tile = optional<int64_t>(ev, "tile", 128, Range<int64_t>::between(1, 1024));
    out.tiled = out.method == Method::Tiled || (out.method == Method::Auto && work_groups);
    return out;
}

FileFormat format_of(const ConfigNode &ini, const std::string &path) {
    if (ini.has("format"))
        return require_choice(ini, "format", {"csv", "h5md"}) == "csv" ? FileFormat::Csv
                                                                       : FileFormat::H5md;
    const std::string ext = fs::path(path).extension().string();
    if (ext == ".csv") return FileFormat::Csv;
    if (ext == ".h5" || ext == ".h5md") return FileFormat::H5md;
    ini.fail_at("path", "cannot tell the format from the extension '" + ext +
                            "' (.csv, .h5, .h5md); give initial.format: csv or h5md");
}

InitialConfig parse_initial(const ConfigNode &ini, const std::string &config_file) {
    ini.expect_keys(kInitialKeys);
    InitialConfig out;
    const std::string kind = require_choice(
        ini, "kind",
        {"patch", "lattice", "lamb_oseen", "pair", "opposite_pair", "ring", "sheet", "file"});
    const KindKeys &kk = *std::find_if(kinds().begin(), kinds().end(),
                                       [&](const KindKeys &k) { return k.name == kind; });
    out.kind = kk.kind;
    // A key of another kind is an error at that key.
    for (std::string_view key : kInitialKeys) {
        if (key == "kind" || !ini.has(key)) continue;
        if (key == "center") {
            if (!kk.has_center)
                ini.fail_at(key, "not used with initial.kind: " + kind +
                                     (out.kind == InitialKind::Sheet
                                          ? " (the sheet starts at x = 0, y = 0)"
                                          : " (the positions come from the file)"));
            continue;
        }
        if (std::find(kk.keys.begin(), kk.keys.end(), key) == kk.keys.end())
            ini.fail_at(key, "not used with initial.kind: " + kind + " (its keys: kind, " +
                                 (kk.has_center ? "center, " : "") + join(kk.keys) + ")");
    }
    out.center = pair_of(ini, "center", {0.0, 0.0}, "[cx, cy]");
    const auto count = Range<int64_t>::between(1, kMaxVortices);
    const auto positive = Range<double>::positive();
    auto shape_keys = [&](Shape shape) {
        // radius belongs to a disc, side to a square.
        if (shape == Shape::Square && ini.has("radius"))
            ini.fail_at("radius", "only used with shape: disc");
        if (shape == Shape::Disc && ini.has("side"))
            ini.fail_at("side", "only used with shape: square");
        out.radius = optional<double>(ini, "radius", 1.0, positive);
        out.side = optional<double>(ini, "side", 2.0, positive);
    };
    switch (out.kind) {
    case InitialKind::Patch:
        out.n = require<int64_t>(ini, "n", count);
        out.shape = optional_choice(ini, "shape", "disc", {"disc", "square"}) == "square"
                        ? Shape::Square
                        : Shape::Disc;
        shape_keys(out.shape);
        out.total_circulation = optional<double>(ini, "total_circulation", 1.0);
        out.circulation_spread =
            optional<double>(ini, "circulation_spread", 0.0, Range<double>::non_negative());
        out.seed = optional<uint64_t>(ini, "seed", 1);
        break;
    case InitialKind::Lattice:
        out.n_side = require<int64_t>(ini, "n_side", Range<int64_t>::between(1, 46340));
        out.shape = optional_choice(ini, "shape", "square", {"square", "disc"}) == "disc"
                        ? Shape::Disc
                        : Shape::Square;
        shape_keys(out.shape);
        out.total_circulation = optional<double>(ini, "total_circulation", 1.0);
        break;
    case InitialKind::LambOseen:
        out.rings = require<int64_t>(ini, "rings", Range<int64_t>::between(1, 26000));
        out.core_radius = optional<double>(ini, "core_radius", 1.0, positive);
        out.extent = optional<double>(ini, "extent", 3.0, positive);
        out.total_circulation = optional<double>(ini, "total_circulation", 1.0);
        break;
    case InitialKind::Pair:
        out.separation = optional<double>(ini, "separation", 1.0, positive);
        out.circulations = pair_of(ini, "circulations", {1.0, 1.0}, "[G0, G1]");
        break;
    case InitialKind::OppositePair:
        out.separation = optional<double>(ini, "separation", 1.0, positive);
        out.circulation = optional<double>(ini, "circulation", 1.0);
        break;
    case InitialKind::Ring:
        out.n = require<int64_t>(ini, "n", count);
        out.radius = optional<double>(ini, "radius", 1.0, positive);
        out.circulation = optional<double>(ini, "circulation", 1.0);
        out.phase = optional<double>(ini, "phase", 0.0);
        out.perturbation = optional<double>(ini, "perturbation", 0.0,
                                            Range<double>::non_negative().and_below(1.0));
        if (out.perturbation == 0.0 && ini.has("seed"))
            ini.fail_at("seed", "only used with perturbation > 0 (an unperturbed ring draws no "
                                "random numbers)");
        out.seed = optional<uint64_t>(ini, "seed", 1);
        break;
    case InitialKind::Sheet:
        out.n = require<int64_t>(ini, "n", count);
        out.amplitude = optional<double>(ini, "amplitude", 0.01);
        out.total_circulation = optional<double>(ini, "total_circulation", 1.0);
        break;
    case InitialKind::File: {
        out.path = require<std::string>(ini, "path");
        if (out.path.empty()) ini.fail_at("path", "must not be empty");
        fs::path p(out.path);
        if (p.is_relative()) p = fs::path(config_file).parent_path() / p;
        out.resolved_path = p.lexically_normal().string();
        if (!fs::is_regular_file(out.resolved_path))
            ini.fail_at("path", "no such file: " + out.resolved_path +
                                    " (a relative path is taken from the config's directory)");
        out.format = format_of(ini, out.path);
        if (out.format == FileFormat::Csv && ini.has("frame"))
            ini.fail_at("frame", "only used with format: h5md");
        out.frame = optional<int64_t>(ini, "frame", -1);
        break;
    }
    }
    return out;
}

// Checks that need more than one section, and the vortex count.
void resolve(const ConfigNode &root, VortexConfig &c) {
    if (c.initial.kind == InitialKind::Sheet && !c.physics.periodic_x)
        root.section("initial").fail_at(
            "kind", "sheet needs physics.periodic_x: true and physics.period (Krasny's sheet is "
                    "periodic in x)");
    try {
        c.vortices = initial_count(c);
    } catch (const InitialFileError &e) {
        root.section("initial").fail_at(e.key(), e.what());
    }
    if (c.vortices > kMaxVortices)
        root.section("initial").fail_at("kind", "more than 2^31 - 1 vortices");
    // Per vortex at least: positions, circulations, velocities of two stages, frame copies.
    constexpr double kBytesPerVortex = 80;
    const ConfigNode initial = root.section("initial");
    std::string count_key = "initial.kind";
    for (const char *key : {"n", "n_side", "rings"})
        if (initial.has(key)) count_key = std::string("initial.") + key;
    check_fits_memory(c.source, count_key, c.vortices, kBytesPerVortex, "vortices");
}

} // namespace

VortexConfig parse_vortex_config(const ConfigNode &root) {
    root.expect_keys(with_run_config_keys({"physics", "integrator", "evaluation", "initial"}));
    VortexConfig c;
    static_cast<RunConfig &>(c) = parse_run_config(root, {"out/vortex", "vortex"});
    c.physics = parse_physics(root.optional_section("physics"));
    c.integrator = parse_integrator(root.section("integrator"));
    c.evaluation = parse_evaluation(root.optional_section("evaluation"), c.backend);
    c.initial = parse_initial(root.section("initial"), c.source.file);
    resolve(root, c);
    return c;
}

VortexConfig load_vortex_config(const std::string &path) {
    return parse_vortex_config(ConfigNode::load_file(path));
}

VortexConfig load_vortex_config_string(std::string text, std::string file_name) {
    return parse_vortex_config(ConfigNode::load_string(std::move(text), std::move(file_name)));
}

const char *to_string(Regularisation r) {
    switch (r) {
    case Regularisation::Krasny:
        return "krasny";
    case Regularisation::Gaussian:
        return "gaussian";
    default:
        return "point";
    }
}

const char *to_string(Integrator i) {
    switch (i) {
    case Integrator::Euler:
        return "euler";
    case Integrator::Rk2:
        return "rk2";
    case Integrator::Heun:
        return "heun";
    default:
        return "rk4";
    }
}

const char *to_string(InitialKind k) {
    for (const KindKeys &kk : kinds())
        if (kk.kind == k) return kk.name;
    return "?";
}

const char *to_string(Shape s) {
    return s == Shape::Square ? "square" : "disc";
}

int integrator_order(Integrator i) {
    switch (i) {
    case Integrator::Euler:
        return 1;
    case Integrator::Rk2:
    case Integrator::Heun:
        return 2;
    default:
        return 4;
    }
}

int evaluations_per_step(Integrator i) {
    return i == Integrator::Euler ? 1 : i == Integrator::Rk4 ? 4 : 2;
}

} // namespace smelt::apps::vortex
