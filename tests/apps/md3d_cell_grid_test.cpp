// neighbor.cells_per_r_list: the binned search on cells of r_list / 2 (5 x 5 x 5 cells searched)
// against a hand-written all-pairs loop (every pair within r_list, in half and full lists), the
// same trajectory as on cells of r_list (bit for bit with sorted full lists, to round-off with
// half lists, whose sums follow the cell visits), and the auto rule. Also rows for the first
// particles only (NeighborList::set_rows), against the same all-pairs loop.
#include "app_test_util.h"
#include "md3d/simulation.h"
#include "md3d_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <utility>

namespace smelt::apps {
namespace {

using namespace md3d;
using namespace test_util;

const char *kQuiet = "output: {h5md: false, csv: false, progress: false, checkpoint: false}\n";

// n particles in a cube of edge `edge` (walls on the axes whose bit of `mask` is clear), one
// type, r_cut 2.5, skin 0.3; `neighbor` is the config's neighbor section.
std::string config(int64_t n, double edge, int32_t mask, const std::string &neighbor) {
    std::ostringstream s;
    s << "system:\n  lattice: sc\n  n: " << n << "\n  lattice_constant: 0.5\n  box: [" << edge
      << ", " << edge << ", " << edge << "]\n  boundary: [";
    for (int a = 0; a < 3; ++a)
        s << (a ? ", " : "") << ((mask >> a) & 1 ? "periodic" : "walls");
    s << "]\n  temperature: 0\n";
    if (mask != 7) s << "  walls: {stiffness: 50.0, range: 0.5}\n";
    s << "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.004, steps: 10}\nneighbor: "
      << neighbor << "\n"
      << kQuiet;
    return s.str();
}

using PairSet = std::set<std::pair<int32_t, int32_t>>;

// The pairs (i < j) within r_list by a loop over all pairs, minimum image on periodic axes.
PairSet pairs_within(const HostState &s, double edge, int32_t mask, double r_list) {
    PairSet out;
    const size_t n = s.species.size();
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) {
            double r2 = 0.0;
            for (size_t a = 0; a < 3; ++a) {
                double d = s.position[a][i] - s.position[a][j];
                if ((mask >> a) & 1) d -= edge * std::round(d / edge);
                r2 += d * d;
            }
            if (r2 < r_list * r_list) out.insert({int32_t(i), int32_t(j)});
        }
    return out;
}

// The list's entries as pairs (i < j); `entries` counts them all (a full list has each twice).
PairSet listed(const NeighborList &list, size_t &entries) {
    const auto start = list.start().to_vector<int32_t>();
    const auto count = list.count().to_vector<int32_t>();
    const auto idx = list.indices().to_vector<int32_t>();
    PairSet out;
    entries = 0;
    for (size_t i = 0; i < start.size(); ++i)
        for (int32_t k = 0; k < count[i]; ++k) {
            const int32_t j = idx[size_t(start[i] + k)];
            out.insert({std::min(int32_t(i), j), std::max(int32_t(i), j)});
            ++entries;
        }
    return out;
}

// Cells of r_list / 2 in a periodic box, with walls on z and on every axis (particles pushed
// past the walls): half lists hold each pair within r_list once, full lists twice, and both
// hold exactly the pairs of the all-pairs loop.
TEST(Md3dCellGrid, HalfSizeCellsFindEveryPair) {
    SerialCpu serial;
    const double edge = 14.0;
    const int64_t n = 2000;
    for (int32_t mask : {7, 3, 0})
        for (const char *newton : {"true", "false"}) {
            SCOPED_TRACE("mask " + std::to_string(mask) + ", newton " + newton);
            const HostState s =
                random_state(n, {edge, edge, edge}, mask, 1, 0.8, 5 + uint64_t(mask), -0.3);
            Simulation sim(
                md3d_config(config(n, edge, mask,
                                   std::string("{cells_per_r_list: 2, newton: ") + newton + "}")),
                md3d_physics());
            sim.set_state(s);
            const NeighborListSpec &spec = sim.neighbors().spec();
            ASSERT_EQ(spec.cells, (std::vector<int>{10, 10, 10})); // floor(14 * 2 / 2.8)
            for (size_t a = 0; a < 3; ++a)
                ASSERT_EQ(spec.cell_reach(a), 2);
            const PairSet want = pairs_within(s, edge, mask, spec.r_list);
            size_t entries = 0;
            const PairSet got = listed(sim.neighbors(), entries);
            EXPECT_EQ(got, want);
            EXPECT_EQ(entries, (std::string(newton) == "true" ? 1 : 2) * want.size());
            EXPECT_GT(want.size(), size_t(10 * n));
        }
}

// The GPU form (fill_neighbors_capped_pairwise_small_cells, rows interleaved: entry k of row i
// at start[i] + k * n) on OpenCL (PoCL in CI): the pairs of the all-pairs loop, each twice.
TEST(OpenCLMd3dCellGrid, HalfSizeCellsFindEveryPair) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    const double edge = 14.0;
    const int64_t n = 2000;
    const int32_t mask = 3;
    const HostState s = random_state(n, {edge, edge, edge}, mask, 1, 0.8, 41, -0.3);
    Simulation sim(
        md3d_config("backend: opencl\n" + config(n, edge, mask, "{cells_per_r_list: 2, lanes: 1}")),
        md3d_physics());
    sim.set_state(s);
    const NeighborList &list = sim.neighbors();
    ASSERT_EQ(list.spec().cell_reach(0), 2);
    ASSERT_EQ(list.stride(), n);
    const auto start = list.start().to_vector<int32_t>();
    const auto count = list.count().to_vector<int32_t>();
    const auto idx = list.indices().to_vector<int32_t>();
    PairSet got;
    size_t entries = 0;
    for (size_t i = 0; i < start.size(); ++i)
        for (int32_t k = 0; k < count[i]; ++k) {
            const int32_t j = idx[size_t(start[i] + int64_t(k) * n)];
            got.insert({std::min(int32_t(i), j), std::max(int32_t(i), j)});
            ++entries;
        }
    const PairSet want = pairs_within(s, edge, mask, list.spec().r_list);
    EXPECT_EQ(got, want);
    EXPECT_EQ(entries, 2 * want.size());
}

