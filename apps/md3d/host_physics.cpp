// Compiled with -ffp-contract=off (CMakeLists.txt): a fused multiply-add would round differently
// from the Python reference.
#include "md3d/host_physics.h"

#include "common/counter_rng.h"

#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace smelt::apps::md3d {

int64_t degrees_of_freedom(int64_t n, int32_t periodic_mask, IntegratorKind kind) {
    if (kind == IntegratorKind::Langevin) return 3 * n;
    return 3 * n - std::popcount(uint32_t(periodic_mask & 7));
}

double chi_square(int64_t nu, uint64_t seed, int64_t step) {
    using counter_rng::normal;
    using counter_rng::uniform;
    if (nu <= 0) return 0.0;
    if (nu == 1) {
        const double r = normal(seed, step, 0, kStreamBussiNormal);
        return r * r;
    }
    const double d = 0.5 * double(nu) - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (int32_t j = 0; j < kMaxGammaAttempts; ++j) {
        const double x = normal(seed, step, j, kStreamBussiNormal);
        double v = 1.0 + c * x;
        if (v <= 0.0) continue;
        v = v * v * v;
        const double u = uniform(seed, step, j, kStreamBussiUniform);
        if (u < 1.0 - 0.0331 * x * x * x * x ||
            std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
            return 2.0 * d * v;
    }
    throw std::runtime_error("chi_square: no acceptance in " + std::to_string(kMaxGammaAttempts) +
                             " attempts");
}

double bussi_alpha(double ke, double kT, int64_t nf, double dt, double tau, uint64_t seed,
                   int64_t step) {
    if (ke <= 0.0 || kT <= 0.0) return 1.0;
    const double c = std::exp(-dt / tau);
    const double kt = 0.5 * double(nf) * kT;
    const double r1 = counter_rng::normal(seed, step, 0, kStreamBussiR1);
    const double s = chi_square(nf - 1, seed, step);
    const double ratio = kt / (double(nf) * ke);
    const double alpha2 =
        c + (1.0 - c) * (s + r1 * r1) * ratio + 2.0 * r1 * std::sqrt(c * (1.0 - c) * ratio);
    double alpha = std::sqrt(std::max(alpha2, 0.0));
    if (c < 1.0 && r1 + std::sqrt(c * double(nf) * ke / ((1.0 - c) * kt)) < 0.0) alpha = -alpha;
    return alpha;
}

TailCorrection lj_tail(const std::vector<int64_t> &counts, double volume,
                       const std::vector<double> &eps, const std::vector<double> &sigma,
                       const std::vector<double> &r_cut) {
    TailCorrection t;
    const size_t nt = counts.size();
    for (size_t a = 0; a < nt; ++a)
        for (size_t b = 0; b < nt; ++b) {
            const size_t k = a * nt + b;
            const double s3 = std::pow(sigma[k], 3.0);
            const double x3 = std::pow(sigma[k] / r_cut[k], 3.0);
            const double x9 = std::pow(x3, 3.0);
            const double na = double(counts[a]), nb = double(counts[b]);
            t.energy += 8.0 / 3.0 * M_PI * na * nb / volume * eps[k] * s3 * (x9 / 3.0 - x3);
            t.pressure += 16.0 / 3.0 * M_PI * na * nb / std::pow(volume, 2.0) * eps[k] * s3 *
                          (2.0 * x9 / 3.0 - x3);
        }
    return t;
}

TailCorrection tail_correction(const Md3dConfig &c) {
    if (!c.potential.tail) return {};
    std::vector<double> eps, sigma, r_cut;
    for (const PairParameters &p : c.potential.pairs) {
        eps.push_back(p.epsilon);
        sigma.push_back(p.sigma);
        r_cut.push_back(p.r_cut);
    }
    return lj_tail(c.system.counts, c.volume(), eps, sigma, r_cut);
}

} // namespace smelt::apps::md3d
