// Ghost particles: copies of the neighbour ranks' particles within `range` (r_cut + skin) of a
// rank's sub-box, so that its force loop sees every pair it needs.
//
// build() runs at a neighbour-list rebuild, after migration. Axis by axis (x, y[, z]; the
// decomposed axes, and with periodic_images the periodic ones), a rank selects the particles
// (owned and the ghosts received along earlier axes, so edges and corners arrive in two or three
// hops) within `range` of its lower face and of its upper face, sends them down and up, and
// appends what it receives after its particles: the ghosts of the lower neighbour first, then
// those of the upper. A ghost sent across the periodic edge carries its image (+-L along that
// axis), so ghost coordinates are plain differences from the owned ones: the pair kernels use no
// minimum image along a decomposed axis, and two images of one particle (a thin periodic grid of
// two ranks) are two distinct ghosts.
//
// refresh() runs at every other step: the same selections (index lists kept on the device) send
// the current coordinates, in the same axis order, into the same places. Per direction that is
// one gather kernel packing x, y[, z], one copy to the host, one message (the sizes are known
// from the build), one copy to the device and one kernel placing them: buffers are kept across
// steps, so a refresh allocates nothing. With a DeviceLink (device_link.h) the message goes from
// device to device on the backend's stream instead, with no copy through the host and no wait;
// so do the build's messages, after their sizes (common/domain/messages.h).
#pragma once

#include "common/domain/cart_grid.h"
#include "common/domain/device_link.h"
#include "common/domain/device_pack.h"

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace smelt::apps::domain {

class Halo {
public:
    // `coords`: the coordinate columns of the owned particles in [0, n_owned), sized at least
    // n_owned: x, y, z in 3D or x, y in 2D (D = 2: the grid's z axis must not be cut);
    // `extra`: other per-particle arrays the ghosts carry (md3d: the type), same layout. Every
    // array is regrown to n_owned + ghosts (the owned part kept).
    //
    // Ghosts are exchanged along the decomposed axes. With `periodic_images`, also along the
    // periodic axes that are not cut: there the rank is its own neighbour, and the particles
    // within `range` of either face come back as its own ghosts, shifted by -+L. Pairs across
    // every periodic edge are then plain differences from ghosts, so the pair kernels need no
    // minimum image on any axis (md2d's kernels take one periodic flag for both axes).
    template <size_t D>
    void build(const CartGrid &grid, DevicePack &pack, double range,
               std::array<smelt::Array, D> &coords, std::vector<smelt::Array *> extra,
               int64_t n_owned, bool periodic_images = false) {
        const std::array<smelt::Array *, D> c = columns(coords);
        build_columns(grid, pack, range, c, std::move(extra), n_owned, periodic_images);
    }
    // Sends the current coordinates of the owned part (and forwarded ghosts) to the ghost slots.
    template <size_t D> void refresh(DevicePack &pack, std::array<smelt::Array, D> &coords) {
        refresh_out(pack, coords);
        refresh_exchange();
        refresh_in(pack, coords);
    }
    // refresh() in three parts, so that device work reading no ghost can run while the first
    // exchanged axis' messages are in flight (md3d's interior forces):
    //   refresh_out       packs the first axis' coordinates and copies them to the host (waits
    //                     for the device work queued before it, and for nothing after);
    //   refresh_exchange  its MPI messages (host only: device work queued meanwhile runs on);
    //   refresh_in        places them on the device (after the work queued since refresh_out),
    //                     then refreshes the other axes whole (they forward the first axis'
    //                     ghosts, so they wait for it).
    // The three are collective and must come in this order, once each.
    template <size_t D> void refresh_out(DevicePack &pack, std::array<smelt::Array, D> &coords) {
        const std::array<smelt::Array *, D> c = columns(coords);
        bytes_sent_ = 0;
        if (!swaps_.empty()) pack_out(pack, c, 0);
    }
    void refresh_exchange() {
        if (!swaps_.empty()) exchange(0);
    }
    template <size_t D> void refresh_in(DevicePack &pack, std::array<smelt::Array, D> &coords) {
        const std::array<smelt::Array *, D> c = columns(coords);
        if (!swaps_.empty()) place_in(pack, c, 0);
        for (size_t p = 2; p + 1 < swaps_.size(); p += 2) {
            pack_out(pack, c, p);
            exchange(p);
            place_in(pack, c, p);
        }
    }

    // Refreshes through `link` (device to device; device_link.h) instead of staging through the
    // host; nullptr stages. build() always stages: its message sizes are not known in advance.
    void set_link(DeviceLink *link) { link_ = link; }
    bool linked() const { return link_ != nullptr; }

    int64_t owned() const { return n_owned_; }
    int64_t total() const { return n_total_; }
    int64_t ghosts() const { return n_total_ - n_owned_; }
    // Bytes sent by this rank in the last build or refresh (the halo volume, for the docs).
    int64_t bytes_sent() const { return bytes_sent_; }

private:
    // Pointers to the coordinate arrays, on the stack: a refresh allocates nothing.
    template <size_t D>
    static std::array<smelt::Array *, D> columns(std::array<smelt::Array, D> &coords) {
        std::array<smelt::Array *, D> c{};
        for (size_t a = 0; a < D; ++a)
            c[a] = &coords[a];
        return c;
    }
    void build_columns(const CartGrid &grid, DevicePack &pack, double range,
                       std::span<smelt::Array *const> coords, std::vector<smelt::Array *> extra,
                       int64_t n_owned, bool periodic_images);
    // The refresh of the swap pair (p, p + 1) of one axis, in three steps.
    void pack_out(DevicePack &pack, std::span<smelt::Array *const> coords, size_t p);
    void exchange(size_t p);
    void place_in(DevicePack &pack, std::span<smelt::Array *const> coords, size_t p);

    struct Swap {
        int axis = 0;
        int dest = -1, source = -1;
        int tag = 0;
        smelt::Array list;   // indices sent, into the arrays as they were at this swap
        double shift = 0.0;  // added to coordinate `axis` of what is sent
        int64_t recv_at = 0; // where the received ghosts go
        int64_t recv_count = 0;
        // The refresh's packed coordinates, sent and received, on the device and the host.
        smelt::Array send, recv;
        std::vector<char> host_send, host_recv;
    };
    std::vector<Swap> swaps_;
    int64_t n_owned_ = 0, n_total_ = 0, bytes_sent_ = 0;
    size_t dim_ = 0, real_bytes_ = 0; // coordinate columns and their element size, from build()
    DeviceLink *link_ = nullptr;
};

} // namespace smelt::apps::domain
