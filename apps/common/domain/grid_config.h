// The `domain` section every app with MPI domain decomposition shares: `grid`, the ranks per
// axis (0: chosen by MPI_Dims_create), read and checked against the run's rank count and the
// interaction range, with errors located at the key (common/config_yaml.h).
#pragma once

#include "common/config_yaml.h"

#include <array>
#include <span>
#include <string_view>
#include <vector>

namespace smelt::apps::domain {

// `dom.grid` into `grid` (one rank count per axis, each >= 0; grid.size() axes: 2 or 3); left as
// it is when the key is absent. Keys of `dom` other than grid and `app_keys` (the app's own,
// which it reads) are errors.
void parse_grid(const ConfigNode &dom, std::span<int> grid,
                const std::vector<std::string_view> &app_keys = {});

// On more than one MPI rank (nothing otherwise): the grid `requested` (3 entries; those past
// `dimensions` are 1) must fit the rank count, and each cut axis' sub-box of `box` must be at
// least `r_list` wide. Errors at `domain.grid` of `root`.
void check_grid(const ConfigNode &root, const std::array<int, 3> &requested,
                const std::array<double, 3> &box, const std::array<bool, 3> &periodic,
                double r_list, int dimensions);

} // namespace smelt::apps::domain
