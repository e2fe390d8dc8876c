#include "common/lattice_config.h"

#include <limits>

namespace smelt::apps {

namespace {

constexpr int64_t kMaxParticles = std::numeric_limits<int32_t>::max(); // kernels index with int

void parse_cells(const ConfigNode &sys, int dim, LatticeSpec &spec) {
    ConfigNode cells = sys.at("cells");
    auto v = cells.as<std::vector<int64_t>>();
    if (v.size() != size_t(dim))
        cells.fail(dim == 3 ? "expected three integers [nx, ny, nz]"
                            : "expected two integers [nx, ny]");
    int64_t total = sites_per_cell(spec.kind);
    for (int64_t k : v) {
        if (k < 1)
            cells.fail(dim == 3 ? "every cell count must be >= 1"
                                : "both cell counts must be >= 1");
        if (total > kMaxParticles / k) cells.fail("too many particles (more than 2^31 - 1)");
        total *= k;
    }
    spec.nx = v[0];
    spec.ny = v[1];
    spec.nz = dim == 3 ? v[2] : 0;
}

} // namespace

LatticeKind lattice_kind(const std::string &name) {
    for (LatticeKind k : {LatticeKind::Square, LatticeKind::Triangular, LatticeKind::SimpleCubic,
                          LatticeKind::BodyCentredCubic, LatticeKind::FaceCentredCubic})
        if (name == to_string(k)) return k;
    return LatticeKind::Random;
}

void parse_lattice_keys(const ConfigNode &sys, int dim, LatticeSpec &spec,
                        std::string_view spacing_key) {
    const std::string spacing(spacing_key);
    const std::string spacing_path = sys.key_path(spacing_key);
    spec.dim = dim;
    const std::string kind =
        dim == 3 ? require_choice(sys, "lattice", {"sc", "bcc", "fcc", "random"})
                 : require_choice(sys, "lattice", {"square", "triangular", "random"});
    spec.kind = lattice_kind(kind);
    const bool random = spec.kind == LatticeKind::Random;

    if (sys.has("n") && sys.has("cells"))
        sys.fail_at("cells", "give either system.n or system.cells, not both");
    if (sys.has("cells")) {
        if (random)
            sys.fail_at("cells", "lattice 'random' has no cells; give the number of particles n");
        parse_cells(sys, dim, spec);
    } else if (sys.has("n")) {
        spec.n = require<int64_t>(sys, "n", Range<int64_t>::between(1, kMaxParticles));
    } else {
        sys.fail_as(sys.key_path("n"), "required key is missing (give system.n or system.cells)");
    }

    if (sys.has("density") && sys.has(spacing))
        sys.fail_at(spacing, "give either system.density or " + spacing_path + ", not both");
    if (random && sys.has(spacing))
        sys.fail_at(spacing, "lattice 'random' is sized by system.density (its smallest "
                             "distance is system.min_spacing)");
    if (sys.has("density")) {
        spec.density = require<double>(sys, "density", Range<double>::positive());
    } else if (sys.has(spacing)) {
        spec.spacing = require<double>(sys, spacing, Range<double>::positive());
    } else {
        sys.fail_as(sys.key_path("density"),
                    "required key is missing (give system.density or " + spacing_path + ")");
    }
    if (!random && sys.has("min_spacing"))
        sys.fail_at("min_spacing", "only used by lattice: random");
    spec.min_spacing = optional<double>(sys, "min_spacing", 0.9, Range<double>::non_negative());
    if (sys.has("box")) {
        ConfigNode box = sys.at("box");
        auto v = box.as<std::vector<double>>();
        if (v.size() != size_t(dim))
            box.fail(dim == 3 ? "expected three numbers [x, y, z]" : "expected two numbers [x, y]");
        spec.box = v;
    }
}

} // namespace smelt::apps
