#include "common/neighbor_keys.h"

namespace smelt::apps {

int64_t parse_sort_interval(const ConfigNode &nb, bool binned) {
    // The cell order needs the cell grid: all-pairs lists never reorder.
    const auto every =
        optional<int64_t>(nb, "sort_interval", binned ? 100 : 0, Range<int64_t>::non_negative());
    if (!binned && every > 0)
        nb.fail_at("sort_interval", "reordering by cell needs mode: binned (all_pairs has no cell "
                                    "grid); use sort_interval: 0");
    return every;
}

std::optional<bool> parse_sorted_lists(const ConfigNode &nb) {
    const std::string sorted =
        optional_choice(nb, "sorted_lists", "auto", {"auto", "true", "false"});
    if (sorted == "auto") return std::nullopt;
    return sorted == "true";
}

} // namespace smelt::apps
