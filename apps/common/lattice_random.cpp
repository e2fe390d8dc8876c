#include "lattice_random.h"

#include "config_yaml.h" // format_number
#include "random.h"

#include <algorithm>
#include <cmath>

namespace smelt::apps {

namespace {

constexpr int kMaxTries = 10000; // placement attempts per particle

// Rejection sampling on a grid of cells no smaller than the minimum spacing, so each trial only
// looks at the 3 x 3 (x 3) cells around it. Whether a trial is accepted does not depend on the
// grid, only on the distances, so the grid is free to be coarser than min_spacing.
class RandomPlacer {
public:
    RandomPlacer(const LatticePlan &plan, double min_spacing, Positions &out)
        : plan_(plan), dim_(plan.dim), d2_(min_spacing * min_spacing), out_(out) {
        // At most about 2n cells: a tiny min_spacing must not allocate a huge grid.
        const double per_axis =
            std::ceil(std::pow(2.0 * double(std::max<int64_t>(plan.n, 1)), 1.0 / double(dim_))) +
            1.0;
        for (int a = 0; a < dim_; ++a) {
            double k = min_spacing > 0.0 ? std::floor(plan.region[size_t(a)] / min_spacing) : 1.0;
            k = std::clamp(k, 1.0, std::min(per_axis, double(1 << 15)));
            ncell_[a] = static_cast<int64_t>(k);
            cell_[a] = plan.region[size_t(a)] / static_cast<double>(ncell_[a]);
        }
        int64_t total = 1;
        for (int a = 0; a < dim_; ++a)
            total *= ncell_[a];
        cells_.resize(static_cast<size_t>(total));
    }

    bool try_place(const double p[3]) {
        int64_t c[3] = {0, 0, 0};
        for (int a = 0; a < dim_; ++a)
            c[a] = cell_of(p[a], a);
        if (d2_ > 0.0) {
            const int64_t zr = dim_ == 3 ? 1 : 0;
            for (int64_t oz = -zr; oz <= zr; ++oz)
                for (int64_t oy = -1; oy <= 1; ++oy)
                    for (int64_t ox = -1; ox <= 1; ++ox) {
                        int64_t k[3] = {c[0] + ox, c[1] + oy, c[2] + oz};
                        if (!neighbour_cell(k)) continue;
                        for (size_t j : cells_[index(k)])
                            if (too_close(p, j)) return false;
                    }
        }
        cells_[index(c)].push_back(out_.x.size());
        std::vector<double> *axis[3] = {&out_.x, &out_.y, &out_.z};
        for (int a = 0; a < dim_; ++a)
            axis[a]->push_back(p[a]);
        return true;
    }

private:
    int64_t cell_of(double p, int a) const {
        auto c = static_cast<int64_t>((p - plan_.origin[size_t(a)]) / cell_[a]);
        return std::clamp<int64_t>(c, 0, ncell_[a] - 1);
    }
    // Wraps a neighbour cell in a periodic region; false when it is outside a closed one.
    bool neighbour_cell(int64_t k[3]) const {
        for (int a = 0; a < dim_; ++a) {
            if (plan_.periodic_region)
                k[a] = (k[a] + ncell_[a]) % ncell_[a];
            else if (k[a] < 0 || k[a] >= ncell_[a])
                return false;
        }
        return true;
    }
    size_t index(const int64_t k[3]) const {
        return static_cast<size_t>((k[2] * ncell_[1] + k[1]) * ncell_[0] + k[0]);
    }
    bool too_close(const double p[3], size_t j) const {
        const double q[3] = {out_.x[j], out_.y[j], dim_ == 3 ? out_.z[j] : 0.0};
        double r2 = 0.0;
        for (int a = 0; a < dim_; ++a) {
            double d = p[a] - q[a];
            if (plan_.periodic_region) {
                const double L = plan_.box[size_t(a)];
                d -= L * std::round(d / L);
            }
            r2 += d * d;
        }
        return r2 < d2_;
    }

    const LatticePlan &plan_;
    int dim_;
    double d2_;
    Positions &out_;
    int64_t ncell_[3] = {1, 1, 1};
    double cell_[3] = {1.0, 1.0, 1.0};
    std::vector<std::vector<size_t>> cells_;
};

} // namespace

void place_random(const LatticePlan &p, double min_spacing, uint64_t seed, Positions &out) {
    std::mt19937_64 rng(seed);
    RandomPlacer placer(p, min_spacing, out);
    for (int64_t k = 0; k < p.n; ++k) {
        int tries = 0;
        while (true) {
            double q[3] = {0.0, 0.0, 0.0};
            for (int a = 0; a < p.dim; ++a)
                q[a] = p.origin[size_t(a)] + uniform01(rng) * p.region[size_t(a)];
            if (placer.try_place(q)) break;
            if (++tries == kMaxTries)
                throw LatticeError("min_spacing",
                                   "could not place particle " + std::to_string(k + 1) + " of " +
                                       std::to_string(p.n) + " at least " +
                                       format_number(min_spacing) + " from the others in " +
                                       std::to_string(kMaxTries) +
                                       " tries; lower the density or min_spacing");
        }
    }
}

} // namespace smelt::apps
