// Initial states: lattice counts, spacings and boxes against hand-computed geometry; random
// placement against a brute-force distance check; velocities against the momentum and
// temperature they must have exactly.
#include "common/lattice.h"
#include "common/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace smelt::apps;

namespace {

// Smallest pair distance, minimum-imaged in `box` when periodic (brute force).
double min_distance(const Positions2D &p, bool periodic) {
    double best = INFINITY;
    for (size_t i = 0; i < p.x.size(); ++i)
        for (size_t j = i + 1; j < p.x.size(); ++j) {
            double dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j];
            if (periodic) {
                dx -= p.box[0] * std::round(dx / p.box[0]);
                dy -= p.box[1] * std::round(dy / p.box[1]);
            }
            best = std::min(best, std::hypot(dx, dy));
        }
    return best;
}

// Number of neighbours of particle i at distance d (to 1e-9), minimum-imaged.
int neighbours_at(const Positions2D &p, size_t i, double d) {
    int count = 0;
    for (size_t j = 0; j < p.x.size(); ++j) {
        if (j == i) continue;
        double dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j];
        dx -= p.box[0] * std::round(dx / p.box[0]);
        dy -= p.box[1] * std::round(dy / p.box[1]);
        if (std::abs(std::hypot(dx, dy) - d) < 1e-9) ++count;
    }
    return count;
}

TEST(Lattice, SquareFromCountAndDensity) {
    LatticeSpec s;
    s.n = 10;
    s.density = 0.25; // a = 2
    LatticePlan p = plan_lattice(s);
    EXPECT_EQ(p.nx, 4); // ceil(sqrt(10))
    EXPECT_EQ(p.ny, 3); // ceil(10 / 4)
    EXPECT_DOUBLE_EQ(p.spacing, 2.0);
    EXPECT_DOUBLE_EQ(p.box[0], 8.0);
    EXPECT_DOUBLE_EQ(p.box[1], 6.0);
    EXPECT_TRUE(p.periodic_region);
    Positions2D pos = make_positions(s);
    ASSERT_EQ(pos.x.size(), 10u);
    EXPECT_DOUBLE_EQ(pos.x[0], 1.0);
    EXPECT_DOUBLE_EQ(pos.y[0], 1.0);
    EXPECT_DOUBLE_EQ(pos.x[5], 3.0); // second row, second column
    EXPECT_DOUBLE_EQ(pos.y[5], 3.0);
    EXPECT_NEAR(min_distance(pos, true), 2.0, 1e-12);
}

TEST(Lattice, SquareFromCellsAndSpacing) {
    LatticeSpec s;
    s.nx = 5;
    s.ny = 4;
    s.spacing = 1.5;
    Positions2D pos = make_positions(s);
    ASSERT_EQ(pos.x.size(), 20u);
    EXPECT_DOUBLE_EQ(pos.box[0], 7.5);
    EXPECT_DOUBLE_EQ(pos.box[1], 6.0);
    EXPECT_NEAR(min_distance(pos, true), 1.5, 1e-12);
    for (size_t i = 0; i < pos.x.size(); ++i)
        EXPECT_EQ(neighbours_at(pos, i, 1.5), 4);
}

TEST(Lattice, SquareDensityIsExactWhenFull) {
    LatticeSpec s;
    s.n = 64 * 64;
    s.density = 0.7;
    LatticePlan p = plan_lattice(s);
    EXPECT_EQ(p.nx * p.ny, 4096);
    EXPECT_NEAR(4096.0 / (p.box[0] * p.box[1]), 0.7, 1e-12);
}

TEST(Lattice, TriangularHasSixNeighboursAndTheDensity) {
    LatticeSpec s;
    s.kind = LatticeKind::Triangular;
    s.nx = 6;
    s.ny = 4;
    s.density = 0.9;
    Positions2D pos = make_positions(s);
    ASSERT_EQ(pos.x.size(), 24u);
    const double a = std::sqrt(2.0 / (std::sqrt(3.0) * 0.9));
    EXPECT_NEAR(24.0 / (pos.box[0] * pos.box[1]), 0.9, 1e-12);
    EXPECT_NEAR(min_distance(pos, true), a, 1e-12);
    for (size_t i = 0; i < pos.x.size(); ++i)
        EXPECT_EQ(neighbours_at(pos, i, a), 6) << i;
}

TEST(Lattice, TriangularFromCountGetsEvenRowsWhenPeriodic) {
    LatticeSpec s;
    s.kind = LatticeKind::Triangular;
    s.n = 4096;
    s.spacing = 1.1;
    LatticePlan p = plan_lattice(s);
    EXPECT_EQ(p.ny % 2, 0);
    EXPECT_GE(p.nx * p.ny, 4096);
    EXPECT_LT(p.nx * (p.ny - 2), 4096);          // no more than the rows needed
    EXPECT_NEAR(p.box[1] / p.box[0], 1.0, 0.05); // close to square
    EXPECT_EQ(make_positions(s).x.size(), 4096u);
}

