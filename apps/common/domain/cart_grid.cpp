#include "common/domain/cart_grid.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#if SMELT_APPS_HAVE_MPI
#include <mpi.h>
#endif

namespace smelt::apps::domain {

namespace {

// "[2, 0, 1]", or "[2, 0]" for a 2D grid.
std::string grid_text(const std::array<int, 3> &dims, int dimensions) {
    std::string s = "[";
    for (int a = 0; a < dimensions; ++a)
        s += (a ? ", " : "") + std::to_string(dims[size_t(a)]);
    return s + "]";
}

} // namespace

std::array<int, 3> choose_dims(int ranks, const std::array<int, 3> &requested_dims,
                               int dimensions) {
    if (ranks < 1) throw std::invalid_argument("a domain grid needs at least one rank");
    std::array<int, 3> requested = requested_dims;
    if (dimensions == 2) requested[2] = 1;
    int fixed = 1, free = 0;
    for (int d : requested) {
        if (d < 0) throw std::invalid_argument("a domain grid count cannot be negative");
        if (d > 0)
            fixed *= d;
        else
            ++free;
    }
    if (ranks % fixed != 0 || (free == 0 && fixed != ranks))
        throw std::invalid_argument("the grid " + grid_text(requested, dimensions) +
                                    " does not fit " + std::to_string(ranks) + " ranks (0 = free)");
    std::array<int, 3> dims = requested;
#if SMELT_APPS_HAVE_MPI
    MPI_Dims_create(ranks, 3, dims.data());
#else
    // Without MPI there is one rank: every free axis gets 1.
    for (int &d : dims)
        if (d == 0) d = ranks / fixed, fixed = ranks;
#endif
    return dims;
}

CartGrid CartGrid::make(int rank, const std::array<int, 3> &dims, const std::array<double, 3> &box,
                        const std::array<bool, 3> &periodic) {
    CartGrid g;
    g.dims = dims;
    g.box = box;
    g.periodic = periodic;
    g.rank = rank;
    g.coords = {rank % dims[0], (rank / dims[0]) % dims[1], rank / (dims[0] * dims[1])};
    return g;
}

int CartGrid::neighbor(int axis, int step) const {
    const auto a = size_t(axis);
    int c = coords[a] + step;
    if (c < 0 || c >= dims[a]) {
        if (!periodic[a]) return -1;
        c = (c + dims[a]) % dims[a];
    }
    std::array<int, 3> n = coords;
    n[a] = c;
    return rank_of(n);
}

double CartGrid::cut(int axis, int k) const {
    const auto a = size_t(axis);
    if (k <= 0) return -std::numeric_limits<double>::infinity();
    if (k >= dims[a]) return std::numeric_limits<double>::infinity();
    return box[a] * double(k) / double(dims[a]);
}

int CartGrid::owner_coord(int axis, double x) const {
    int c = 0;
    while (c + 1 < dims[size_t(axis)] && x >= cut(axis, c + 1))
        ++c;
    return c;
}

double CartGrid::ghost_shift(int axis, int step) const {
    const auto a = size_t(axis);
    if (!periodic[a]) return 0.0;
    if (step < 0 && coords[a] == 0) return box[a];
    if (step > 0 && coords[a] == dims[a] - 1) return -box[a];
    return 0.0;
}

void wrap_on_host(double &x, int64_t &image, double length) {
    const double f = std::floor(x / length);
    double w = x - length * f;
    int64_t k = int64_t(f);
    if (w < 0.0) {
        w = w + length;
        k -= 1;
    }
    if (w >= length) {
        w = w - length;
        k += 1;
    }
    x = w;
    image += k;
}

int local_periodic_mask(const CartGrid &grid, int periodic_mask) {
    int mask = periodic_mask;
    for (int a = 0; a < 3; ++a)
        if (grid.decomposed(a)) mask &= ~(1 << a);
    return mask;
}

std::string check_thickness(const CartGrid &grid, double range, int dimensions) {
    static const char *names[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        if (!grid.decomposed(a) || grid.width(a) >= range) continue;
        std::ostringstream m;
        m << "the domain grid " << grid_text(grid.dims, dimensions) << " cuts the box edge "
          << grid.box[size_t(a)] << " along " << names[a] << " into " << grid.dims[size_t(a)]
          << " sub-boxes " << grid.width(a) << " wide, thinner than the interaction range "
          << (dimensions == 2 ? "r_cut" : "max(r_cut)") << " + neighbor.skin = " << range
          << "; use fewer ranks along " << names[a] << " (domain.grid) or fewer ranks";
        return m.str();
    }
    return "";
}

} // namespace smelt::apps::domain
