// md3d through the engine (physics.py compiled and run by the primitives), against independent
// oracles: known and hand-summed lattice energies, finite differences of the engine's own energy,
// a brute-force C++ pair search, CPython running the same physics.py, and the conservation and
// equilibrium laws of the integrators.
#include "common/neighbor_list.h"
#include "common/thermo.h"
#include "md3d/simulation.h"
#include "md3d_test_util.h"
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace smelt::apps;
using namespace smelt::apps::md3d;
using namespace smelt::apps::test_util;

namespace {

const char *kQuiet = "output: {h5md: false, csv: false, progress: false, checkpoint: false}\n";

std::string boundary_list(int32_t mask) {
    std::string s = "[";
    for (int a = 0; a < 3; ++a)
        s += std::string(a ? ", " : "") + ((mask >> a) & 1 ? "periodic" : "walls");
    return s + "]";
}

// A two-type (Kob-Andersen) config of n particles in a cube of edge `edge` with the given
// boundaries; the lattice only fixes n and the box (tests replace the state). `extra` holds the
// integrator and neighbor sections when the defaults do not do.
std::string ka_config(int64_t n, double edge, int32_t mask,
                      const std::string &extra = "integrator: {dt: 0.005, steps: 10}\n") {
    std::ostringstream s;
    s << "system:\n  lattice: sc\n  n: " << n << "\n  lattice_constant: 0.5\n  box: [" << edge
      << ", " << edge << ", " << edge << "]\n  boundary: " << boundary_list(mask)
      << "\n  types: [A, B]\n  counts: [" << n - n / 2 << ", " << n / 2
      << "]\n  masses: [1.0, 1.7]\n  temperature: 0\n";
    if (mask != 7) s << "  walls: {stiffness: 50.0, range: 0.5}\n";
    s << "potential:\n  shift: true\n" << kKobAndersenPairs << extra << kQuiet;
    return s.str();
}

double total_pe(Simulation &sim) {
    return sim.observables().pe;
}

// ---- lattice energies ------------------------------------------------------------------------

double lj_u(double r2) {
    const double s6 = 1.0 / (r2 * r2 * r2);
    return 4.0 * (s6 * s6 - s6);
}
double lj_rf(double r2) { // r . F of one pair (sigma = epsilon = 1)
    const double s6 = 1.0 / (r2 * r2 * r2);
    return 24.0 * (2.0 * s6 * s6 - s6);
}

// Energy and virial per particle of a perfect cubic lattice (conventional cell of edge a, basis
// in units of a), summed by hand over the lattice vectors shorter than rc.
void lattice_sum(const std::vector<std::array<double, 3>> &basis, double a, double rc, double &u,
                 double &w) {
    u = w = 0.0;
    const int m = int(std::ceil(rc / a)) + 1;
    for (int i = -m; i <= m; ++i)
        for (int j = -m; j <= m; ++j)
            for (int k = -m; k <= m; ++k)
                for (const auto &b : basis) {
                    const double x = (i + b[0]) * a, y = (j + b[1]) * a, z = (k + b[2]) * a;
                    const double r2 = x * x + y * y + z * z;
                    if (r2 == 0.0 || r2 >= rc * rc) continue;
                    u += 0.5 * lj_u(r2);
                    w += 0.5 * lj_rf(r2);
                }
}

TEST(Md3dEngine, FccEnergiesEqualTheKnownValues) {
    // LAMMPS' in.lj state (rho 0.8442): U/N of the perfect fcc crystal, unshifted cutoff.
    for (auto [rc, expected] : {std::pair{2.5, -6.773368053}, std::pair{3.0, -6.936163098}}) {
        Md3dConfig c =
            md3d_config("system: {lattice: fcc, cells: [6, 6, 6], density: 0.8442, "
                        "temperature: 0}\npotential: {r_cut: " +
                        std::to_string(rc) + "}\nintegrator: {dt: 0.005, steps: 0}\n" + kQuiet);
        Simulation sim(c, md3d_physics());
        sim.set_initial_state();
        EXPECT_NEAR(sim.observables().pe / double(sim.n()), expected, 2e-9) << "r_cut " << rc;
    }
}

TEST(Md3dEngine, CubicLatticeEnergiesAndPressuresEqualHandSums) {
    const std::map<std::string, std::vector<std::array<double, 3>>> bases = {
        {"sc", {{0, 0, 0}}},
        {"bcc", {{0, 0, 0}, {0.5, 0.5, 0.5}}},
        {"fcc", {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}}}};
    const double a = 1.55, rc = 2.5;
    for (const auto &[kind, basis] : bases)
        for (bool shift : {false, true}) {
            Md3dConfig c = md3d_config("system: {lattice: " + kind +
                                       ", cells: [7, 7, 7], lattice_constant: 1.55, "
                                       "temperature: 0}\npotential: {r_cut: 2.5, shift: " +
                                       (shift ? "true" : "false") +
                                       "}\nintegrator: {dt: 0.005, steps: 0}\n" + kQuiet);
            Simulation sim(c, md3d_physics());
            sim.set_initial_state();
            double u, w;
            lattice_sum(basis, a, rc, u, w);
            if (shift) {
                // Every neighbour inside rc loses u(rc): count them.
                double count = 0;
                const int m = int(std::ceil(rc / a)) + 1;
                for (int i = -m; i <= m; ++i)
                    for (int j = -m; j <= m; ++j)
                        for (int k = -m; k <= m; ++k)
                            for (const auto &s : basis) {
                                const double x = (i + s[0]) * a, y = (j + s[1]) * a,
                                             z = (k + s[2]) * a, r2 = x * x + y * y + z * z;
                                if (r2 > 0.0 && r2 < rc * rc) ++count;
                            }
                u -= 0.5 * count * lj_u(rc * rc);
            }
            const Observables o = sim.observables();
            const double n = double(sim.n());
            EXPECT_NEAR(o.pe / n, u, 1e-12 * std::abs(u)) << kind << " shift " << shift;
            EXPECT_NEAR(o.virial / n, w, 1e-11 * std::abs(w)) << kind << " shift " << shift;
            EXPECT_EQ(o.ke, 0.0);
            for (int axis = 0; axis < 3; ++axis)
                for (double f : sim.host(sim.force(axis)))
                    ASSERT_LT(std::abs(f), 1e-10) << kind; // every site is a centre of symmetry
            EXPECT_NEAR(sim.thermo().pressure, o.virial / (3 * c.volume()), 1e-12);
        }
}

