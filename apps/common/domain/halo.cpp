#include "common/domain/halo.h"

#include "common/domain/exchange.h"
#include "common/domain/messages.h"

#include <array>
#include <limits>
#include <stdexcept>
#include <string>

namespace smelt::apps::domain {

void Halo::build_columns(const CartGrid &grid, DevicePack &pack, double range,
                         std::span<smelt::Array *const> coords, std::vector<smelt::Array *> extra,
                         int64_t n_owned, bool periodic_images) {
    swaps_.clear();
    bytes_sent_ = 0;
    n_owned_ = n_owned;
    int64_t n = n_owned;
    const double inf = std::numeric_limits<double>::infinity();
    const size_t dim = coords.size();
    dim_ = dim;
    real_bytes_ = dtype_size(coords[0]->dtype());
    for (int axis = int(dim); axis < 3; ++axis)
        if (grid.decomposed(axis))
            throw std::invalid_argument("a halo of " + std::to_string(dim) +
                                        " coordinates on a grid cut along axis " +
                                        std::to_string(axis));
    std::vector<smelt::Array *> all(coords.begin(), coords.end());
    all.insert(all.end(), extra.begin(), extra.end());
    size_t per = 0;
    for (const smelt::Array *a : all)
        per += dtype_size(a->dtype());
    for (int axis = 0; axis < int(dim); ++axis) {
        const auto a = size_t(axis);
        if (!grid.decomposed(axis) && !(periodic_images && grid.periodic[a])) continue;
        const int k = grid.coords[a];
        const double face_lo = grid.box[a] * double(k) / grid.dims[a];
        const double face_hi =
            k + 1 == grid.dims[a] ? grid.box[a] : grid.box[a] * double(k + 1) / grid.dims[a];
        // Both selections before anything arrives along this axis: a ghost is never sent back.
        Swap down, up;
        down.axis = up.axis = axis;
        down.dest = grid.neighbor(axis, -1);
        down.source = grid.neighbor(axis, +1);
        up.dest = grid.neighbor(axis, +1);
        up.source = grid.neighbor(axis, -1);
        down.tag = 200 + 4 * axis;
        up.tag = 202 + 4 * axis;
        down.shift = grid.ghost_shift(axis, -1);
        up.shift = grid.ghost_shift(axis, +1);
        const smelt::Array empty(DType::Int32, 0, &pack.backend());
        down.list = down.dest >= 0 ? pack.select(*coords[a], n, -inf, face_lo + range) : empty;
        up.list = up.dest >= 0 ? pack.select(*coords[a], n, face_hi - range, inf) : empty;
        // [0]: down, whose partner's reply comes from above; [1]: up, from below. A message
        // holds the coordinates as refresh() sends them ([x | y | z]), then the other fields.
        std::array<Message, 2> m;
        for (size_t k = 0; k < 2; ++k) {
            Swap &s = k == 0 ? down : up;
            pack.pack_coords(coords, s.list, s.axis, s.shift, s.send);
            m[k].send_bytes =
                pack.pack_fields(extra, s.list, m[k].send, &s.send, dim * s.list.size());
            m[k].dest = s.dest;
            m[k].source = s.source;
            m[k].tag = s.tag;
            bytes_sent_ += int64_t(m[k].send_bytes);
        }
        exchange_messages(link_, pack.backend(), m);
        const int64_t n_below = int64_t(m[1].recv_bytes / per);
        const int64_t n_above = int64_t(m[0].recv_bytes / per);
        up.recv_at = n;
        up.recv_count = n_below;
        down.recv_at = n + n_below;
        down.recv_count = n_above;
        const int64_t n_new = n + n_below + n_above;
        for (smelt::Array *arr : all)
            *arr = regrow(*arr, size_t(n), size_t(n_new));
        pack.place_fields(m[1].recv, size_t(n_below), all, size_t(n));
        pack.place_fields(m[0].recv, size_t(n_above), all, size_t(n + n_below));
        n = n_new;
        swaps_.push_back(down);
        swaps_.push_back(up);
    }
    n_total_ = n;
}

// Swaps come in (down, up) pairs per axis, as build() made them: both are sent before either
// is placed, and an axis' ghosts are placed before the next axis forwards them.
void Halo::pack_out(DevicePack &pack, std::span<smelt::Array *const> coords, size_t p) {
    const size_t dim = coords.size();
    const size_t real = dtype_size(coords[0]->dtype());
    for (size_t k = 0; k < 2; ++k) {
        Swap &s = swaps_[p + k];
        pack.pack_coords(coords, s.list, s.axis, s.shift, s.send);
        const size_t in = dim * size_t(s.recv_count);
        if (link_) {
            // Received on the device, where place_in reads it.
            if (in && (s.recv.is_null() || s.recv.size() < in))
                s.recv = smelt::Array(coords[0]->dtype(), in, &pack.backend());
            continue;
        }
        s.host_send.clear(); // keeps its capacity: no allocation per step
        append_bytes(s.send, dim * s.list.size(), s.host_send);
        s.host_recv.resize(in * real);
    }
}

void Halo::exchange(size_t p) {
    if (link_) {
        std::array<DeviceLink::Transfer, 2> t;
        for (size_t k = 0; k < 2; ++k) {
            const Swap &s = swaps_[p + k];
            const size_t per = dim_ * real_bytes_; // bytes per particle
            t[k] = {&s.send, per * s.list.size(),        s.dest,
                    &s.recv, per * size_t(s.recv_count), s.source};
            bytes_sent_ += int64_t(t[k].send_bytes);
        }
        link_->exchange(t);
        return;
    }
    for (size_t k = 0; k < 2; ++k) {
        Swap &s = swaps_[p + k];
        mpi::sendrecv_known(s.host_send.data(), s.host_send.size(), s.dest, s.host_recv.data(),
                            s.host_recv.size(), s.source, s.tag);
        bytes_sent_ += int64_t(s.host_send.size());
    }
}

void Halo::place_in(DevicePack &pack, std::span<smelt::Array *const> coords, size_t p) {
    const size_t dim = coords.size();
    // A swap receives what its source sent the same way (the "down" swap what came down from
    // above) into the slots build() gave it.
    for (size_t k = 0; k < 2; ++k) {
        Swap &s = swaps_[p + k];
        const size_t in = size_t(s.recv_count);
        if (in == 0) continue;
        if (!link_) {
            if (s.recv.is_null() || s.recv.size() < dim * in)
                s.recv = smelt::Array(coords[0]->dtype(), dim * in, &pack.backend());
            write_elements(s.recv, 0, s.host_recv.data(), dim * in);
        }
        pack.place_coords(s.recv, in, coords, size_t(s.recv_at));
    }
}

} // namespace smelt::apps::domain
