// md3d's initial state on the host (apps/md3d/README.md, "Initial state"): a lattice or random
// start with types assigned by a seeded shuffle and Gaussian velocities, or a frame of an md3d
// H5MD file (system.from_file).
#pragma once

#include "md3d/config.h"

#include <array>
#include <cstdint>
#include <vector>

namespace smelt::apps::md3d {

struct HostState {
    std::array<std::vector<double>, 3> position; // wrapped into the box on periodic axes
    std::array<std::vector<double>, 3> velocity;
    std::array<std::vector<int32_t>, 3> image; // unwrapped = position + image * edge
    std::vector<int32_t> species;              // type index per particle
    int64_t step = 0;                          // from_file continue: the frame's step, time
    double time = 0.0;                         // and thermostat heat
    double heat = 0.0;
};

// Type indices for sites 0..N-1: counts[0] sites of type 0, then counts[1] of type 1, ...,
// mixed by a Fisher-Yates shuffle driven by std::mt19937_64 (the swap partner of position i is
// draw % (i + 1), portable where std::uniform_int_distribution is not). One type: no shuffle.
std::vector<int32_t> assign_types(const std::vector<int64_t> &counts, uint64_t seed);

// The per-particle masses of `species`.
std::vector<double> particle_masses(const Md3dConfig &config, const std::vector<int32_t> &species);

// The config's initial state. A random lattice that cannot be placed throws a ConfigError at the
// key to change; an unreadable from_file frame std::runtime_error.
HostState make_initial_state(const Md3dConfig &config);

} // namespace smelt::apps::md3d
