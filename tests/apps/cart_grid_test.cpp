// The Cartesian grid of ranks (apps/common/domain/cart_grid.h) checked against its definition:
// ranks numbered x fastest, neighbours one step along an axis (wrapped when periodic, none past a
// wall), cuts at k L / d with open outer sub-boxes, ghost shifts across the periodic edge, and the
// thickness rule. Runs without MPI: the grid is plain arithmetic.
#include "common/domain/cart_grid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

using smelt::apps::domain::CartGrid;
using smelt::apps::domain::check_thickness;
using smelt::apps::domain::choose_dims;
using smelt::apps::domain::local_periodic_mask;

namespace {

const std::array<int, 3> kDims{2, 3, 4};
const std::array<double, 3> kBox{6.0, 9.0, 12.0};

std::vector<CartGrid> all_ranks(const std::array<bool, 3> &periodic) {
    std::vector<CartGrid> grids;
    for (int r = 0; r < kDims[0] * kDims[1] * kDims[2]; ++r)
        grids.push_back(CartGrid::make(r, kDims, kBox, periodic));
    return grids;
}

} // namespace

TEST(CartGrid, RanksAreNumberedXFastestAndEveryCellOnce) {
    std::set<std::array<int, 3>> seen;
    int r = 0;
    for (int z = 0; z < kDims[2]; ++z)
        for (int y = 0; y < kDims[1]; ++y)
            for (int x = 0; x < kDims[0]; ++x, ++r) {
                CartGrid g = CartGrid::make(r, kDims, kBox, {true, true, true});
                EXPECT_EQ(g.coords, (std::array<int, 3>{x, y, z})) << "rank " << r;
                EXPECT_EQ(g.rank_of(g.coords), r);
                seen.insert(g.coords);
            }
    EXPECT_EQ(seen.size(), 24u);
    EXPECT_EQ(CartGrid::make(0, kDims, kBox, {true, true, true}).ranks(), 24);
}

TEST(CartGrid, NeighboursWrapWhenPeriodicAndStopAtWalls) {
    for (const CartGrid &g : all_ranks({true, false, true})) {
        for (int axis = 0; axis < 3; ++axis)
            for (int step : {-1, 1}) {
                std::array<int, 3> c = g.coords;
                c[size_t(axis)] += step;
                const int d = kDims[size_t(axis)];
                int expected;
                if (c[size_t(axis)] < 0 || c[size_t(axis)] >= d) {
                    if (axis == 1) {
                        expected = -1; // walled axis
                    } else {
                        c[size_t(axis)] = c[size_t(axis)] < 0 ? d - 1 : 0;
                        expected = c[0] + 2 * (c[1] + 3 * c[2]);
                    }
                } else {
                    expected = c[0] + 2 * (c[1] + 3 * c[2]);
                }
                EXPECT_EQ(g.neighbor(axis, step), expected)
                    << "rank " << g.rank << " axis " << axis << " step " << step;
            }
    }
}

TEST(CartGrid, CutsTileTheBoxAndEveryPositionHasOneOwner) {
    const CartGrid g = CartGrid::make(0, kDims, kBox, {true, true, true});
    const double inf = std::numeric_limits<double>::infinity();
    for (int axis = 0; axis < 3; ++axis) {
        const int d = kDims[size_t(axis)];
        EXPECT_EQ(g.cut(axis, 0), -inf);
        EXPECT_EQ(g.cut(axis, d), inf);
        EXPECT_DOUBLE_EQ(g.width(axis), 3.0);
        for (int k = 1; k < d; ++k)
            EXPECT_DOUBLE_EQ(g.cut(axis, k), 3.0 * k);
        // Positions inside, on every cut, and outside the box (soft walls): exactly one owner,
        // the one whose [lo, hi) holds it.
        for (double x = -1.5; x <= kBox[size_t(axis)] + 1.5; x += 0.75) {
            int owners = 0;
            for (const CartGrid &r : all_ranks({true, true, true})) {
                if (r.coords[(size_t(axis) + 1) % 3] != 0 || r.coords[(size_t(axis) + 2) % 3] != 0)
                    continue;
                if (r.lo(axis) <= x && x < r.hi(axis)) {
                    ++owners;
                    EXPECT_EQ(g.owner_coord(axis, x), r.coords[size_t(axis)]) << "x = " << x;
                }
            }
            EXPECT_EQ(owners, 1) << "axis " << axis << " x = " << x;
        }
    }
}

