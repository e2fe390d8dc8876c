#include "common/domain/interior_split.h"

#include "common/run_config.h"

namespace smelt::apps::domain {

InteriorSplit::InteriorSplit(const smelt::Program &halo, const smelt::Options &options)
    : backend_(&backend_of(options)),
      split_(halo, "reads_ghost", "split_compact", "a+b", DType::Int32, "0", "", options) {
    n_boundary_array_ = zeros(1, DType::Int32, backend_);
}

void InteriorSplit::build(const NeighborList &list, int64_t n_owned) {
    n_owned_ = n_owned;
    n_boundary_ = 0;
    if (n_owned <= 0) return;
    // Room for every owned particle in either list, kept across builds while the count fits.
    if (interior_.is_null() || int64_t(interior_.size()) < n_owned) {
        const size_t room = size_t(n_owned) + size_t(n_owned) / 4 + 16;
        interior_ = smelt::Array(DType::Int32, room, backend_);
        boundary_ = smelt::Array(DType::Int32, room, backend_);
    }
    split_({{"nbr_start", list.start()},
            {"nbr_count", list.count()},
            {"nbr_idx", list.indices()},
            {"nbr_stride", list.stride()},
            {"lanes", int32_t(list.spec().lanes)},
            {"n_owned", int32_t(n_owned)},
            {"boundary", boundary_},
            {"interior", interior_},
            {"n_boundary", n_boundary_array_}},
           n_owned);
    n_boundary_ = n_boundary_array_.to_vector<int32_t>()[0];
}

} // namespace smelt::apps::domain
