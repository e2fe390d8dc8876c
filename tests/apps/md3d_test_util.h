// Shared pieces of the md3d tests: physics.py as a Program, configs from text, a state on the
// host, CPython runs of the reference scripts.
#pragma once

#include "app_test_util.h"
#include "common/kernel_file.h"
#include "md3d/config.h"
#include "md3d/initial_state.h"
#include "md3d/simulation.h"
#include "smelt.h"

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace smelt::apps::test_util {

inline const smelt::Program &md3d_physics() {
    static const smelt::Program p = smelt::apps::load_kernel_program(SMELT_MD3D_PHYSICS_PATH);
    return p;
}

inline md3d::Md3dConfig md3d_config(const std::string &yaml) {
    return md3d::load_md3d_config_string(yaml, "test.yaml");
}

// Two-type Kob-Andersen pair parameters (epsilon, sigma and r_cut per pair), for configs.
inline const char *kKobAndersenPairs =
    "  pairs:\n"
    "    - {types: [A, A], epsilon: 1.0, sigma: 1.0, r_cut: 2.5}\n"
    "    - {types: [A, B], epsilon: 1.5, sigma: 0.8, r_cut: 2.0}\n"
    "    - {types: [B, B], epsilon: 0.5, sigma: 0.88, r_cut: 2.2}\n";

// n particles uniform in the box (walled axes kept `margin` inside [0, L] so some sit within a
// wall's range), no two closer than min_distance (minimum image on periodic axes); types
// alternate 0, 1, 0, ...; velocities Gaussian (scale `v_scale`), images 0.
inline md3d::HostState random_state(int64_t n, const std::array<double, 3> &box, int32_t mask,
                                    int ntypes, double min_distance, uint64_t seed,
                                    double margin = 0.1, double v_scale = 0.0) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::normal_distribution<double> g(0.0, 1.0);
    md3d::HostState s;
    while (int64_t(s.position[0].size()) < n) {
        double p[3];
        for (int a = 0; a < 3; ++a) {
            const bool periodic = (mask >> a) & 1;
            const double lo = periodic ? 0.0 : margin, hi = box[size_t(a)] - lo;
            p[a] = lo + (hi - lo) * u(rng);
        }
        bool ok = true;
        for (size_t j = 0; j < s.position[0].size() && ok; ++j) {
            double r2 = 0.0;
            for (int a = 0; a < 3; ++a) {
                double d = p[a] - s.position[size_t(a)][j];
                if ((mask >> a) & 1) d -= box[size_t(a)] * std::round(d / box[size_t(a)]);
                r2 += d * d;
            }
            ok = r2 >= min_distance * min_distance;
        }
        if (!ok) continue;
        for (size_t a = 0; a < 3; ++a) {
            s.position[a].push_back(p[a]);
            s.velocity[a].push_back(v_scale * g(rng));
            s.image[a].push_back(0);
        }
        s.species.push_back(int32_t(s.species.size() % size_t(ntypes)));
    }
    return s;
}

// The per-particle force kernels' arguments up to the type tables, which is
// compute_forces_chunked's whole list (the GPU forms append lanes, energy, the rebuild test's
// value and its limit): sim's positions and types, the outputs `out` (fx, fy, fz, pe, vir), the
// list `nl`, a cubic box of edge `edge` with the periodic axis mask, two types and their tables.
inline std::vector<smelt::Arg> pair_force_args(const md3d::Simulation &sim, const NeighborList &nl,
                                               const std::vector<smelt::Array> &out, double edge,
                                               int32_t mask, const std::array<smelt::Array, 4> &t) {
    return {sim.position(0),
            sim.position(1),
            sim.position(2),
            out[0],
            out[1],
            out[2],
            out[3],
            out[4],
            nl.start(),
            nl.count(),
            nl.indices(),
            nl.stride(),
            edge,
            edge,
            edge,
            mask,
            sim.species(),
            int32_t(2),
            t[0],
            t[1],
            t[2],
            t[3]};
}

// A Simulation of `yaml` from its initial state, advanced `steps` steps one at a time.
inline std::unique_ptr<md3d::Simulation> run_steps(const std::string &yaml, int steps) {
    auto s = std::make_unique<md3d::Simulation>(md3d_config(yaml), md3d_physics());
    s->set_initial_state();
    for (int k = 0; k < steps; ++k)
        s->step();
    return s;
}

// x, vx, y, vy, z, vz of a Simulation, on the host, in its particle order.
inline std::vector<std::vector<double>> state_of(md3d::Simulation &s) {
    std::vector<std::vector<double>> v;
    for (int a = 0; a < 3; ++a) {
        v.push_back(s.host(s.position(a)));
        v.push_back(s.host(s.velocity(a)));
    }
    return v;
}

} // namespace smelt::apps::test_util
