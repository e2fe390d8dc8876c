#include "common/domain/migration.h"

#include "common/domain/messages.h"

#include <array>
#include <stdexcept>

namespace smelt::apps::domain {

namespace {

size_t bytes_per_particle(const std::vector<smelt::Array *> &arrays) {
    size_t b = 0;
    for (const smelt::Array *a : arrays)
        b += dtype_size(a->dtype());
    return b;
}

} // namespace

int64_t migrate(const CartGrid &grid, DevicePack &pack, DeviceLink *link,
                const std::vector<smelt::Array *> &arrays, int64_t n) {
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
        // [0]: down, whose partner's reply comes from above; [1]: up, from below.
        std::array<Message, 2> m;
        m[0].dest = down_rank;
        m[0].source = up_rank;
        m[0].tag = 100 + 4 * axis;
        m[1].dest = up_rank;
        m[1].source = down_rank;
        m[1].tag = 102 + 4 * axis;
        m[0].send_bytes = pack.pack_fields(arrays, down, m[0].send);
        m[1].send_bytes = pack.pack_fields(arrays, up, m[1].send);
        exchange_messages(link, pack.backend(), m);
        const size_t n_keep = keep.size();
        const size_t n_down = m[1].recv_bytes / per, n_up = m[0].recv_bytes / per;
        const size_t n_new = n_keep + n_down + n_up;
        // The kept particles gathered straight into arrays of the new size, then the arrivals.
        for (smelt::Array *a : arrays) {
            smelt::Array moved(a->dtype(), n_new, &pack.backend());
            pack.gather_into(*a, keep, moved);
            *a = std::move(moved);
        }
        pack.place_fields(m[1].recv, n_down, arrays, n_keep);
        pack.place_fields(m[0].recv, n_up, arrays, n_keep + n_down);
        n = int64_t(n_new);
    }
    return n;
}

} // namespace smelt::apps::domain
