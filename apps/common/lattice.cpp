#include "lattice.h"

#include "config_yaml.h" // format_number
#include "lattice_random.h"
#include "random.h"

#include <cmath>
#include <cstdio>

namespace smelt::apps {

namespace {

constexpr double kSqrt3 = 1.7320508075688772;
// Random sequential placement jams near an area fraction of 0.547 (disks) and a volume fraction
// of 0.38 (spheres); stop well before.
constexpr double kMaxRandomFraction2D = 0.5;
constexpr double kMaxRandomFraction3D = 0.3;

std::string dims(const std::array<double, 3> &a, int dim) {
    std::string s = format_number(a[0]);
    for (int d = 1; d < dim; ++d)
        s += " x " + format_number(a[size_t(d)]);
    return s;
}

std::string short_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

int64_t ceil_sqrt(int64_t n) {
    auto r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
    while (r * r < n)
        ++r;
    while (r > 1 && (r - 1) * (r - 1) >= n)
        --r;
    return r;
}

int64_t ceil_cbrt(int64_t n) {
    auto r = static_cast<int64_t>(std::cbrt(static_cast<double>(n)));
    while (r * r * r < n)
        ++r;
    while (r > 1 && (r - 1) * (r - 1) * (r - 1) >= n)
        --r;
    return r;
}

// The basis of the cubic lattices in units of a, and the shift that centres the pattern.
struct CubicBasis {
    std::vector<std::array<double, 3>> sites;
    double shift;
};

CubicBasis cubic_basis(LatticeKind kind) {
    switch (kind) {
    case LatticeKind::BodyCentredCubic:
        return {{{0, 0, 0}, {0.5, 0.5, 0.5}}, 0.25};
    case LatticeKind::FaceCentredCubic:
        return {{{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}}, 0.25};
    default:
        return {{{0, 0, 0}}, 0.5};
    }
}

void plan_random(const LatticeSpec &spec, LatticePlan &p) {
    p.n = spec.n;
    const double volume = static_cast<double>(spec.n) / spec.density;
    const double side = p.dim == 3 ? std::cbrt(volume) : std::sqrt(volume);
    for (int d = 0; d < p.dim; ++d)
        p.region[size_t(d)] = side;
    p.spacing = spec.min_spacing;
    if (spec.min_spacing < 0.0) throw LatticeError("min_spacing", "must be >= 0");
    const double d = spec.min_spacing;
    const double fraction =
        p.dim == 3 ? spec.density * M_PI * d * d * d / 6.0 : spec.density * M_PI * d * d / 4.0;
    const double limit = p.dim == 3 ? kMaxRandomFraction3D : kMaxRandomFraction2D;
    if (fraction > limit)
        throw LatticeError("min_spacing",
                           std::string(p.dim == 3 ? "spheres" : "disks") +
                               " of diameter min_spacing " + format_number(d) + " would cover " +
                               short_number(fraction) + " of the " +
                               (p.dim == 3 ? "volume" : "area") + "; random placement needs <= " +
                               format_number(limit) + " (lower the density or min_spacing)");
}

void plan_2d_lattice(const LatticeSpec &spec, LatticePlan &p) {
    const bool tri = spec.kind == LatticeKind::Triangular;
    double a = spec.spacing;
    if (spec.density > 0.0)
        a = tri ? std::sqrt(2.0 / (kSqrt3 * spec.density)) : 1.0 / std::sqrt(spec.density);
    if (spec.n > 0) {
        p.n = spec.n;
        p.nx = tri ? std::max<int64_t>(1, static_cast<int64_t>(std::ceil(std::sqrt(
                                              static_cast<double>(spec.n) * kSqrt3 / 2.0))))
                   : ceil_sqrt(spec.n);
        p.ny = (spec.n + p.nx - 1) / p.nx;
        if (tri && spec.periodic && p.ny % 2 == 1) ++p.ny;
    } else {
        p.nx = spec.nx;
        p.ny = spec.ny;
        p.n = spec.nx * spec.ny;
        if (tri && spec.periodic && p.ny % 2 == 1)
            throw LatticeError("cells", "a triangular lattice in a periodic box needs an even "
                                        "number of rows (got " +
                                            std::to_string(p.ny) + ")");
    }
    p.spacing = a;
    p.region = {static_cast<double>(p.nx) * a,
                static_cast<double>(p.ny) * a * (tri ? kSqrt3 / 2.0 : 1.0), 0.0};
}

void plan_3d_lattice(const LatticeSpec &spec, LatticePlan &p) {
    const double basis = p.basis;
    const double a = spec.density > 0.0 ? std::cbrt(basis / spec.density) : spec.spacing;
    if (spec.n > 0) {
        p.n = spec.n;
        const int64_t cells = (spec.n + p.basis - 1) / p.basis;
        p.nx = p.ny = ceil_cbrt(cells);
        p.nz = (cells + p.nx * p.ny - 1) / (p.nx * p.ny);
    } else {
        if (spec.nz < 1) throw LatticeError("cells", "give lattice cells of at least 1 x 1 x 1");
        p.nx = spec.nx;
        p.ny = spec.ny;
        p.nz = spec.nz;
        p.n = p.basis * p.nx * p.ny * p.nz;
    }
    p.spacing = a;
    p.region = {static_cast<double>(p.nx) * a, static_cast<double>(p.ny) * a,
                static_cast<double>(p.nz) * a};
}

void place_lattice_2d(const LatticeSpec &spec, const LatticePlan &p, Positions &out) {
    const bool tri = spec.kind == LatticeKind::Triangular;
    const double a = p.spacing, h = tri ? a * kSqrt3 / 2.0 : a;
    for (int64_t k = 0; k < p.n; ++k) {
        int64_t ix = k % p.nx, iy = k / p.nx;
        // Triangular rows alternate between offsets a/4 and 3a/4 so the pattern is
        // symmetric in the region and periodic with an even number of rows.
        double shift = tri ? (iy % 2 == 0 ? 0.25 : 0.75) : 0.5;
        out.x.push_back(p.origin[0] + (static_cast<double>(ix) + shift) * a);
        out.y.push_back(p.origin[1] + (static_cast<double>(iy) + 0.5) * h);
    }
}

void place_lattice_3d(const LatticeSpec &spec, const LatticePlan &p, Positions &out) {
    const CubicBasis basis = cubic_basis(spec.kind);
    const double a = p.spacing;
    for (int64_t k = 0; k < p.n; ++k) {
        const int64_t cell = k / p.basis;
        const auto &b = basis.sites[size_t(k % p.basis)];
        const int64_t i[3] = {cell % p.nx, (cell / p.nx) % p.ny, cell / (p.nx * p.ny)};
        std::vector<double> *axis[3] = {&out.x, &out.y, &out.z};
        for (size_t d = 0; d < 3; ++d)
            axis[d]->push_back(p.origin[d] + (static_cast<double>(i[d]) + b[d] + basis.shift) * a);
    }
}

} // namespace

int lattice_dim(LatticeKind kind) {
    switch (kind) {
    case LatticeKind::Square:
    case LatticeKind::Triangular:
        return 2;
    case LatticeKind::SimpleCubic:
    case LatticeKind::BodyCentredCubic:
    case LatticeKind::FaceCentredCubic:
        return 3;
    default:
        return 0;
    }
}

int sites_per_cell(LatticeKind kind) {
    switch (kind) {
    case LatticeKind::Random:
        return 0;
    case LatticeKind::BodyCentredCubic:
        return 2;
    case LatticeKind::FaceCentredCubic:
        return 4;
    default:
        return 1;
    }
}

const char *to_string(LatticeKind k) {
    switch (k) {
    case LatticeKind::Square:
        return "square";
    case LatticeKind::Triangular:
        return "triangular";
    case LatticeKind::SimpleCubic:
        return "sc";
    case LatticeKind::BodyCentredCubic:
        return "bcc";
    case LatticeKind::FaceCentredCubic:
        return "fcc";
    default:
        return "random";
    }
}

LatticePlan plan_lattice(const LatticeSpec &spec) {
    LatticePlan p;
    p.dim = spec.dim;
    p.basis = sites_per_cell(spec.kind);
    const bool random = spec.kind == LatticeKind::Random;
    if (spec.dim != 2 && spec.dim != 3)
        throw LatticeError("lattice",
                           "the dimension must be 2 or 3 (got " + std::to_string(spec.dim) + ")");
    if (!random && lattice_dim(spec.kind) != spec.dim)
        throw LatticeError("lattice", std::string("'") + to_string(spec.kind) + "' is a " +
                                          std::to_string(lattice_dim(spec.kind)) +
                                          "D lattice, not " + std::to_string(spec.dim) + "D");
    if (spec.n < 0) throw LatticeError("n", "the number of particles must be >= 1");
    if (spec.n == 0 && (spec.nx < 1 || spec.ny < 1))
        throw LatticeError(spec.nx == 0 && spec.ny == 0 ? "n" : "cells",
                           "give the number of particles or lattice cells of at least 1 x 1");
    if (random && spec.n == 0)
        throw LatticeError("cells", "a random lattice has no cells; give the number of particles");
    if (spec.density > 0.0 && spec.spacing > 0.0)
        throw LatticeError("spacing", "give a density or a spacing, not both");
    if (!(spec.density > 0.0) && !(spec.spacing > 0.0))
        throw LatticeError("density", "give a density (> 0) or a spacing (> 0)");
    if (random && !(spec.density > 0.0))
        throw LatticeError("density", "a random lattice is sized by its density");

    if (random)
        plan_random(spec, p);
    else if (spec.dim == 2)
        plan_2d_lattice(spec, p);
    else
        plan_3d_lattice(spec, p);

    const size_t dim = size_t(spec.dim);
    if (spec.box) {
        if (spec.box->size() != dim)
            throw LatticeError("box", "expected " + std::to_string(dim) + " box edges");
        for (size_t k = 0; k < dim; ++k) {
            p.box[k] = (*spec.box)[k];
            if (!(p.box[k] > 0.0)) throw LatticeError("box", "box edges must be > 0");
        }
        for (size_t k = 0; k < dim; ++k)
            if (p.box[k] < p.region[k] * (1.0 - 1e-12))
                throw LatticeError("box", "the box " + dims(p.box, spec.dim) +
                                              " is smaller than the region the particles fill (" +
                                              dims(p.region, spec.dim) + ")");
    } else {
        if (!(spec.box_scale >= 1.0)) throw LatticeError("box_scale", "must be >= 1");
        for (size_t k = 0; k < dim; ++k)
            p.box[k] = p.region[k] * spec.box_scale;
    }
    p.periodic_region = spec.periodic;
    for (size_t k = 0; k < dim; ++k) {
        p.origin[k] = 0.5 * (p.box[k] - p.region[k]);
        p.periodic_region =
            p.periodic_region && std::abs(p.box[k] - p.region[k]) <= 1e-12 * p.box[k];
    }
    return p;
}

Positions make_positions(const LatticeSpec &spec) {
    LatticePlan p = plan_lattice(spec);
    Positions out;
    out.box = p.box;
    out.x.reserve(static_cast<size_t>(p.n));
    out.y.reserve(static_cast<size_t>(p.n));
    if (p.dim == 3) out.z.reserve(static_cast<size_t>(p.n));
    if (spec.kind == LatticeKind::Random)
        place_random(p, spec.min_spacing, spec.seed, out);
    else if (p.dim == 2)
        place_lattice_2d(spec, p, out);
    else
        place_lattice_3d(spec, p, out);
    return out;
}

std::vector<std::vector<double>> make_velocities(int dim, int64_t n, double temperature,
                                                 double mass, int64_t dof, uint64_t seed) {
    std::vector<std::vector<double>> v(
        static_cast<size_t>(dim),
        std::vector<double>(static_cast<size_t>(std::max<int64_t>(n, 0)), 0.0));
    if (!(temperature > 0.0) || n < 2 || dof <= 0) return v;
    // A stream apart from the one that placed the particles (same seed, different state).
    std::mt19937_64 rng(seed ^ 0x9E3779B97F4A7C15ull);
    for (int64_t i = 0; i < n; ++i)
        for (int d = 0; d < dim; ++d)
            v[static_cast<size_t>(d)][static_cast<size_t>(i)] = standard_normal(rng);
    double sum_mv2 = 0.0;
    for (auto &c : v) {
        double mean = 0.0;
        for (double x : c)
            mean += x;
        mean /= static_cast<double>(n);
        for (double &x : c) {
            x -= mean;
            sum_mv2 += mass * x * x;
        }
    }
    double scale = std::sqrt(static_cast<double>(dof) * temperature / sum_mv2);
    for (auto &c : v)
        for (double &x : c)
            x *= scale;
    return v;
}

std::vector<std::vector<double>> make_velocities(int dim, const std::vector<double> &masses,
                                                 double temperature, int64_t dof, uint64_t seed) {
    const size_t n = masses.size();
    std::vector<std::vector<double>> v(static_cast<size_t>(dim), std::vector<double>(n, 0.0));
    if (!(temperature > 0.0) || n < 2 || dof <= 0) return v;
    // The stream of the equal-mass version (a seed draws the same Gaussians in both).
    std::mt19937_64 rng(seed ^ 0x9E3779B97F4A7C15ull);
    for (size_t i = 0; i < n; ++i) {
        const double width = 1.0 / std::sqrt(masses[i]); // the scale is fixed at the end
        for (int d = 0; d < dim; ++d)
            v[static_cast<size_t>(d)][i] = standard_normal(rng) * width;
    }
    double total_mass = 0.0;
    for (double m : masses)
        total_mass += m;
    double sum_mv2 = 0.0;
    for (auto &c : v) {
        double momentum = 0.0;
        for (size_t i = 0; i < n; ++i)
            momentum += masses[i] * c[i];
        const double centre = momentum / total_mass;
        for (size_t i = 0; i < n; ++i) {
            c[i] -= centre;
            sum_mv2 += masses[i] * c[i] * c[i];
        }
    }
    const double scale = std::sqrt(static_cast<double>(dof) * temperature / sum_mv2);
    for (auto &c : v)
        for (double &x : c)
            x *= scale;
    return v;
}

} // namespace smelt::apps
