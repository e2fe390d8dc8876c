// Migration: after the positions moved (at a neighbour-list rebuild), every particle goes to the
// rank whose sub-box holds it. Axis by axis (x, y, z; decomposed axes only), each rank selects on
// the device the particles in its lower and its upper neighbour's interval (a particle moves less
// than a sub-box between rebuilds), gathers them into one message per neighbour, sends it
// (common/domain/messages.h: device to device through `link`, else through the host), and
// rebuilds its arrays as the kept particles (in their order) followed by the arrivals
// from below, then from above: the same inputs give the same order on every run.
//
// The caller wraps the positions into the box (periodic axes) first, so the intervals are those
// of CartGrid::cut.
#pragma once

#include "common/domain/cart_grid.h"
#include "common/domain/device_link.h"
#include "common/domain/device_pack.h"

#include <cstdint>
#include <vector>

namespace smelt::apps::domain {

// `arrays`: every per-particle array of the owned particles, each of `n` elements; arrays[a] is
// the coordinate of every decomposed axis a (x, y[, z]: a 2D app passes x, y first on a grid with
// one rank along z). They are replaced by the migrated ones. Returns the new count.
// std::runtime_error when a particle lies outside the rank's and its neighbours' sub-boxes (it
// moved further than a sub-box since the last rebuild).
// `link`: nullptr to stage through the host.
int64_t migrate(const CartGrid &grid, DevicePack &pack, DeviceLink *link,
                const std::vector<smelt::Array *> &arrays, int64_t n);

} // namespace smelt::apps::domain
