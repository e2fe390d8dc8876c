// Random sequential placement with a minimum spacing (lattice.cpp's `random`), in 2D and 3D.
// Internal to apps/common.
#pragma once

#include "lattice.h"

namespace smelt::apps {

// Places plan.n particles uniformly in the plan's region, each trial drawing x, y (, z) from
// std::mt19937_64(seed), rejecting trials closer than min_spacing to a placed particle
// (minimum-imaged when the region is the periodic box). LatticeError("min_spacing") after
// 10000 failed trials for one particle.
void place_random(const LatticePlan &plan, double min_spacing, uint64_t seed, Positions &out);

} // namespace smelt::apps
