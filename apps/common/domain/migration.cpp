#include "common/domain/migration.h"

#include "common/domain/exchange.h"

#include <stdexcept>

namespace smelt::apps::domain {

namespace {

size_t bytes_per_particle(const std::vector<smelt::Array *> &arrays) {
    size_t b = 0;
    for (const smelt::Array *a : arrays)
        b += dtype_size(a->dtype());
    return b;
}

// The particles of `list`, every array packed one after the other (one copy to the host).
std::vector<char> pack_message(DevicePack &pack, const std::vector<smelt::Array *> &arrays,
                               const smelt::Array &list) {
    std::vector<char> out;
    pack.append_fields(arrays, list, out);
    return out;
}

} // namespace

int64_t migrate(const CartGrid &grid, DevicePack &pack, const std::vector<smelt::Array *> &arrays,
                int64_t n) {
    const size_t per = bytes_per_particle(arrays);
    for (int axis = 0; axis < 3; ++axis) {
        if (!grid.decomposed(axis)) continue;
        const smelt::Array &c = *arrays[size_t(axis)];
        const int d = grid.dims[size_t(axis)];
        const int me = grid.coords[size_t(axis)];
        const smelt::Array keep = pack.select(c, n, grid.cut(axis, me), grid.cut(axis, me + 1));
        // The neighbours' intervals; with two ranks along the axis both are the same rank and
        // interval, selected once (as "down").
        const int down_rank = grid.neighbor(axis, -1), up_rank = grid.neighbor(axis, +1);
        smelt::Array down(DType::Int32, 0, &pack.backend()), up(DType::Int32, 0, &pack.backend());
        if (down_rank >= 0) {
            const int k = (me - 1 + d) % d;
            down = pack.select(c, n, grid.cut(axis, k), grid.cut(axis, k + 1));
        }
        if (up_rank >= 0 && !(d == 2 && down_rank >= 0)) {
            const int k = (me + 1) % d;
            up = pack.select(c, n, grid.cut(axis, k), grid.cut(axis, k + 1));
        }
        if (int64_t(keep.size() + down.size() + up.size()) != n)
            throw std::runtime_error(
                "domain decomposition: " +
                std::to_string(n - int64_t(keep.size() + down.size() + up.size())) +
                " particle(s) of rank " + std::to_string(grid.rank) +
                " moved further than a sub-box since the last neighbour-list rebuild");
        const std::vector<char> from_up =
            mpi::sendrecv(pack_message(pack, arrays, down), down_rank, up_rank, 100 + 4 * axis);
        const std::vector<char> from_down =
            mpi::sendrecv(pack_message(pack, arrays, up), up_rank, down_rank, 102 + 4 * axis);
        const size_t n_keep = keep.size();
        const size_t n_down = from_down.size() / per, n_up = from_up.size() / per;
        const size_t n_new = n_keep + n_down + n_up;
        for (smelt::Array *a : arrays)
            *a = regrow(pack.gather(*a, keep), n_keep, n_new);
        // Field f of a message starts after the previous fields of all its particles.
        pack.place_fields(from_down.data(), n_down, arrays, n_keep);
        pack.place_fields(from_up.data(), n_up, arrays, n_keep + n_down);
        n = int64_t(n_new);
    }
    return n;
}

} // namespace smelt::apps::domain