// NeighborList::set_rows (a rank's owned particles; the ghosts are neighbours only): the first
// rows hold exactly the neighbours of the all-pairs loop, the rest are empty, on the CPU's
// chunked rows and on the GPU form (OpenCL, rows interleaved) where there is a device.
void rows_for_the_first_particles(const std::string &backend) {
    const double edge = 14.0;
    const int64_t n = 2000, rows = 700;
    const int32_t mask = 7;
    const HostState s = random_state(n, {edge, edge, edge}, mask, 1, 0.8, 17, -0.3);
    Simulation sim(md3d_config("backend: " + backend + "\n" +
                               config(n, edge, mask, "{newton: false, lanes: 1}")),
                   md3d_physics());
    smelt::Options options;
    options.backend = backend;
    NeighborList list(md3d_physics(), options, sim.neighbors().spec(), n);
    smelt::Backend &b = backend_of(options);
    std::vector<Array> x;
    for (size_t a = 0; a < 3; ++a)
        x.push_back(Array::from_vector(s.position[a], &b));
    // A build with every row first, so the rows left out must be cleared, not just unwritten.
    list.build(x);
    list.set_rows(rows);
    list.build(x);
    const auto start = list.start().to_vector<int32_t>();
    const auto count = list.count().to_vector<int32_t>();
    const auto idx = list.indices().to_vector<int32_t>();
    const int64_t stride = list.stride();
    std::vector<std::set<int32_t>> want(static_cast<size_t>(rows));
    for (const auto &[i, j] : pairs_within(s, edge, mask, list.spec().r_list)) {
        if (i < rows) want[size_t(i)].insert(j);
        if (j < rows) want[size_t(j)].insert(i);
    }
    for (size_t i = 0; i < size_t(n); ++i) {
        if (int64_t(i) >= rows) {
            ASSERT_EQ(count[i], 0) << "particle " << i;
            continue;
        }
        std::set<int32_t> got;
        for (int32_t k = 0; k < count[i]; ++k)
            got.insert(idx[size_t(start[i] + int64_t(k) * stride)]);
        ASSERT_EQ(got, want[i]) << "particle " << i;
        ASSERT_EQ(size_t(count[i]), want[i].size()) << "particle " << i;
    }
    EXPECT_THROW(list.set_rows(n + 1), std::invalid_argument);
    list.resize(n); // every row again
    list.build(x);
    EXPECT_GT(list.count().to_vector<int32_t>()[size_t(n - 1)], 0);
}

TEST(Md3dCellGrid, RowsForTheFirstParticlesOnly) {
    SerialCpu serial;
    rows_for_the_first_particles("cpu");
}

TEST(OpenCLMd3dCellGrid, RowsForTheFirstParticlesOnly) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    rows_for_the_first_particles("opencl");
}

