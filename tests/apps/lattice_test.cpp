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

// The separation of particles i and j, minimum-imaged in `box` when periodic.
double distance(const Positions &p, size_t i, size_t j, bool periodic) {
    const bool three = !p.z.empty();
    double d[3] = {p.x[i] - p.x[j], p.y[i] - p.y[j], three ? p.z[i] - p.z[j] : 0.0};
    double r2 = 0.0;
    for (size_t a = 0; a < (three ? 3u : 2u); ++a) {
        if (periodic) d[a] -= p.box[a] * std::round(d[a] / p.box[a]);
        r2 += d[a] * d[a];
    }
    return std::sqrt(r2);
}

// Smallest pair distance (brute force).
double min_distance(const Positions &p, bool periodic) {
    double best = INFINITY;
    for (size_t i = 0; i < p.x.size(); ++i)
        for (size_t j = i + 1; j < p.x.size(); ++j)
            best = std::min(best, distance(p, i, j, periodic));
    return best;
}

// Number of neighbours of particle i at distance d (to 1e-9), minimum-imaged.
int neighbours_at(const Positions &p, size_t i, double d) {
    int count = 0;
    for (size_t j = 0; j < p.x.size(); ++j)
        if (j != i && std::abs(distance(p, i, j, true) - d) < 1e-9) ++count;
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
    Positions pos = make_positions(s);
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
    Positions pos = make_positions(s);
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
    Positions pos = make_positions(s);
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
    Positions pos = make_positions(s);
    EXPECT_DOUBLE_EQ(pos.box[0], 45.0);
    auto [xmin, xmax] = std::minmax_element(pos.x.begin(), pos.x.end());
    EXPECT_DOUBLE_EQ(*xmin, 15.0 + 0.75);
    EXPECT_DOUBLE_EQ(*xmax, 30.0 - 0.75);
}

TEST(Lattice, ExplicitBoxMustHoldTheLattice) {
    LatticeSpec s;
    s.nx = s.ny = 10;
    s.spacing = 1.0;
    s.box = std::vector<double>{9.5, 20.0};
    try {
        plan_lattice(s);
        FAIL();
    } catch (const LatticeError &e) {
        EXPECT_EQ(e.key(), "box");
    }
    s.box = std::vector<double>{10.0, 20.0};
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
    Positions a = make_positions(s);
    ASSERT_EQ(a.x.size(), 600u);
    EXPECT_GE(min_distance(a, true), 0.9);
    EXPECT_NEAR(600.0 / (a.box[0] * a.box[1]), 0.6, 1e-12);
    for (size_t i = 0; i < a.x.size(); ++i) {
        EXPECT_TRUE(a.x[i] >= 0.0 && a.x[i] < a.box[0]);
        EXPECT_TRUE(a.y[i] >= 0.0 && a.y[i] < a.box[1]);
    }
    Positions b = make_positions(s);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.y, b.y);
    s.seed = 8;
    EXPECT_NE(make_positions(s).x, a.x);
    // In a wall box the spacing is measured without periodic images.
    s.periodic = false;
    s.box_scale = 2.0;
    Positions w = make_positions(s);
    EXPECT_GE(min_distance(w, false), 0.9);
    auto [xmin, xmax] = std::minmax_element(w.x.begin(), w.x.end());
    EXPECT_GE(*xmin, 0.25 * w.box[0]);
    EXPECT_LE(*xmax, 0.75 * w.box[0]);
}

// ---- 3D ------------------------------------------------------------------------------------

LatticeSpec cubic(LatticeKind kind, std::array<int64_t, 3> cells, double spacing) {
    LatticeSpec s;
    s.dim = 3;
    s.kind = kind;
    s.nx = cells[0];
    s.ny = cells[1];
    s.nz = cells[2];
    s.spacing = spacing;
    return s;
}

void expect_site(const Positions &p, size_t i, double x, double y, double z) {
    EXPECT_DOUBLE_EQ(p.x[i], x) << "particle " << i;
    EXPECT_DOUBLE_EQ(p.y[i], y) << "particle " << i;
    EXPECT_DOUBLE_EQ(p.z[i], z) << "particle " << i;
}

