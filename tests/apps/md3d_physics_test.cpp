// apps/md3d/physics.py and the shared kernels it imports, run by CPython on NumPy arrays (the
// kernel language's reference meaning), checked against independent oracles in
// tests/apps/md3d_physics_check.py: one gtest per check.
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

namespace {

using smelt::apps::test_util::run_process;
using smelt::apps::test_util::shell_quote;

class Md3dPhysics : public ::testing::TestWithParam<const char *> {};

TEST_P(Md3dPhysics, CPythonCheck) {
    std::string script = std::string(SMELT_TEST_DATA_DIR) + "/apps/md3d_physics_check.py";
    auto r = run_process(smelt::testing_util::test_python() + " " + shell_quote(script) + " " +
                         GetParam());
    if (r.status != 0 && r.output.find("No module named 'numpy'") != std::string::npos)
        GTEST_SKIP() << "numpy is not installed for " << smelt::testing_util::test_python();
    EXPECT_EQ(r.status, 0) << r.output;
}

// The checks of md3d_physics_check.py (its docstrings say what each compares with what).
INSTANTIATE_TEST_SUITE_P(Checks, Md3dPhysics,
                         ::testing::Values("kernel_language", "rng_known_answers",
                                           "language_typing", "rng_statistics", "bussi", "tail",
                                           "box", "lattice_energy", "forces_fd", "momentum",
                                           "neighbor_lists", "newton", "half_list_cells",
                                           "half_size_cells", "nve", "langevin", "bussi_run",
                                           "reductions", "joined_kicks_test",
                                           "newton_joined_kicks_test", "mixed_forces"));

} // namespace
