// The neighbour-section keys md2d and md3d parse alike (their READMEs, "neighbor").
#pragma once

#include "common/config_yaml.h"

#include <cstdint>
#include <optional>

namespace smelt::apps {

// neighbor.sort_interval: reorder the particles by cell every K steps (default 100 for binned
// lists, 0 for all pairs, where K > 0 is a config error naming the key).
int64_t parse_sort_interval(const ConfigNode &nb, bool binned);
// neighbor.sorted_lists: auto (nullopt: the app decides), true or false.
std::optional<bool> parse_sorted_lists(const ConfigNode &nb);

} // namespace smelt::apps
