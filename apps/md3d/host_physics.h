// md3d's host-side numbers (apps/md3d/README.md, "Integrators" and "Tail corrections"): the
// degrees of freedom, Bussi's velocity-scaling factor with its chi-square draw, and the analytic
// LJ tail corrections. tests/apps/md3d_host_reference.py is the Python reference; these
// functions follow it operation by operation, so they agree bit for bit (the same libm).
#pragma once

#include "md3d/config.h"

#include <cstdint>
#include <vector>

namespace smelt::apps::md3d {

// Streams of the counter-based RNG (apps/common/kernels/rng.py): 0, 1, 2 are the Langevin
// kicks (id = particle); Bussi's host draws use their own.
constexpr int32_t kStreamBussiR1 = 3;      // id 0: the normal R1
constexpr int32_t kStreamBussiNormal = 4;  // id j: the j-th normal of the chi-square draw
constexpr int32_t kStreamBussiUniform = 5; // id j: the j-th uniform of the chi-square draw
constexpr int kMaxGammaAttempts = 1000;

// Nf: 3N for Langevin (the bath does not conserve momentum); else 3N less one per periodic axis
// (bit a of periodic_mask), along which the total momentum starts at 0 and is conserved.
int64_t degrees_of_freedom(int64_t n, int32_t periodic_mask, IntegratorKind kind);

// The sum of nu squared standard normals drawn at (seed, step): nu = 1 one squared normal,
// nu >= 2 twice a Gamma(nu/2, 1) variate by Marsaglia & Tsang. std::runtime_error after
// kMaxGammaAttempts rejections.
double chi_square(int64_t nu, uint64_t seed, int64_t step);

// Bussi, Donadio & Parrinello's factor alpha (v <- alpha v) for kinetic energy `ke`, target
// temperature kT, nf degrees of freedom, time step dt, time constant tau, at (seed, step).
// 1 when ke <= 0 or kT <= 0.
double bussi_alpha(double ke, double kT, int64_t nf, double dt, double tau, uint64_t seed,
                   int64_t step);

struct TailCorrection {
    double energy = 0.0;   // U_tail
    double pressure = 0.0; // P_tail
};

// U_tail and P_tail summed over ordered type pairs: counts per type, the box volume, and the
// pair tables eps, sigma, r_cut (ntypes * ntypes, a * ntypes + b).
TailCorrection lj_tail(const std::vector<int64_t> &counts, double volume,
                       const std::vector<double> &eps, const std::vector<double> &sigma,
                       const std::vector<double> &r_cut);

// The tail corrections of a config (zero unless potential.tail).
TailCorrection tail_correction(const Md3dConfig &config);

} // namespace smelt::apps::md3d
