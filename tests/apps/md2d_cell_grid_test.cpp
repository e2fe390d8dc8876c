// md2d's neighbor.cells_per_r_list: the binned search on cells of r_list / 2 (5 x 5 cells
// searched) holds exactly the pairs of a hand-written all-pairs loop in half and full lists,
// periodic and with walls (particles past them), the half lists packed with each entry's row,
// and the run follows the one on cells of r_list.
#include "md2d/simulation.h"
#include "md2d_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>

namespace smelt::apps {
namespace {

using namespace md2d;
using namespace test_util;

const char *kQuiet = "output: {h5md: false, csv: false, progress: false, checkpoint: false}\n";

// An nx x ny square lattice at density 0.7; `neighbor` is the config's neighbor section.
std::string lattice_config(int nx, int ny, bool periodic, const std::string &neighbor) {
    std::string s = "system:\n  lattice: square\n  cells: [" + std::to_string(nx) + ", " +
                    std::to_string(ny) + "]\n  density: 0.7\n  temperature: 1.0\n  seed: 9\n";
    if (!periodic)
        s += "  boundary: walls\n  box_scale: 1.0\n  walls: {stiffness: 50.0, range: 0.5}\n";
    return s + "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 100}\n" +
           "neighbor: " + neighbor + "\n" + kQuiet;
}

using PairSet = std::set<std::pair<int32_t, int32_t>>;

PairSet listed(const NeighborList &list, size_t &entries) {
    const auto start = list.start().to_vector<int32_t>();
    const auto count = list.count().to_vector<int32_t>();
    const auto idx = list.indices().to_vector<int32_t>();
    PairSet out;
    entries = 0;
    for (size_t i = 0; i < start.size(); ++i)
        for (int32_t k = 0; k < count[i]; ++k) {
            const int32_t j = idx[size_t(start[i] + k * list.stride())];
            out.insert({std::min(int32_t(i), j), std::max(int32_t(i), j)});
            ++entries;
        }
    return out;
}

TEST(Md2dCellGrid, HalfSizeCellsFindEveryPair) {
    SerialCpu serial;
    for (bool periodic : {true, false})
        for (const char *newton : {"true", "false"}) {
            SCOPED_TRACE(std::string(periodic ? "periodic" : "walls") + ", newton " + newton);
            const Md2dConfig c = md2d_config(lattice_config(
                40, 36, periodic, std::string("{cells_per_r_list: 2, newton: ") + newton + "}"));
            // Uniform positions (some past the walls), in no particular order.
            const auto box = c.box();
            std::mt19937_64 rng(periodic ? 21 : 22);
            std::uniform_real_distribution<double> u(0.0, 1.0);
            const double out = periodic ? 0.0 : 0.3;
            std::vector<double> x(size_t(c.n())), y(size_t(c.n()));
            for (size_t i = 0; i < x.size(); ++i) {
                x[i] = -out + (box[0] + 2 * out) * u(rng);
                y[i] = -out + (box[1] + 2 * out) * u(rng);
            }
            Simulation sim(c, md2d_physics());
            const std::vector<double> v(x.size(), 0.0);
            sim.set_state(x, y, v, v);
            const NeighborListSpec &spec = sim.neighbors().spec();
            ASSERT_EQ(spec.cell_reach(0), 2);
            ASSERT_EQ(spec.cell_reach(1), 2);
            PairSet want;
            const double rl2 = spec.r_list * spec.r_list;
            for (size_t i = 0; i < x.size(); ++i)
                for (size_t j = i + 1; j < x.size(); ++j) {
                    double dx = x[i] - x[j], dy = y[i] - y[j];
                    if (periodic) {
                        dx -= box[0] * std::round(dx / box[0]);
                        dy -= box[1] * std::round(dy / box[1]);
                    }
                    if (dx * dx + dy * dy < rl2) want.insert({int32_t(i), int32_t(j)});
                }
            size_t entries = 0;
            EXPECT_EQ(listed(sim.neighbors(), entries), want);
            EXPECT_EQ(entries, (std::string(newton) == "true" ? 1 : 2) * want.size());
            EXPECT_GT(want.size(), size_t(5 * c.n()));
            // Half lists are packed (NeighborListSpec::packed): rows back to back (CSR) and
            // each entry's row.
            const NeighborList &nl = sim.neighbors();
            ASSERT_EQ(spec.packed, std::string(newton) == "true");
            if (spec.packed) {
                const auto start = nl.start().to_vector<int32_t>();
                const auto count = nl.count().to_vector<int32_t>();
                const auto rows = nl.entry_rows().to_vector<int32_t>();
                ASSERT_EQ(nl.total(), int64_t(entries));
                int32_t next = 0;
                for (size_t i = 0; i < start.size(); ++i) {
                    ASSERT_EQ(start[i], next) << "row " << i;
                    for (int32_t k = 0; k < count[i]; ++k)
                        ASSERT_EQ(rows[size_t(start[i] + k)], int32_t(i));
                    next += count[i];
                }
            } else {
                EXPECT_THROW((void)nl.entry_rows(), std::logic_error);
            }
        }
}

// 100 steps of a liquid with rebuilds on either grid: the same trajectory to round-off (the half
// lists' sums follow the cell visits, so the bits differ).
TEST(Md2dCellGrid, SameTrajectoryOnEitherGrid) {
    SerialCpu serial;
    auto run = [](const std::string &neighbor) {
        auto s = std::make_unique<Simulation>(md2d_config(lattice_config(40, 36, true, neighbor)),
                                              md2d_physics());
        s->set_initial_state();
        for (int k = 0; k < 100; ++k)
            s->step();
        return s;
    };
    auto a = run("{cells_per_r_list: 1}"), b = run("{cells_per_r_list: 2}");
    EXPECT_GT(a->neighbors().builds(), 3);
    bool differs = false;
    for (auto get : {&Simulation::x, &Simulation::y, &Simulation::vx, &Simulation::vy}) {
        const auto va = a->host((a.get()->*get)()), vb = b->host((b.get()->*get)());
        for (size_t i = 0; i < va.size(); ++i) {
            ASSERT_NEAR(va[i], vb[i], 1e-9) << "particle " << i;
            differs = differs || va[i] != vb[i];
        }
    }
    EXPECT_TRUE(differs) << "the same bits: did the grid change?";
}

} // namespace
} // namespace smelt::apps