// ---- forces ----------------------------------------------------------------------------------

// Forces = -grad U by central differences of the engine's own total energy, for every boundary
// mode (periodic, walls, walls on z, walls on y) and both types (shifted Kob-Andersen pairs).
TEST(Md3dEngine, ForcesAreMinusTheGradientOfTheEnergy) {
    SerialCpu serial;
    const double edge = 9.0, h = 1e-5;
    for (int32_t mask : {7, 0, 3, 5}) {
        Md3dConfig c = md3d_config(ka_config(40, edge, mask));
        Simulation sim(c, md3d_physics());
        HostState s = random_state(40, {edge, edge, edge}, mask, 2, 0.95, 100 + uint64_t(mask));
        sim.set_state(s);
        std::array<std::vector<double>, 3> f;
        for (int a = 0; a < 3; ++a)
            f[size_t(a)] = sim.host(sim.force(a));
        int near_wall = 0;
        for (size_t i = 0; i < 40; ++i)
            for (size_t a = 0; a < 3; ++a) {
                const double x0 = s.position[a][i];
                if (!((mask >> a) & 1) && (x0 < 0.5 || x0 > edge - 0.5)) ++near_wall;
                HostState moved = s;
                moved.position[a][i] = x0 + h;
                sim.set_state(moved);
                const double up = total_pe(sim);
                moved.position[a][i] = x0 - h;
                sim.set_state(moved);
                const double down = total_pe(sim);
                const double fd = -(up - down) / (2 * h);
                EXPECT_NEAR(f[a][i], fd, 1e-6 + 1e-5 * std::abs(fd))
                    << "mask " << mask << " particle " << i << " axis " << a;
            }
        if (mask != 7) {
            EXPECT_GT(near_wall, 0) << "mask " << mask << ": no wall force tested";
        }
    }
}

// The binned list holds exactly the pairs a brute-force search finds, and binned lists,
// all-pairs lists and the all-pairs force kernel give the same forces bit for bit.
TEST(Md3dEngine, BinnedListEqualsAllPairsAndForcesAreBitIdentical) {
    SerialCpu serial;
    const double edge = 9.0;
    for (int32_t mask : {7, 0, 3, 6}) {
        HostState s = random_state(250, {edge, edge, edge}, mask, 2, 0.8, 7 + uint64_t(mask), -0.3);
        // Full lists (Newton off): the half list of the cpu backend has each pair once.
        Md3dConfig binned = md3d_config(ka_config(
            250, edge, mask, "integrator: {dt: 0.005, steps: 10}\nneighbor: {newton: false}\n"));
        Md3dConfig all = md3d_config(ka_config(
            250, edge, mask, "integrator: {dt: 0.005, steps: 10}\nneighbor: {mode: all_pairs}\n"));
        Simulation a(binned, md3d_physics()), b(all, md3d_physics());
        a.set_state(s);
        b.set_state(s);
        ASSERT_EQ(a.neighbors().spec().search, NeighborSearch::Binned);
        EXPECT_EQ(a.neighbors().spec().periodic_value(), mask);

        // The list against a brute-force search (pairs within r_list up to rounding).
        const double rl = binned.r_list();
        const auto start = a.neighbors().start().to_vector<int32_t>();
        const auto count = a.neighbors().count().to_vector<int32_t>();
        const auto idx = a.neighbors().indices().to_vector<int32_t>();
        size_t pairs = 0;
        for (size_t i = 0; i < 250; ++i) {
            std::set<int32_t> listed(idx.begin() + start[i], idx.begin() + start[i] + count[i]);
            EXPECT_EQ(listed.size(), size_t(count[i])) << "duplicates in the list of " << i;
            for (size_t j = 0; j < 250; ++j) {
                if (j == i) continue;
                double r2 = 0;
                for (size_t ax = 0; ax < 3; ++ax) {
                    double d = s.position[ax][i] - s.position[ax][j];
                    if ((mask >> ax) & 1) d -= edge * std::round(d / edge);
                    r2 += d * d;
                }
                const bool in = listed.count(int32_t(j)) != 0;
                if (r2 < rl * rl * (1 - 1e-12)) {
                    EXPECT_TRUE(in) << i << " misses " << j;
                }
                if (r2 > rl * rl * (1 + 1e-12)) {
                    EXPECT_FALSE(in) << i << " lists " << j;
                }
                pairs += in;
            }
        }
        EXPECT_GT(pairs, 1000u);

        // Forces: binned list == all-pairs list == the all-pairs kernel, bit for bit.
        for (int ax = 0; ax < 3; ++ax)
            EXPECT_EQ(a.host(a.force(ax)), b.host(b.force(ax))) << "mask " << mask;
        EXPECT_EQ(a.host(a.pe()), b.host(b.pe()));
        EXPECT_EQ(a.host(a.vir()), b.host(b.vir()));
        smelt::Elementwise all_pairs(md3d_physics(), "compute_forces_all_pairs");
        std::vector<double> eps, sig, rc2;
        for (const auto &p : binned.potential.pairs) {
            eps.push_back(p.epsilon);
            sig.push_back(p.sigma);
            rc2.push_back(p.r_cut * p.r_cut);
        }
        std::vector<double> eshift;
        for (const auto &p : binned.potential.pairs)
            eshift.push_back(lj_u(p.r_cut * p.r_cut / (p.sigma * p.sigma)) * p.epsilon);
        auto fx = smelt::zeros(250), fy = smelt::zeros(250), fz = smelt::zeros(250),
             pe = smelt::zeros(250), vir = smelt::zeros(250);
        // The shift values from the engine's own pair_shift_table (compared below).
        auto eshift_t = smelt::zeros(4);
        smelt::Elementwise table(md3d_physics(), "pair_shift_table");
        auto eps_t = smelt::Array::from_vector(eps), sig_t = smelt::Array::from_vector(sig),
             rc2_t = smelt::Array::from_vector(rc2);
        table({eps_t, sig_t, rc2_t, eshift_t, int32_t(1)});
        for (size_t k = 0; k < 4; ++k)
            EXPECT_NEAR(eshift_t.to_vector<double>()[k], eshift[k], 1e-15) << k;
        all_pairs({a.position(0), a.position(1), a.position(2), fx, fy, fz, pe, vir, int32_t(250),
                   edge, edge, edge, mask, a.species(), int32_t(2), eps_t, sig_t, rc2_t, eshift_t});
        if (mask != 7) {
            smelt::Elementwise walls(md3d_physics(), "apply_walls");
            walls({a.position(0), a.position(1), a.position(2), fx, fy, fz, pe, edge, edge, edge,
                   mask, 50.0, 0.5});
        }
        EXPECT_EQ(fx.to_vector<double>(), a.host(a.force(0))) << "mask " << mask;
        EXPECT_EQ(fy.to_vector<double>(), a.host(a.force(1))) << "mask " << mask;
        EXPECT_EQ(fz.to_vector<double>(), a.host(a.force(2))) << "mask " << mask;
        EXPECT_EQ(pe.to_vector<double>(), a.host(a.pe()));
    }
}

