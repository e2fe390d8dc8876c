// apps/md2d/physics.py run by CPython on NumPy arrays (the kernel language's reference meaning),
// checked against independent oracles in tests/apps/md2d_physics_check.py: one gtest per check.
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

namespace {

using smelt::apps::test_util::run_process;
using smelt::apps::test_util::shell_quote;

class Md2dPhysics : public ::testing::TestWithParam<const char *> {};

TEST_P(Md2dPhysics, CPythonCheck) {
    std::string script = std::string(SMELT_TEST_DATA_DIR) + "/apps/md2d_physics_check.py";
    auto r = run_process(smelt::testing_util::test_python() + " " + shell_quote(script) + " " +
                         GetParam());
    if (r.status != 0 && r.output.find("No module named 'numpy'") != std::string::npos)
        GTEST_SKIP() << "numpy is not installed for " << smelt::testing_util::test_python();
    EXPECT_EQ(r.status, 0) << r.output;
}

// kernel_language: physics.py uses only constructs of LANGUAGE.md, every parameter typed.
// min_image: minimum image, pair separation across the seam, wrap into [0, L).
// lattice_energy: square/triangular lattice energy and virial per particle = lattice sums.
// forces_fd: forces = -dU/dx by central differences (periodic, shifted, soft walls).
// neighbor_lists: binned and all-pairs CSR lists = NumPy's pair set; list forces = all pairs.
// newton: half lists hold each pair once; Newton's third law over them (per-chunk buffers) =
//   NumPy's all-pairs forces, energies, virials to 1e-12, in any chunk order.
// newton_joined_kicks_test: newton_sum_kick_kick_drift = newton_sum_2d_kick then kick_drift, bit
//   for bit, and its count of particles past the rebuild limit = NumPy's.
// integrator: energy and momentum conservation, time reversibility, wrapping, kick/drift.
// displacement, reductions: the rebuild criterion and the reduction maps.
INSTANTIATE_TEST_SUITE_P(Checks, Md2dPhysics,
                         ::testing::Values("kernel_language", "min_image", "lattice_energy",
                                           "forces_fd", "neighbor_lists", "newton",
                                           "newton_joined_kicks_test", "integrator", "displacement",
                                           "reductions"));

} // namespace