const char *kLiquid =
    "system: {lattice: fcc, cells: [10, 10, 10], density: 0.8442, temperature: 1.44, seed: 5}\n"
    "potential: {r_cut: 2.5}\n"
    "integrator: {kind: nve, dt: 0.005, steps: 100}\n";

std::unique_ptr<Simulation> run(const std::string &neighbor, int steps) {
    return run_steps(std::string(kLiquid) + "neighbor: " + neighbor + "\n" + kQuiet, steps);
}

// LAMMPS' in.lj liquid, 4000 atoms, 100 NVE steps with rebuilds. Full lists sorted into index
// order sum every force in the same order on either grid: the same bits (without the reordering
// by cell, which follows the grid). Half lists, with the reordering, sum in cell-visit order, which
// the grid changes: the same trajectory to round-off, and different bits (the comparison can fail).
TEST(Md3dCellGrid, SameTrajectoryOnEitherGrid) {
    SerialCpu serial;
    const int steps = 100;
    {
        // No reordering by cell: the grid would give the particles another order.
        auto a = run("{newton: false, sorted_lists: true, sort_interval: 0, cells_per_r_list: 1}",
                     steps);
        auto b = run("{newton: false, sorted_lists: true, sort_interval: 0, cells_per_r_list: 2}",
                     steps);
        ASSERT_EQ(b->neighbors().spec().cell_reach(0), 2);
        EXPECT_GT(a->neighbors().builds(), 3);
        EXPECT_EQ(a->neighbors().builds(), b->neighbors().builds());
        EXPECT_EQ(state_of(*a), state_of(*b));
    }
    auto a = run("{newton: true, cells_per_r_list: 1}", steps);
    auto b = run("{newton: true, cells_per_r_list: 2}", steps);
    const auto sa = state_of(*a), sb = state_of(*b);
    bool differs = false;
    for (size_t k = 0; k < sa.size(); ++k)
        for (size_t i = 0; i < sa[k].size(); ++i) {
            ASSERT_NEAR(sa[k][i], sb[k][i], 1e-9) << "column " << k << " particle " << i;
            differs = differs || sa[k][i] != sb[k][i];
        }
    EXPECT_TRUE(differs) << "the same bits: did the grid change?";
    EXPECT_NEAR(a->thermo().etotal, b->thermo().etotal, 1e-10 * std::abs(a->thermo().etotal));
}

// auto: cells of r_list on every backend (cells of r_list / 2 made the cpu backend's half-list
// build slower); 2 gives cells of r_list / 2, at least 5 on a periodic axis.
TEST(Md3dCellGrid, AutoKeepsCellsOfRList) {
    auto grid = [](const std::string &extra, const std::string &neighbor) {
        return cell_grid(
            md3d_config(std::string(kLiquid) + extra + "neighbor: " + neighbor + "\n" + kQuiet));
    };
    // Edge 16.796 (10 fcc cells at 0.8442), r_list 2.8: 5 cells of r_list, 11 of r_list / 2.
    for (const char *backend : {"", "backend: opencl\n"}) {
        SCOPED_TRACE(backend);
        for (const char *neighbor : {"{}", "{newton: false}", "{cells_per_r_list: auto}"}) {
            const CellGrid g = grid(backend, neighbor);
            EXPECT_EQ(g.per_r_list, 1);
            EXPECT_EQ(g.cells, (std::array<int, 3>{5, 5, 5}));
        }
        const CellGrid g = grid(backend, "{cells_per_r_list: 2}");
        EXPECT_EQ(g.per_r_list, 2);
        EXPECT_EQ(g.cells, (std::array<int, 3>{11, 11, 11}));
        EXPECT_DOUBLE_EQ(g.size[0], md3d_config(std::string(kLiquid) + kQuiet).system.box[0] / 11);
    }
    // 4 fcc cells at 0.8442 (edge 6.72) at r_list 2.3: 5 cells of r_list / 2 = 1.15, the fewest
    // a periodic axis takes (md3d_cells_per_r_list_too_few.yaml: 4 are refused).
    const CellGrid g = cell_grid(
        md3d_config("system: {lattice: fcc, cells: [4, 4, 4], density: 0.8442, temperature: 1.0}\n"
                    "potential: {r_cut: 2.0}\nintegrator: {dt: 0.005, steps: 1}\n"
                    "neighbor: {cells_per_r_list: 2}\n" +
                    std::string(kQuiet)));
    EXPECT_EQ(g.cells, (std::array<int, 3>{5, 5, 5}));
}

} // namespace
} // namespace smelt::apps