// The CPU form of the force loop (64 neighbours at a time, branch-free, vectorised) sums the
// same terms in the same order as the one-pair-at-a-time form the GPUs run: the same bits, on
// lists with skin pairs (skipped) and with walls (axes without minimum image). Split over 4 lanes
// (several GPU threads per particle) and added by sum_lanes, the same sums to rounding.
TEST(Md3dEngine, ChunkedForcesEqualThePairLoop) {
    const double edge = 9.0;
    for (int32_t mask : {7, 3}) {
        // 600 particles: rows of ~75 neighbours, so lists span three chunks of 32.
        HostState s =
            random_state(600, {edge, edge, edge}, mask, 2, 0.85, 3 + uint64_t(mask), -0.3);
        Md3dConfig c = md3d_config(ka_config(
            600, edge, mask, "integrator: {dt: 0.005, steps: 10}\nneighbor: {newton: false}\n"));
        Simulation sim(c, md3d_physics());
        sim.set_state(s);
        const NeighborList &nl = sim.neighbors();
        int32_t longest = 0;
        for (int32_t k : nl.count().to_vector<int32_t>())
            longest = std::max(longest, k);
        EXPECT_GT(longest, 64) << "no list spans three chunks";
        std::vector<double> eps, sig, rc2;
        for (const auto &p : c.potential.pairs) {
            eps.push_back(p.epsilon);
            sig.push_back(p.sigma);
            rc2.push_back(p.r_cut * p.r_cut);
        }
        auto eps_t = smelt::Array::from_vector(eps), sig_t = smelt::Array::from_vector(sig),
             rc2_t = smelt::Array::from_vector(rc2), eshift_t = smelt::zeros(4);
        smelt::Elementwise table(md3d_physics(), "pair_shift_table");
        table({eps_t, sig_t, rc2_t, eshift_t, int32_t(1)});
        std::vector<std::vector<double>> out[2];
        const char *kernels[2] = {"compute_forces", "compute_forces_chunked"};
        for (int f = 0; f < 2; ++f) {
            std::vector<smelt::Array> r;
            for (int k = 0; k < 5; ++k)
                r.push_back(smelt::zeros(600));
            std::vector<smelt::Arg> args =
                pair_force_args(sim, nl, r, edge, mask, {eps_t, sig_t, rc2_t, eshift_t});
            if (f == 0) { // one lane, with energies, no displacement test to skip for
                args.push_back(int32_t(1));
                args.push_back(int32_t(1));
                args.push_back(smelt::zeros(1, smelt::DType::Int32));
            }
            smelt::Elementwise forces(md3d_physics(), kernels[f]);
            forces(args);
            for (const auto &a : r)
                out[f].push_back(a.to_vector<double>());
        }
        for (int k = 0; k < 5; ++k)
            EXPECT_EQ(out[0][k], out[1][k]) << "mask " << mask << " output " << k;
    }
}