TEST(Lattice, WallsBoxIsThreeTimesTheLatticeWithTheLatticeCentred) {
    LatticeSpec s;
    s.n = 100;
    s.spacing = 1.5;
    s.periodic = false;
    s.box_scale = 3.0; // md2d's default with walls, as in the paper
    Positions2D pos = make_positions(s);
    EXPECT_DOUBLE_EQ(pos.box[0], 45.0);
    auto [xmin, xmax] = std::minmax_element(pos.x.begin(), pos.x.end());
    EXPECT_DOUBLE_EQ(*xmin, 15.0 + 0.75);
    EXPECT_DOUBLE_EQ(*xmax, 30.0 - 0.75);
}

TEST(Lattice, ExplicitBoxMustHoldTheLattice) {
    LatticeSpec s;
    s.nx = s.ny = 10;
    s.spacing = 1.0;
    s.box = std::array<double, 2>{9.5, 20.0};
    try {
        plan_lattice(s);
        FAIL();
    } catch (const LatticeError &e) {
        EXPECT_EQ(e.key(), "box");
    }
    s.box = std::array<double, 2>{10.0, 20.0};
    EXPECT_DOUBLE_EQ(plan_lattice(s).origin[1], 5.0);
}

TEST(Lattice, SpecErrorsNameTheField) {
    LatticeSpec s;
    s.n = 10;
    auto key_of = [](const LatticeSpec &spec) {
        try {
            plan_lattice(spec);
        } catch (const LatticeError &e) {
            return e.key();
        }
        return std::string("none");
    };
    EXPECT_EQ(key_of(s), "density"); // neither density nor spacing
    s.density = 1.0;
    s.spacing = 1.0;
    EXPECT_EQ(key_of(s), "spacing");
    s.spacing = 0.0;
    s.kind = LatticeKind::Random;
    s.min_spacing = 0.9; // area fraction 0.64
    EXPECT_EQ(key_of(s), "min_spacing");
    s.min_spacing = 0.5;
    EXPECT_EQ(key_of(s), "none");
}

TEST(Lattice, RandomRespectsMinimumSpacingAndSeed) {
    LatticeSpec s;
    s.kind = LatticeKind::Random;
    s.n = 600;
    s.density = 0.6;
    s.min_spacing = 0.9; // area fraction 0.38
    s.seed = 7;
    Positions2D a = make_positions(s);
    ASSERT_EQ(a.x.size(), 600u);
    EXPECT_GE(min_distance(a, true), 0.9);
    EXPECT_NEAR(600.0 / (a.box[0] * a.box[1]), 0.6, 1e-12);
    for (size_t i = 0; i < a.x.size(); ++i) {
        EXPECT_TRUE(a.x[i] >= 0.0 && a.x[i] < a.box[0]);
        EXPECT_TRUE(a.y[i] >= 0.0 && a.y[i] < a.box[1]);
    }
    Positions2D b = make_positions(s);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.y, b.y);
    s.seed = 8;
    EXPECT_NE(make_positions(s).x, a.x);
    // In a wall box the spacing is measured without periodic images.
    s.periodic = false;
    s.box_scale = 2.0;
    Positions2D w = make_positions(s);
    EXPECT_GE(min_distance(w, false), 0.9);
    auto [xmin, xmax] = std::minmax_element(w.x.begin(), w.x.end());
    EXPECT_GE(*xmin, 0.25 * w.box[0]);
    EXPECT_LE(*xmax, 0.75 * w.box[0]);
}

TEST(Random, StandardDefinedStream) {
    // mt19937_64's first output for the default seed is fixed by the C++ standard; uniform01 is
    // its top 53 bits, so the value is the same with every standard library.
    std::mt19937_64 rng;
    EXPECT_EQ(uniform01(rng), double(14514284786278117030ull >> 11) * 0x1.0p-53);
    for (int i = 0; i < 1000; ++i) {
        double u = uniform01(rng);
        ASSERT_TRUE(u >= 0.0 && u < 1.0);
    }
}

TEST(Velocities, ZeroMomentumAndExactTemperature) {
    const int64_t n = 1000, dof = 2 * n - 2;
    const double T = 1.3, m = 2.0;
    auto v = make_velocities(2, n, T, m, dof, 42);
    ASSERT_EQ(v.size(), 2u);
    double px = 0, py = 0, mv2 = 0, m4 = 0;
    for (int64_t i = 0; i < n; ++i) {
        px += m * v[0][size_t(i)];
        py += m * v[1][size_t(i)];
        mv2 += m * (v[0][size_t(i)] * v[0][size_t(i)] + v[1][size_t(i)] * v[1][size_t(i)]);
        m4 += std::pow(v[0][size_t(i)], 4);
    }
    EXPECT_NEAR(px, 0.0, 1e-11);
    EXPECT_NEAR(py, 0.0, 1e-11);
    EXPECT_NEAR(mv2 / double(dof), T, 1e-13); // 2 KE / dof
    // Gaussian: <v^4> = 3 <v^2>^2 (loosely; 1000 samples).
    double var = T / m;
    EXPECT_NEAR(m4 / double(n) / (3 * var * var), 1.0, 0.2);
    EXPECT_EQ(make_velocities(2, n, T, m, dof, 42), v);
    EXPECT_NE(make_velocities(2, n, T, m, dof, 43), v);
}

TEST(Velocities, ZeroTemperatureIsAtRest) {
    auto v = make_velocities(3, 10, 0.0, 1.0, 27, 1);
    ASSERT_EQ(v.size(), 3u);
    for (const auto &c : v)
        for (double x : c)
            EXPECT_EQ(x, 0.0);
}

} // namespace