TEST(Lattice3D, FccSitesTwelveNeighboursAndDensity) {
    // a = 2: the cubic cell's corner and face centres, shifted by a/4 so the pattern is centred.
    LatticeSpec s = cubic(LatticeKind::FaceCentredCubic, {3, 3, 3}, 2.0);
    LatticePlan plan = plan_lattice(s);
    EXPECT_EQ(plan.basis, 4);
    EXPECT_EQ(plan.n, 108);
    EXPECT_TRUE(plan.periodic_region);
    Positions p = make_positions(s);
    ASSERT_EQ(p.x.size(), 108u);
    ASSERT_EQ(p.z.size(), 108u);
    EXPECT_EQ(p.box, (std::array<double, 3>{6.0, 6.0, 6.0}));
    expect_site(p, 0, 0.5, 0.5, 0.5);
    expect_site(p, 1, 1.5, 1.5, 0.5);
    expect_site(p, 2, 1.5, 0.5, 1.5);
    expect_site(p, 3, 0.5, 1.5, 1.5);
    expect_site(p, 4, 2.5, 0.5, 0.5);  // cell (1, 0, 0)
    expect_site(p, 12, 0.5, 2.5, 0.5); // cell (0, 1, 0)
    expect_site(p, 36, 0.5, 0.5, 2.5); // cell (0, 0, 1)
    const double nn = 2.0 / std::sqrt(2.0);
    EXPECT_NEAR(min_distance(p, true), nn, 1e-12);
    for (size_t i = 0; i < p.x.size(); ++i) {
        ASSERT_EQ(neighbours_at(p, i, nn), 12) << i;
        ASSERT_EQ(neighbours_at(p, i, 2.0), 6) << i; // the second shell: a
    }
    EXPECT_DOUBLE_EQ(108.0 / (6.0 * 6.0 * 6.0), 4.0 / 8.0); // 4 / a^3

    LatticeSpec d = cubic(LatticeKind::FaceCentredCubic, {3, 3, 3}, 0.0);
    d.density = 0.8;
    LatticePlan q = plan_lattice(d);
    EXPECT_NEAR(q.spacing, std::cbrt(4.0 / 0.8), 1e-14);
    EXPECT_NEAR(108.0 / (q.box[0] * q.box[1] * q.box[2]), 0.8, 1e-12);
}

TEST(Lattice3D, BccAndScSitesAndNeighbours) {
    Positions bcc = make_positions(cubic(LatticeKind::BodyCentredCubic, {3, 3, 3}, 1.5));
    ASSERT_EQ(bcc.x.size(), 54u);
    expect_site(bcc, 0, 0.375, 0.375, 0.375);
    expect_site(bcc, 1, 1.125, 1.125, 1.125); // the body centre
    expect_site(bcc, 2, 1.875, 0.375, 0.375); // cell (1, 0, 0)
    const double nn = 1.5 * std::sqrt(3.0) / 2.0;
    EXPECT_NEAR(min_distance(bcc, true), nn, 1e-12);
    for (size_t i = 0; i < bcc.x.size(); ++i)
        ASSERT_EQ(neighbours_at(bcc, i, nn), 8) << i;
    EXPECT_NEAR(54.0 / std::pow(4.5, 3), 2.0 / std::pow(1.5, 3), 1e-15);
    EXPECT_EQ(bcc.box, (std::array<double, 3>{4.5, 4.5, 4.5}));

    Positions sc = make_positions(cubic(LatticeKind::SimpleCubic, {4, 3, 3}, 1.25));
    ASSERT_EQ(sc.x.size(), 36u);
    EXPECT_EQ(sc.box, (std::array<double, 3>{5.0, 3.75, 3.75}));
    expect_site(sc, 0, 0.625, 0.625, 0.625);
    expect_site(sc, 5, 1.875, 1.875, 0.625);  // cell (1, 1, 0)
    expect_site(sc, 35, 4.375, 3.125, 3.125); // cell (3, 2, 2)
    EXPECT_NEAR(min_distance(sc, true), 1.25, 1e-12);
    for (size_t i = 0; i < sc.x.size(); ++i)
        ASSERT_EQ(neighbours_at(sc, i, 1.25), 6) << i;
}