// Lanes (neighbor.lanes: several GPU threads per particle in the list build and the force
// loop): the same neighbours, split over the lanes, and the same forces to rounding as one lane,
// periodic and walled, two types. On OpenCL (PoCL in CI): lanes need a GPU-family backend.
TEST(OpenCLMd3dLanes, SplitRowsHoldTheSameNeighboursAndGiveTheSameForces) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    const double edge = 9.0;
    for (int32_t mask : {7, 3}) {
        HostState s =
            random_state(600, {edge, edge, edge}, mask, 2, 0.85, 5 + uint64_t(mask), -0.3);
        auto run = [&](int lanes, std::vector<std::set<int32_t>> *rows) {
            Md3dConfig c =
                md3d_config(ka_config(600, edge, mask,
                                      "integrator: {dt: 0.005, steps: 10}\nneighbor: {lanes: " +
                                          std::to_string(lanes) + "}\nbackend: opencl\n"));
            Simulation sim(c, md3d_physics());
            sim.set_state(s);
            const NeighborList &nl = sim.neighbors();
            EXPECT_EQ(nl.spec().lanes, lanes);
            const auto start = nl.start().to_vector<int32_t>(),
                       count = nl.count().to_vector<int32_t>(),
                       idx = nl.indices().to_vector<int32_t>();
            EXPECT_EQ(count.size(), size_t(600 * lanes));
            rows->assign(600, {});
            for (size_t i = 0; i < 600; ++i)
                for (int l = 0; l < lanes; ++l)
                    for (int32_t q = 0; q < count[i * size_t(lanes) + size_t(l)]; ++q)
                        EXPECT_TRUE((*rows)[i]
                                        .insert(idx[size_t(start[i]) +
                                                    size_t(l + lanes * q) * size_t(nl.stride())])
                                        .second)
                            << "a neighbour twice in row " << i;
            std::vector<std::vector<double>> f;
            for (int a = 0; a < 3; ++a)
                f.push_back(sim.host(sim.force(a)));
            f.push_back(sim.host(sim.pe()));
            return f;
        };
        std::vector<std::set<int32_t>> rows1, rows4;
        const auto f1 = run(1, &rows1), f4 = run(4, &rows4);
        EXPECT_EQ(rows1, rows4) << "mask " << mask;
        for (size_t k = 0; k < f1.size(); ++k) {
            double scale = 0.0;
            for (double v : f1[k])
                scale = std::max(scale, std::abs(v));
            for (size_t p = 0; p < f1[k].size(); ++p)
                EXPECT_NEAR(f4[k][p], f1[k][p], 1e-12 * scale)
                    << "mask " << mask << " output " << k << " particle " << p;
        }
    }
}

// The kernels' `periodic` argument: md2d's flag stays 1 / 0; the axis mask has bit a for a
// periodic axis a; a flag cannot describe a box periodic along some axes only.
TEST(Md3dEngine, NeighborListSpecPassesTheFlagOrTheAxisMask) {
    NeighborListSpec s;
    s.box = {10, 10, 10};
    s.r_list = 2.8;
    s.search = NeighborSearch::AllPairs;
    EXPECT_EQ(s.periodic_value(), 1);
    s.periodic = false;
    EXPECT_EQ(s.periodic_value(), 0);
    s.periodic_arg = NeighborListSpec::PeriodicArg::AxisMask;
    EXPECT_EQ(s.periodic_value(), 0);
    s.periodic = true;
    EXPECT_EQ(s.periodic_value(), 7);
    s.periodic_axes = {true, false, true};
    EXPECT_EQ(s.periodic_value(), 5);
    EXPECT_NO_THROW(NeighborList(md3d_physics(), {}, s, 10));
    s.periodic_arg = NeighborListSpec::PeriodicArg::Flag;
    EXPECT_THROW(NeighborList(md3d_physics(), {}, s, 10), std::invalid_argument);
    // Binned: a periodic axis needs 3 cells, a wall axis does not.
    s.periodic_arg = NeighborListSpec::PeriodicArg::AxisMask;
    s.search = NeighborSearch::Binned;
    s.cells = {3, 1, 3};
    s.cell_size = {10.0 / 3, 10.0, 10.0 / 3};
    EXPECT_NO_THROW(NeighborList(md3d_physics(), {}, s, 10));
    s.periodic_axes = {true, true, true};
    EXPECT_THROW(NeighborList(md3d_physics(), {}, s, 10), std::invalid_argument);
}

// Reordering by cell moves particles on the device, not the physics: a Langevin run of two
// types that reorders every 10 steps follows the run that never does to round-off (its force
// sums run in another order; the noise is keyed on particle ids), and host copies come back in
// id order.
TEST(Md3dEngine, ReorderingByCellKeepsTheTrajectory) {
    SerialCpu serial;
    const std::string yaml =
        "system: {lattice: fcc, cells: [5, 5, 3], density: 0.8, temperature: 1.0, seed: 11,\n"
        "  boundary: [periodic, periodic, walls], types: [A, B], counts: [240, 60],\n"
        "  masses: [1.0, 2.0]}\n"
        "potential:\n  shift: true\n  pairs:\n"
        "    - {types: [A, A], epsilon: 1.0, sigma: 1.0, r_cut: 2.5}\n"
        "    - {types: [A, B], epsilon: 1.5, sigma: 0.8, r_cut: 2.0}\n"
        "    - {types: [B, B], epsilon: 0.5, sigma: 0.88, r_cut: 2.2}\n"
        "integrator: {kind: langevin, kT: 1.2, gamma: 1.0, dt: 0.005, steps: 30, seed: 5}\n";
    Simulation kept(md3d_config(yaml + "neighbor: {sort_interval: 0}\n"), md3d_physics());
    Simulation sorted(md3d_config(yaml + "neighbor: {sort_interval: 10}\n"), md3d_physics());
    kept.set_initial_state();
    sorted.set_initial_state();
    for (int k = 0; k < 30; ++k) {
        kept.step();
        sorted.step();
    }
    const auto ids = sorted.ids().to_vector<int32_t>();
    EXPECT_FALSE(std::is_sorted(ids.begin(), ids.end())) << "the particles were not reordered";
    EXPECT_EQ(sorted.host_int(sorted.species()), kept.host_int(kept.species()));
    for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(sorted.host_int(sorted.image(a)), kept.host_int(kept.image(a))) << a;
        const auto x = sorted.host(sorted.position(a)), y = kept.host(kept.position(a));
        const auto v = sorted.host(sorted.velocity(a)), w = kept.host(kept.velocity(a));
        for (size_t i = 0; i < x.size(); ++i) {
            ASSERT_NEAR(x[i], y[i], 1e-9) << "axis " << a << " particle " << i;
            ASSERT_NEAR(v[i], w[i], 1e-8) << "axis " << a << " particle " << i;
        }
    }
    EXPECT_NEAR(sorted.thermo().etotal, kept.thermo().etotal, 1e-9 * 300);
}