TEST(CartGrid, GhostsSentAcrossThePeriodicEdgeCarryTheBoxShift) {
    for (const CartGrid &g : all_ranks({true, true, false}))
        for (int axis = 0; axis < 3; ++axis) {
            const bool first = g.coords[size_t(axis)] == 0;
            const bool last = g.coords[size_t(axis)] == kDims[size_t(axis)] - 1;
            const double l = kBox[size_t(axis)];
            const bool periodic = axis != 2;
            EXPECT_EQ(g.ghost_shift(axis, -1), periodic && first ? l : 0.0);
            EXPECT_EQ(g.ghost_shift(axis, +1), periodic && last ? -l : 0.0);
        }
}

TEST(CartGrid, DecomposedAxesLeaveThePeriodicMask) {
    const CartGrid cut_x = CartGrid::make(0, {2, 1, 1}, kBox, {true, true, true});
    EXPECT_EQ(local_periodic_mask(cut_x, 0b111), 0b110);
    const CartGrid cut_yz = CartGrid::make(0, {1, 2, 2}, kBox, {true, true, true});
    EXPECT_EQ(local_periodic_mask(cut_yz, 0b101), 0b001);
    const CartGrid whole = CartGrid::make(0, {1, 1, 1}, kBox, {true, true, true});
    EXPECT_EQ(local_periodic_mask(whole, 0b111), 0b111);
}

TEST(CartGrid, ThinSubBoxesAreNamedWithAxisWidthAndRange) {
    const CartGrid g = CartGrid::make(0, {1, 4, 1}, {6.0, 8.0, 6.0}, {true, true, true});
    EXPECT_EQ(check_thickness(g, 2.0), "");
    const std::string m = check_thickness(g, 2.8);
    EXPECT_NE(m.find("along y"), std::string::npos) << m;
    EXPECT_NE(m.find("2 wide"), std::string::npos) << m;
    EXPECT_NE(m.find("2.8"), std::string::npos) << m;
    // An axis that is not cut is never too thin: the whole box is one sub-box there.
    EXPECT_EQ(check_thickness(CartGrid::make(0, {1, 1, 1}, {1, 1, 1}, {true, true, true}), 5.0),
              "");
}

// Only the rejections: a grid that fits is completed by MPI_Dims_create, which needs MPI running
// (the md3d.mpi tests cover it, e.g. thin_grid and the 1,2,2 grids).
TEST(CartGrid, ChooseDimsRejectsGridsThatDoNotFitTheRanks) {
    EXPECT_THROW(choose_dims(6, {4, 0, 0}), std::invalid_argument);
    EXPECT_THROW(choose_dims(8, {2, 2, 1}), std::invalid_argument);
    EXPECT_THROW(choose_dims(0, {0, 0, 0}), std::invalid_argument);
    EXPECT_THROW(choose_dims(4, {-1, 0, 0}), std::invalid_argument);
}

// md2d's grid is the 3D one with one rank along z: a requested z count is ignored, and the
// messages name the grid as [x, y] and md2d's range r_cut + neighbor.skin.
TEST(CartGrid, TwoDimensionalGridsIgnoreZAndNameTwoCounts) {
    try {
        choose_dims(4, {3, 0, 5}, 2);
        FAIL() << "a grid of 3 along x fits 4 ranks";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("the grid [3, 0] does not fit 4 ranks"),
                  std::string::npos)
            << e.what();
    }
    const CartGrid g = CartGrid::make(0, {4, 1, 1}, {8.0, 8.0, 1.0}, {true, true, false});
    const std::string m = check_thickness(g, 2.8, 2);
    EXPECT_NE(m.find("the domain grid [4, 1] cuts"), std::string::npos) << m;
    EXPECT_NE(m.find("along x"), std::string::npos) << m;
    EXPECT_NE(m.find("r_cut + neighbor.skin = 2.8"), std::string::npos) << m;
    EXPECT_EQ(m.find("max(r_cut)"), std::string::npos) << m;
}

// wrap_on_host against positions whose wrapped value and image count are known exactly.
TEST(CartGrid, WrapOnHostMapsIntoTheBoxAndCountsImages) {
    struct Case {
        double x, wrapped;
        int64_t image;
    };
    for (const Case &c : {Case{2.5, 2.5, 0}, Case{-0.5, 9.5, -1}, Case{10.0, 0.0, 1},
                          Case{21.0, 1.0, 2}, Case{-10.0, 0.0, -1}, Case{0.0, 0.0, 0}}) {
        double x = c.x;
        int64_t image = 3;
        smelt::apps::domain::wrap_on_host(x, image, 10.0);
        EXPECT_EQ(x, c.wrapped) << "x = " << c.x;
        EXPECT_EQ(image, 3 + c.image) << "x = " << c.x;
    }
    // Rounding: -1e-17 + 10 rounds to 10, which the guard maps to 0 (never the box edge).
    double x = -1e-17;
    int64_t image = 0;
    smelt::apps::domain::wrap_on_host(x, image, 10.0);
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 10.0);
}
