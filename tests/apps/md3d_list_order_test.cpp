// neighbor.sorted_lists: lists in index order or in cell-visit order. Unsorted lists give the
// sorted run's trajectory to rounding and repeat themselves bit for bit; the config resolves
// `auto` by backend and list kind and rejects other values with the key's location.
#include "app_test_util.h"
#include "md3d/simulation.h"
#include "md3d_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace smelt::apps {
namespace {

using namespace md3d;
using namespace test_util;

const char *kLiquid =
    "system: {lattice: fcc, cells: [5, 5, 5], density: 0.8, temperature: 1.2, seed: 3}\n"
    "potential: {r_cut: 2.5, shift: true}\n"
    "integrator: {kind: nve, dt: 0.005, steps: 40}\n";

std::vector<std::vector<double>> positions(Simulation &s) {
    return {s.host(s.position(0)), s.host(s.position(1)), s.host(s.position(2))};
}

TEST(Md3dListOrder, UnsortedListsKeepTheTrajectoryAndRepeat) {
    SerialCpu serial;
    const std::string base = kLiquid;
    auto sorted = run_steps(base + "neighbor: {sorted_lists: true}\n", 40);
    auto cell = run_steps(base + "neighbor: {sorted_lists: false}\n", 40);
    auto again = run_steps(base + "neighbor: {sorted_lists: false}\n", 40);
    // The lists hold the same pairs in another order: the sums round differently.
    const auto a = positions(*sorted), b = positions(*cell), c = positions(*again);
    bool any_difference = false;
    for (int ax = 0; ax < 3; ++ax)
        for (size_t i = 0; i < a[ax].size(); ++i) {
            ASSERT_NEAR(a[ax][i], b[ax][i], 1e-9) << "axis " << ax << " particle " << i;
            any_difference = any_difference || a[ax][i] != b[ax][i];
        }
    EXPECT_TRUE(any_difference) << "sorting the lists changed nothing: was the option applied?";
    EXPECT_NEAR(sorted->thermo().etotal, cell->thermo().etotal,
                1e-10 * std::abs(sorted->thermo().etotal));
    // The cell-visit order is a function of positions and particle order: runs repeat exactly.
    EXPECT_EQ(b, c);
}

// auto: full lists on the cpu backend are sorted; half lists (Newton, the cpu default) and
// lists on GPUs are not.
TEST(Md3dListOrder, AutoSortsFullListsOnTheCpuOnlyAndOtherValuesAreErrors) {
    Md3dConfig c = md3d_config(kLiquid);
    EXPECT_FALSE(c.neighbor.sorted_lists.has_value());
    EXPECT_TRUE(c.neighbor.lists_sorted(true, false));
    EXPECT_FALSE(c.neighbor.lists_sorted(true, true));
    EXPECT_FALSE(c.neighbor.lists_sorted(false, false));
    EXPECT_TRUE(md3d_config(std::string(kLiquid) + "neighbor: {sorted_lists: true}\n")
                    .neighbor.lists_sorted(false, true));
    {
        Simulation half(c, md3d_physics());
        EXPECT_TRUE(half.neighbors().spec().half);
        EXPECT_FALSE(half.neighbors().spec().sorted);
        Simulation full(md3d_config(std::string(kLiquid) + "neighbor: {newton: false}\n"),
                        md3d_physics());
        EXPECT_FALSE(full.neighbors().spec().half);
        EXPECT_TRUE(full.neighbors().spec().sorted);
    }
    try {
        md3d_config(std::string(kLiquid) + "neighbor: {sorted_lists: sometimes}\n");
        FAIL() << "sorted_lists: sometimes was accepted";
    } catch (const std::exception &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("test.yaml:4:"), std::string::npos) << what;
        EXPECT_NE(what.find("sorted_lists"), std::string::npos) << what;
    }
}

} // namespace
} // namespace smelt::apps