// sort_neighbors puts every row in increasing order, against std::sort: rows that fit its
// private array (SORT_ROW = 256 in cells.py) and longer ones, which it sorts in place.
TEST(Md3dEngine, SortNeighborsOrdersShortAndLongRows) {
    const std::vector<int32_t> lengths = {0, 1, 2, 100, 255, 256, 257, 600, 3};
    std::vector<int32_t> start, count, idx;
    std::mt19937 rng(5);
    for (int32_t len : lengths) {
        start.push_back(int32_t(idx.size()));
        count.push_back(len);
        for (int32_t k = 0; k < len; ++k)
            idx.push_back(int32_t(rng() % 100000));
    }
    std::vector<int32_t> want = idx;
    for (size_t r = 0; r < lengths.size(); ++r)
        std::sort(want.begin() + start[r], want.begin() + start[r] + count[r]);
    smelt::Array S = smelt::Array::from_vector(start), C = smelt::Array::from_vector(count),
                 I = smelt::Array::from_vector(idx);
    smelt::Elementwise sort(md3d_physics(), "sort_neighbors");
    sort({S, C, I});
    EXPECT_EQ(I.to_vector<int32_t>(), want);
}

// ---- the kernels against CPython -------------------------------------------------------------

std::string json_array(const std::vector<double> &v) {
    std::string s = "[";
    char buf[40];
    for (size_t i = 0; i < v.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%s%.17g", i ? ", " : "", v[i]);
        s += buf;
    }
    return s + "]";
}

// The oracle's output: "<part>.<name> v0 v1 ..." per line (floats in hex).
std::map<std::string, std::vector<double>> read_oracle(const std::string &text) {
    std::map<std::string, std::vector<double>> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string name, w;
        words >> name;
        while (words >> w)
            out[name].push_back(std::strtod(w.c_str(), nullptr));
    }
    return out;
}

void expect_close(const std::vector<double> &engine, const std::vector<double> &python, double rel,
                  const std::string &what) {
    ASSERT_EQ(engine.size(), python.size()) << what;
    double scale = 0;
    for (double v : python)
        scale = std::max(scale, std::abs(v));
    for (size_t i = 0; i < engine.size(); ++i)
        ASSERT_NEAR(engine[i], python[i], rel * scale) << what << "[" << i << "]";
}

