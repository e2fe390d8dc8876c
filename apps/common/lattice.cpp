#include "lattice.h"

#include "config_yaml.h" // format_number
#include "random.h"

#include <cmath>
#include <cstdio>

namespace smelt::apps {

namespace {

constexpr double kSqrt3 = 1.7320508075688772;
constexpr int kMaxTries = 10000; // random placement attempts per particle
// Random sequential placement of disks jams near an area fraction of 0.547; stop well before.
constexpr double kMaxRandomFraction = 0.5;

std::string dims(const std::array<double, 2> &a) {
    return format_number(a[0]) + " x " + format_number(a[1]);
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

// Rejection sampling on a grid of cells no smaller than the minimum spacing, so each trial only
// looks at the 3 x 3 cells around it.
class RandomPlacer {
public:
    RandomPlacer(const LatticePlan &plan, double min_spacing)
        : plan_(plan), d2_(min_spacing * min_spacing) {
        for (int a = 0; a < 2; ++a) {
            ncell_[a] = std::max<int64_t>(1, static_cast<int64_t>(plan.region[a] / min_spacing));
            ncell_[a] = std::min<int64_t>(ncell_[a], 1 << 15);
            cell_[a] = plan.region[a] / static_cast<double>(ncell_[a]);
        }
        cells_.resize(static_cast<size_t>(ncell_[0] * ncell_[1]));
    }

    bool try_place(double px, double py, Positions2D &out) {
        int64_t cx = cell_of(px, 0), cy = cell_of(py, 1);
        for (int64_t oy = -1; oy <= 1; ++oy)
            for (int64_t ox = -1; ox <= 1; ++ox) {
                int64_t nx = cx + ox, ny = cy + oy;
                if (plan_.periodic_region) {
                    nx = (nx + ncell_[0]) % ncell_[0];
                    ny = (ny + ncell_[1]) % ncell_[1];
                } else if (nx < 0 || ny < 0 || nx >= ncell_[0] || ny >= ncell_[1]) {
                    continue;
                }
                for (size_t j : cells_[static_cast<size_t>(ny * ncell_[0] + nx)])
                    if (too_close(px - out.x[j], py - out.y[j])) return false;
            }
        cells_[static_cast<size_t>(cy * ncell_[0] + cx)].push_back(out.x.size());
        out.x.push_back(px);
        out.y.push_back(py);
        return true;
    }

private:
    int64_t cell_of(double p, int a) const {
        auto c = static_cast<int64_t>((p - plan_.origin[a]) / cell_[a]);
        return std::clamp<int64_t>(c, 0, ncell_[a] - 1);
    }
    bool too_close(double dx, double dy) const {
        if (plan_.periodic_region) {
            dx -= plan_.box[0] * std::round(dx / plan_.box[0]);
            dy -= plan_.box[1] * std::round(dy / plan_.box[1]);
        }
        return dx * dx + dy * dy < d2_;
    }

    const LatticePlan &plan_;
    double d2_;
    int64_t ncell_[2];
    double cell_[2];
    std::vector<std::vector<size_t>> cells_;
};

} // namespace

LatticePlan plan_lattice(const LatticeSpec &spec) {
    LatticePlan p;
    const bool random = spec.kind == LatticeKind::Random;
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

    if (random) {
        p.n = spec.n;
        double side = std::sqrt(static_cast<double>(spec.n) / spec.density);
        p.region = {side, side};
        p.spacing = spec.min_spacing;
        if (spec.min_spacing < 0.0) throw LatticeError("min_spacing", "must be >= 0");
        double fraction = spec.density * M_PI * spec.min_spacing * spec.min_spacing / 4.0;
        if (fraction > kMaxRandomFraction)
            throw LatticeError(
                "min_spacing",
                "disks of diameter min_spacing " + format_number(spec.min_spacing) +
                    " would cover " + short_number(fraction) +
                    " of the area; random placement needs <= " + format_number(kMaxRandomFraction) +
                    " (lower the density or min_spacing)");
    } else {
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
                    static_cast<double>(p.ny) * a * (tri ? kSqrt3 / 2.0 : 1.0)};
    }

    if (spec.box) {
        for (int k = 0; k < 2; ++k) {
            if (!((*spec.box)[k] > 0.0)) throw LatticeError("box", "box edges must be > 0");
            if ((*spec.box)[k] < p.region[k] * (1.0 - 1e-12))
                throw LatticeError("box", "the box " + dims(*spec.box) +
                                              " is smaller than the region the particles fill (" +
                                              dims(p.region) + ")");
        }
        p.box = *spec.box;
    } else {
        if (!(spec.box_scale >= 1.0)) throw LatticeError("box_scale", "must be >= 1");
        p.box = {p.region[0] * spec.box_scale, p.region[1] * spec.box_scale};
    }
    for (int k = 0; k < 2; ++k)
        p.origin[k] = 0.5 * (p.box[k] - p.region[k]);
    p.periodic_region = spec.periodic && std::abs(p.box[0] - p.region[0]) <= 1e-12 * p.box[0] &&
                        std::abs(p.box[1] - p.region[1]) <= 1e-12 * p.box[1];
    return p;
}

Positions2D make_positions(const LatticeSpec &spec) {
    LatticePlan p = plan_lattice(spec);
    Positions2D out;
    out.box = p.box;
    out.x.reserve(static_cast<size_t>(p.n));
    out.y.reserve(static_cast<size_t>(p.n));
    if (spec.kind != LatticeKind::Random) {
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
        return out;
    }
    std::mt19937_64 rng(spec.seed);
    RandomPlacer placer(p, spec.min_spacing);
    for (int64_t k = 0; k < p.n; ++k) {
        int tries = 0;
        while (true) {
            double px = p.origin[0] + uniform01(rng) * p.region[0];
            double py = p.origin[1] + uniform01(rng) * p.region[1];
            if (placer.try_place(px, py, out)) break;
            if (++tries == kMaxTries)
                throw LatticeError("min_spacing",
                                   "could not place particle " + std::to_string(k + 1) + " of " +
                                       std::to_string(p.n) + " at least " +
                                       format_number(spec.min_spacing) + " from the others in " +
                                       std::to_string(kMaxTries) +
                                       " tries; lower the density or min_spacing");
        }
    }
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

} // namespace smelt::apps
