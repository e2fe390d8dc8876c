// The Cartesian grid of ranks of a domain decomposition: which sub-box of the simulation box a
// rank owns, and its neighbour ranks along each axis (with the periodic wrap).
//
// A 2D app uses the same grid with one rank along z (dims[2] = 1), its z axis unused.
//
// Ranks are numbered with x fastest: rank = cx + dx (cy + dy cz). Along axis a the box [0, L) is
// cut at b_k = k L / d_a (k = 1 .. d_a - 1); the first sub-box reaches down to -inf and the last
// up to +inf, so a particle just outside a walled box (soft walls) still has an owner, and every
// position has exactly one owner whatever the rounding (the same b_k are compared everywhere).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace smelt::apps::domain {

// How many ranks along each axis for `ranks` ranks: `requested` entries > 0 are kept, zeros are
// filled by MPI_Dims_create (as balanced as it can, larger counts first). std::invalid_argument
// when the requested entries do not divide `ranks` (or all are given and their product differs).
// A 2D app passes `dimensions` = 2: z is then one rank (requested[2] is ignored) and messages
// name the grid [x, y].
std::array<int, 3> choose_dims(int ranks, const std::array<int, 3> &requested, int dimensions = 3);

struct CartGrid {
    std::array<int, 3> dims{1, 1, 1};
    std::array<int, 3> coords{0, 0, 0};
    std::array<double, 3> box{0, 0, 0};
    std::array<bool, 3> periodic{true, true, true};
    int rank = 0;

    // Builds rank `rank`'s view of the grid.
    static CartGrid make(int rank, const std::array<int, 3> &dims, const std::array<double, 3> &box,
                         const std::array<bool, 3> &periodic);

    int ranks() const { return dims[0] * dims[1] * dims[2]; }
    bool decomposed(int axis) const { return dims[size_t(axis)] > 1; }
    int rank_of(const std::array<int, 3> &c) const {
        return c[0] + dims[0] * (c[1] + dims[1] * c[2]);
    }
    // The rank `step` (-1 or +1) away along `axis`, wrapped on a periodic axis; -1 past a wall.
    int neighbor(int axis, int step) const;
    // Cut k of axis a (k = 0 .. dims[a]): -inf, b_1, ..., b_{d-1}, +inf.
    double cut(int axis, int k) const;
    double lo(int axis) const { return cut(axis, coords[size_t(axis)]); }
    double hi(int axis) const { return cut(axis, coords[size_t(axis)] + 1); }
    // The sub-box edge along `axis` (L / d_a).
    double width(int axis) const { return box[size_t(axis)] / dims[size_t(axis)]; }
    // The grid coordinate owning position `x` along `axis` (the cut comparisons above).
    int owner_coord(int axis, double x) const;
    // The periodic shift a ghost gets when this rank sends it `step` (-1 down, +1 up) along
    // `axis`: +L when sent down across the periodic edge from the first sub-box, -L up from the
    // last, else 0.
    double ghost_shift(int axis, int step) const;
};

// wrap_coord and image_shift of apps/common/kernels/box.py on the host (the same arithmetic):
// `x` into [0, length), `image` counting the lengths removed. For the outputs of a rank whose
// positions are not wrapped between neighbour-list rebuilds.
void wrap_on_host(double &x, int64_t &image, double length);

// The periodic bit mask of the kernels with the decomposed axes cleared: along those, ghosts
// carry their image and pairs are plain differences (no minimum image).
int local_periodic_mask(const CartGrid &grid, int periodic_mask);

// "" when every decomposed axis' sub-box is at least `range` wide, else a message naming the
// axis, the width and the range (the grid as [x, y] when `dimensions` is 2).
std::string check_thickness(const CartGrid &grid, double range, int dimensions = 3);

} // namespace smelt::apps::domain