// Forces, one velocity-Verlet step and one BAOAB step of the engine equal CPython running the
// same physics.py (to rounding: the compiler may contract a*b+c), through periodic wraps (image
// counts exact) and walls.
TEST(Md3dEngine, KernelsEqualCPythonRunningPhysicsPy) {
    SerialCpu serial;
    const double edge = 6.0;
    for (int32_t mask : {7, 3}) {
        Md3dConfig langevin = md3d_config(
            ka_config(30, edge, mask,
                      "integrator: {kind: langevin, kT: 1.3, gamma: 2.0, dt: 0.005, steps: 1, "
                      "seed: 99}\nneighbor: {mode: all_pairs}\n"));
        Md3dConfig nve = langevin;
        nve.integrator.kind = IntegratorKind::Nve;
        HostState s =
            random_state(30, {edge, edge, edge}, mask, 2, 0.9, 5 + uint64_t(mask), 0.1, 1.5);
        // Particles about to cross the periodic seams (and one pushed by a wall).
        s.position[0][0] = 0.002;
        s.velocity[0][0] = -3.0;
        s.position[1][1] = edge - 0.003;
        s.velocity[1][1] = 3.0;
        s.position[2][2] = mask == 7 ? 0.001 : 0.3;
        s.velocity[2][2] = -2.0;
        s.step = 17;

        std::ostringstream in;
        in << "{\"x\": " << json_array(s.position[0]) << ", \"y\": " << json_array(s.position[1])
           << ", \"z\": " << json_array(s.position[2]) << ", \"vx\": " << json_array(s.velocity[0])
           << ", \"vy\": " << json_array(s.velocity[1]) << ", \"vz\": " << json_array(s.velocity[2])
           << ", \"typ\": [";
        for (size_t i = 0; i < s.species.size(); ++i)
            in << (i ? ", " : "") << s.species[i];
        in << "], \"box\": [6, 6, 6], \"periodic\": " << mask
           << ", \"eps\": [1, 1.5, 1.5, 0.5], \"sigma\": [1, 0.8, 0.8, 0.88], "
              "\"r_cut\": [2.5, 2.0, 2.0, 2.2], \"shift\": 1, \"mass\": [1.0, 1.7], "
              "\"walls\": [50.0, 0.5], \"dt\": 0.005, \"gamma\": 2.0, \"kT\": 1.3, "
              "\"seed\": 99, \"step\": 17}";
        const auto dir = fresh_temp_dir("md3d_oracle");
        const auto json = dir / "in.json";
        std::ofstream(json) << in.str();
        auto r = run_process(
            smelt::testing_util::test_python() + " " +
            shell_quote(std::string(SMELT_TEST_DATA_DIR) + "/apps/md3d_engine_oracle.py") + " " +
            shell_quote(json.string()) + " 2>/dev/null");
        std::filesystem::remove_all(dir);
        if (r.status != 0 && r.output.find("No module named 'numpy'") != std::string::npos)
            GTEST_SKIP() << "numpy is not installed for " << smelt::testing_util::test_python();
        ASSERT_EQ(r.status, 0) << r.output;
        auto py = read_oracle(r.output);
        const std::string m = "mask " + std::to_string(mask) + " ";

        Simulation sim(nve, md3d_physics());
        sim.set_state(s);
        const char *f_names[3] = {"forces.fx", "forces.fy", "forces.fz"};
        for (int a = 0; a < 3; ++a)
            expect_close(sim.host(sim.force(a)), py[f_names[a]], 1e-13, m + f_names[a]);
        expect_close(sim.host(sim.pe()), py["forces.pe"], 1e-13, m + "pe");
        expect_close(sim.host(sim.vir()), py["forces.vir"], 1e-13, m + "vir");

        const char *axes[3] = {"x", "y", "z"};
        for (auto *run : {&nve, &langevin}) {
            Simulation step(*run, md3d_physics());
            step.set_state(s);
            step.step();
            const std::string part = run == &nve ? "nve." : "langevin.";
            int wraps = 0;
            for (int a = 0; a < 3; ++a) {
                expect_close(step.host(step.position(a)), py[part + axes[a]], 1e-13,
                             m + part + axes[a]);
                expect_close(step.host(step.velocity(a)), py[part + "v" + axes[a]], 1e-12,
                             m + part + "v" + axes[a]);
                const auto img = step.host_int(step.image(a));
                const auto &want = py[part + "i" + axes[a]];
                ASSERT_EQ(img.size(), want.size());
                for (size_t i = 0; i < img.size(); ++i) {
                    EXPECT_EQ(double(img[i]), want[i]) << m << part << "i" << axes[a] << i;
                    wraps += img[i] != 0;
                }
            }
            EXPECT_GE(wraps, mask == 7 ? 3 : 2) << m << part << "no particle crossed a seam";
            if (run == &langevin) {
                EXPECT_NEAR(step.heat(), py["langevin.heat"][0],
                            1e-12 * std::abs(py["langevin.heat"][0]));
            }
        }
    }
}

// The displacement test read back while the force loop of the current list runs
// (neighbor.overlap_test, on GPU-family backends): the same rebuilds and the same bits as the
// test waited for before the loop, through rebuilds (where the early loop skips its work and
// runs again on the new list), with 2 lanes, NVE periodic and Langevin walled. On OpenCL (PoCL
// in CI).
TEST(OpenCLMd3dOverlapTest, SameRebuildsAndBitsAsTheWaitedTest) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    const double edge = 9.0;
    for (int32_t mask : {7, 3}) {
        HostState s =
            random_state(600, {edge, edge, edge}, mask, 2, 0.85, 21 + uint64_t(mask), 0.1, 1.0);
        const std::string integrator =
            mask == 7 ? "integrator: {dt: 0.005, steps: 40}\n"
                      : "integrator: {kind: langevin, dt: 0.005, steps: 40, kT: 1.5, gamma: 1.0}\n";
        auto run = [&](const std::string &overlap) {
            Md3dConfig c = md3d_config(
                ka_config(600, edge, mask,
                          integrator + "neighbor: {skin: 0.2, lanes: 2, overlap_test: " + overlap +
                              "}\nbackend: opencl\n"));
            EXPECT_TRUE(c.neighbor.overlap_test == (overlap == "auto"));
            Simulation sim(c, md3d_physics());
            sim.set_state(s);
            for (int k = 0; k < 40; ++k)
                sim.step();
            std::vector<std::vector<double>> out;
            for (int a = 0; a < 3; ++a) {
                out.push_back(sim.host(sim.position(a)));
                out.push_back(sim.host(sim.velocity(a)));
                out.push_back(sim.host(sim.force(a)));
            }
            out.push_back({double(sim.neighbors().builds()), sim.thermo().etotal});
            return out;
        };
        const auto waited = run("false"), overlapped = run("auto");
        EXPECT_GT(waited.back()[0], 3) << "the run should rebuild its list several times";
        ASSERT_EQ(waited.size(), overlapped.size());
        for (size_t k = 0; k < waited.size(); ++k)
            EXPECT_EQ(waited[k], overlapped[k]) << "mask " << mask << " output " << k;
    }
}

// Positions, velocities and forces of two runs, bit for bit.
void expect_same_bits(Simulation &a, Simulation &b) {
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(a.host(a.position(k)), b.host(b.position(k))) << "position " << k;
        EXPECT_EQ(a.host(a.velocity(k)), b.host(b.velocity(k))) << "velocity " << k;
        EXPECT_EQ(a.host(a.force(k)), b.host(b.force(k))) << "force " << k;
    }
}