TEST(Lattice3D, CountFillsCellByCell) {
    LatticeSpec s;
    s.dim = 3;
    s.kind = LatticeKind::FaceCentredCubic;
    s.n = 100; // 25 cells: 3 x 3 x 3, the last layer partial
    s.density = 0.9;
    LatticePlan p = plan_lattice(s);
    EXPECT_EQ(p.n, 100);
    EXPECT_EQ(p.nx, 3);
    EXPECT_EQ(p.ny, 3);
    EXPECT_EQ(p.nz, 3);
    const double a = std::cbrt(4.0 / 0.9);
    EXPECT_NEAR(p.spacing, a, 1e-14);
    EXPECT_NEAR(p.box[2], 3 * a, 1e-12);
    Positions pos = make_positions(s);
    ASSERT_EQ(pos.x.size(), 100u);
    EXPECT_NEAR(min_distance(pos, true), a / std::sqrt(2.0), 1e-12);
    // Full layers come first: the 19th cell's first site is in layer 2 (cells 18..26).
    EXPECT_NEAR(pos.z[4 * 18], (2 + 0.25) * a, 1e-12);
    EXPECT_LT(*std::max_element(pos.z.begin(), pos.z.end()), 3 * a);

    s.n = 64; // 16 cells: 3 x 3 x 2
    p = plan_lattice(s);
    EXPECT_EQ(p.nz, 2);
    EXPECT_EQ(make_positions(s).z.size(), 64u);
}

TEST(Lattice3D, RandomRespectsMinimumSpacingAndSeed) {
    LatticeSpec s;
    s.dim = 3;
    s.kind = LatticeKind::Random;
    s.n = 400;
    s.density = 0.5; // sphere volume fraction 0.5 pi 0.8^3 / 6 = 0.13
    s.min_spacing = 0.8;
    s.seed = 3;
    Positions a = make_positions(s);
    ASSERT_EQ(a.z.size(), 400u);
    EXPECT_GE(min_distance(a, true), 0.8);
    EXPECT_NEAR(400.0 / (a.box[0] * a.box[1] * a.box[2]), 0.5, 1e-12);
    for (size_t i = 0; i < a.x.size(); ++i)
        for (size_t d = 0; d < 3; ++d) {
            const double v = d == 0 ? a.x[i] : d == 1 ? a.y[i] : a.z[i];
            ASSERT_TRUE(v >= 0.0 && v < a.box[d]);
        }
    Positions b = make_positions(s);
    EXPECT_EQ(a.z, b.z);
    s.seed = 4;
    EXPECT_NE(make_positions(s).z, a.z);
    // Closed box: no periodic images, the region centred.
    s.periodic = false;
    s.box_scale = 2.0;
    Positions w = make_positions(s);
    EXPECT_GE(min_distance(w, false), 0.8);
    auto [zmin, zmax] = std::minmax_element(w.z.begin(), w.z.end());
    EXPECT_GE(*zmin, 0.25 * w.box[2]);
    EXPECT_LE(*zmax, 0.75 * w.box[2]);
    // Too dense for random placement: 1.2 pi 0.9^3 / 6 = 0.46 > 0.3.
    s.density = 1.2;
    s.min_spacing = 0.9;
    try {
        plan_lattice(s);
        FAIL();
    } catch (const LatticeError &e) {
        EXPECT_EQ(e.key(), "min_spacing");
        EXPECT_NE(std::string(e.what()).find("spheres"), std::string::npos) << e.what();
    }
}

TEST(Lattice3D, DimensionAndBoxErrors) {
    auto key_of = [](const LatticeSpec &spec) {
        try {
            plan_lattice(spec);
        } catch (const LatticeError &e) {
            return e.key();
        }
        return std::string("none");
    };
    LatticeSpec s = cubic(LatticeKind::FaceCentredCubic, {2, 2, 2}, 1.0);
    EXPECT_EQ(key_of(s), "none");
    s.dim = 2;
    EXPECT_EQ(key_of(s), "lattice");
    s = cubic(LatticeKind::Square, {2, 2, 2}, 1.0);
    EXPECT_EQ(key_of(s), "lattice");
    s = cubic(LatticeKind::SimpleCubic, {2, 2, 0}, 1.0);
    EXPECT_EQ(key_of(s), "cells");
    s = cubic(LatticeKind::SimpleCubic, {2, 2, 2}, 1.0);
    s.box = std::vector<double>{4.0, 4.0};
    EXPECT_EQ(key_of(s), "box");
    s.box = std::vector<double>{4.0, 2.0, 1.5};
    EXPECT_EQ(key_of(s), "box"); // smaller than the 2 x 2 x 2 region
    s.box = std::vector<double>{4.0, 2.0, 3.0};
    LatticePlan p = plan_lattice(s);
    EXPECT_EQ(p.origin, (std::array<double, 3>{1.0, 0.0, 0.5}));
    EXPECT_FALSE(p.periodic_region);
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
