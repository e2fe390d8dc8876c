// apps/vortex/physics.py run by CPython on NumPy arrays (the kernel language's reference meaning),
// checked against independent oracles in tests/apps/vortex_physics_check.py: one gtest per check.
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

namespace {

using smelt::apps::test_util::run_process;
using smelt::apps::test_util::shell_quote;

class VortexPhysics : public ::testing::TestWithParam<const char *> {};

TEST_P(VortexPhysics, CPythonCheck) {
    std::string script = std::string(SMELT_TEST_DATA_DIR) + "/apps/vortex_physics_check.py";
    auto r = run_process(smelt::testing_util::test_python() + " " + shell_quote(script) + " " +
                         GetParam());
    if (r.status != 0 && r.output.find("No module named") != std::string::npos)
        GTEST_SKIP() << "a module is missing for " << smelt::testing_util::test_python() << ":\n"
                     << r.output;
    EXPECT_EQ(r.status, 0) << r.output;
}

// The checks of apps/vortex/README.md ("Validation"): the kernel language; velocities against
// NumPy; the tiled kernel in emulated work-groups = the elementwise one bit for bit; the exact
// identities; periodic closed forms against image sums; H and its derivatives; E1; the Gaussian
// core; exact rotations and the integrators' orders; conservation; stage kernels; reduction maps;
// initial states (std::mt19937_64); the validation scripts on small CPython runs.
INSTANTIATE_TEST_SUITE_P(Checks, VortexPhysics,
                         ::testing::Values("kernel_language", "velocity_numpy", "tiled_kernel",
                                           "identities", "periodic_images", "hamiltonian", "exp1",
                                           "gaussian_core", "rotation_order", "conservation",
                                           "stage_kernels", "reductions", "initial_states",
                                           "validation_scripts"));

} // namespace