// advance(k) on GPUs with lanes (NVE, no walls) joins each step's lanes' sums and closing
// half-kick with the next step's opening kick (sum_lanes_kick_kick_drift): the same rebuilds and
// bits as k calls of step(), through reorders by cell and list rebuilds. On OpenCL (PoCL in CI).
TEST(OpenCLMd3dJoinedKicks, AdvanceEqualsSingleSteps) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    const double edge = 9.0;
    HostState s = random_state(600, {edge, edge, edge}, 7, 2, 0.85, 33, 0.1, 1.0);
    Md3dConfig c = md3d_config(ka_config(600, edge, 7,
                                         "integrator: {dt: 0.005, steps: 39}\n"
                                         "neighbor: {skin: 0.2, lanes: 2, sort_interval: 7}\n"
                                         "backend: opencl\n"));
    Simulation joined(c, md3d_physics()), single(c, md3d_physics());
    joined.set_state(s);
    single.set_state(s);
    for (int k = 0; k < 3; ++k)
        joined.advance(13);
    for (int k = 0; k < 39; ++k)
        single.step();
    EXPECT_EQ(joined.step_index(), 39);
    EXPECT_GT(single.neighbors().builds(), 3);
    EXPECT_EQ(joined.neighbors().builds(), single.neighbors().builds());
    expect_same_bits(joined, single);
    EXPECT_EQ(joined.thermo().etotal, single.thermo().etotal);
}

// advance(k) on the cpu backend with half lists (NVE, no walls) joins each step's chunk sums and
// closing half-kick with the next step's opening kick and the list's displacement test
// (newton_sum_kick_kick_drift): the same rebuilds and bits as k calls of step(), on 2 threads
// over several chunks, through reorders by cell and list rebuilds, and through a stop request.
TEST(Md3dJoinedKicks, CpuNewtonAdvanceEqualsSingleSteps) {
    auto &cpu = dynamic_cast<smelt::cpu::CpuBackend &>(smelt::get_backend("cpu"));
    const int saved = cpu.num_threads();
    cpu.set_num_threads(2);
    const double edge = 15.2; // 3000 particles: 2 chunks, one per thread
    HostState s = random_state(3000, {edge, edge, edge}, 7, 2, 0.8, 35, 0.1, 1.0);
    Md3dConfig c = md3d_config(ka_config(3000, edge, 7,
                                         "integrator: {dt: 0.005, steps: 39}\n"
                                         "neighbor: {skin: 0.2, sort_interval: 7}\n"
                                         "backend: cpu\n"));
    Simulation joined(c, md3d_physics()), single(c, md3d_physics());
    EXPECT_TRUE(joined.neighbors().spec().half);
    EXPECT_TRUE(joined.joins_steps());
    joined.set_state(s);
    single.set_state(s);
    // A stop request after 5 steps ends advance() with the 5th step completed.
    int asked = 0;
    joined.advance(13, [&] { return ++asked == 5; });
    for (int k = 0; k < 5; ++k)
        single.step();
    EXPECT_EQ(joined.step_index(), 5);
    expect_same_bits(joined, single);
    for (int k = 0; k < 3; ++k)
        joined.advance(13);
    for (int k = 5; k < 44; ++k)
        single.step();
    cpu.set_num_threads(saved);
    EXPECT_EQ(joined.step_index(), 44);
    EXPECT_GT(single.neighbors().builds(), 3);
    EXPECT_EQ(joined.neighbors().builds(), single.neighbors().builds());
    expect_same_bits(joined, single);
    EXPECT_EQ(joined.thermo().etotal, single.thermo().etotal);
}

// ---- integrators -----------------------------------------------------------------------------

std::string tiny(const std::string &integrator, const std::string &extra = "") {
    return "system: {lattice: fcc, cells: [5, 5, 5], density: 0.8, temperature: 1.0, seed: 7}\n"
           "potential: {r_cut: 2.5, shift: true}\n" +
           integrator + extra + kQuiet;
}

TEST(Md3dEngine, NveConservesEnergyAndMomentum) {
    SerialCpu serial;
    Md3dConfig c = md3d_config(tiny("integrator: {dt: 0.004, steps: 300}\n"));
    Simulation sim(c, md3d_physics());
    sim.set_initial_state();
    ThermoSample t0 = sim.thermo();
    EXPECT_NEAR(t0.temperature, 1.0, 1e-12);
    const double scale = std::abs(t0.pe) + t0.ke;
    double worst = 0;
    for (int k = 0; k < 300; ++k) {
        sim.step();
        if (k % 10 == 9) {
            ThermoSample t = sim.thermo();
            worst = std::max(worst, std::abs(t.etotal - t0.etotal));
            for (double p : t.momentum)
                ASSERT_LT(std::abs(p), 1e-10);
            EXPECT_EQ(t.conserved, t.etotal); // no thermostat: no heat
        }
    }
    // The crystal melts (T drops as PE rises) while E stays within 2e-4 of its scale (velocity
    // Verlet's O(dt^2) fluctuation at dt = 0.004; a wrong force or a missed pair gives 1e-2).
    EXPECT_LT(worst / scale, 2e-4) << "energy drift " << worst;
    EXPECT_LT(sim.thermo().temperature, 0.9);
    EXPECT_GT(sim.neighbors().builds(), 2);
}

// Langevin drives the kinetic temperature to kT, for each type (masses 1 and 1.7), and
// E - heat stays flat.
TEST(Md3dEngine, LangevinReachesItsTemperature) {
    SerialCpu serial;
    Md3dConfig c = md3d_config(ka_config(256, 7.0, 7,
                                         "integrator: {kind: langevin, kT: 1.5, gamma: 4.0, "
                                         "dt: 0.004, steps: 800, seed: 2024}\n"
                                         "neighbor: {mode: all_pairs}\n"));
    Simulation sim(c, md3d_physics());
    HostState s = random_state(256, {7.0, 7.0, 7.0}, 7, 2, 0.85, 3, 0.0, 0.3);
    sim.set_state(s);
    const double c0 = sim.thermo().conserved;
    double t_sum = 0, t_type[2] = {0, 0};
    int samples = 0;
    const auto species = sim.host_int(sim.species());
    for (int k = 0; k < 800; ++k) {
        sim.step();
        if (k >= 300 && k % 5 == 0) {
            t_sum += sim.thermo().temperature;
            std::array<std::vector<double>, 3> v;
            for (int a = 0; a < 3; ++a)
                v[size_t(a)] = sim.host(sim.velocity(a));
            double mv2[2] = {0, 0};
            for (size_t i = 0; i < species.size(); ++i)
                for (size_t a = 0; a < 3; ++a)
                    mv2[species[i]] += c.system.masses[size_t(species[i])] * v[a][i] * v[a][i];
            t_type[0] += mv2[0] / (3.0 * 128);
            t_type[1] += mv2[1] / (3.0 * 128);
            ++samples;
        }
    }
    EXPECT_NEAR(t_sum / samples, 1.5, 0.06);
    EXPECT_NEAR(t_type[0] / samples, 1.5, 0.09);
    EXPECT_NEAR(t_type[1] / samples, 1.5, 0.09);
    const ThermoSample t = sim.thermo();
    EXPECT_GT(std::abs(t.heat), 10.0); // the bath exchanged energy with the system
    EXPECT_LT(std::abs(t.conserved - c0), 0.02 * (std::abs(t.pe) + t.ke));
}

// Bussi's rescaling drives the temperature to kT, keeps the momentum at 0 and E - heat flat.
TEST(Md3dEngine, BussiReachesItsTemperature) {
    SerialCpu serial;
    Md3dConfig c = md3d_config(tiny("integrator: {kind: bussi, kT: 1.5, tau: 0.05, dt: 0.004, "
                                    "steps: 600, seed: 11}\n"));
    c.system.temperature = 0.3;
    Simulation sim(c, md3d_physics());
    sim.set_initial_state();
    const double c0 = sim.thermo().conserved;
    double t_sum = 0, worst_drift = 0;
    int samples = 0;
    for (int k = 0; k < 600; ++k) {
        sim.step();
        if (k >= 200 && k % 5 == 0) {
            const ThermoSample t = sim.thermo();
            t_sum += t.temperature;
            ++samples;
            worst_drift = std::max(worst_drift, std::abs(t.conserved - c0));
            for (double p : t.momentum)
                ASSERT_LT(std::abs(p), 1e-9);
        }
    }
    EXPECT_NEAR(t_sum / samples, 1.5, 0.05);
    const ThermoSample t = sim.thermo();
    EXPECT_GT(t.heat, 100.0);
    EXPECT_LT(worst_drift, 1e-3 * (std::abs(t.pe) + t.ke));
}

// compile_kernels() runs every kernel of the step with dt = 0: the state is unchanged.
TEST(Md3dEngine, CompilingTheKernelsLeavesTheStateUnchanged) {
    SerialCpu serial;
    for (const char *integrator : {"integrator: {dt: 0.005, steps: 1}\n",
                                   "integrator: {kind: langevin, kT: 1, dt: 0.005, steps: 1}\n",
                                   "integrator: {kind: bussi, kT: 1, dt: 0.005, steps: 1}\n"}) {
        Md3dConfig c = md3d_config(tiny(integrator));
        Simulation sim(c, md3d_physics());
        sim.set_initial_state();
        Checkpoint before = sim.save();
        sim.compile_kernels();
        Checkpoint after = sim.save();
        EXPECT_TRUE(before.entries() == after.entries()) << integrator;
        EXPECT_EQ(sim.step_index(), 0);
    }
}

// The tail corrections are the README's constants, added to every PE and P sample.
TEST(Md3dEngine, TailCorrectionsAreAddedToEnergyAndPressure) {
    SerialCpu serial;
    const std::string base = "system: {lattice: fcc, cells: [5, 5, 5], density: 0.8, "
                             "temperature: 1.0}\nintegrator: {dt: 0.005, steps: 0}\n";
    Md3dConfig with = md3d_config(base + "potential: {r_cut: 2.5, tail: true}\n" + kQuiet);
    Md3dConfig without = md3d_config(base + "potential: {r_cut: 2.5}\n" + kQuiet);
    Simulation a(with, md3d_physics()), b(without, md3d_physics());
    a.set_initial_state();
    b.set_initial_state();
    const double rho = 0.8, x3 = 1.0 / 15.625;
    const double u_tail = 500 * 8.0 / 3.0 * M_PI * rho * (x3 * x3 * x3 / 3 - x3);
    const double p_tail = 16.0 / 3.0 * M_PI * rho * rho * (2 * x3 * x3 * x3 / 3 - x3);
    EXPECT_NEAR(a.thermo().pe - b.thermo().pe, u_tail, 1e-10);
    EXPECT_NEAR(a.thermo().pressure - b.thermo().pressure, p_tail, 1e-12);
    EXPECT_NEAR(a.tail().energy, u_tail, 1e-10);
}

} // namespace
