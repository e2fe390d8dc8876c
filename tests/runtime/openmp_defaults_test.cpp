// Passive OpenMP waiting by default in executables linked with the engine, seen from libgomp
// itself: with OMP_DISPLAY_ENV=verbose it prints, when it starts, the spin count it will use
// (0 for passive waiting, 300000 for its own default). Two paths: md2d loads libgomp at start
// (engine/support/openmp_defaults.cpp starts it again with the variable set); the axpb example
// loads it with its first kernel (the CPU backend sets the variable before, see
// support/openmp_wait_policy.h). The user's OMP_WAIT_POLICY or GOMP_SPINCOUNT always wins.
#include "runtime_test_util.h"
#include "support/process.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

using testing_util::ScopedEnv;

// What libgomp reports when it starts in `argv`, run with the given waiting variables.
std::string libgomp_settings(const std::vector<std::string> &argv, const std::string &cwd,
                             std::optional<std::string> policy, std::optional<std::string> spin) {
    ScopedEnv display("OMP_DISPLAY_ENV", "verbose");
    ScopedEnv p("OMP_WAIT_POLICY", std::move(policy));
    ScopedEnv s("GOMP_SPINCOUNT", std::move(spin));
    ProcessResult r = run_process(argv, cwd);
    EXPECT_TRUE(r.started) << r.output;
    EXPECT_NE(r.output.find("OPENMP DISPLAY ENVIRONMENT BEGIN"), std::string::npos)
        << "libgomp was not loaded:\n"
        << r.output;
    return r.output;
}

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

void check_program(const std::vector<std::string> &argv, const std::string &cwd = {}) {
    std::string fresh = libgomp_settings(argv, cwd, std::nullopt, std::nullopt);
    EXPECT_TRUE(has(fresh, "GOMP_SPINCOUNT = '0'")) << fresh;

    std::string active = libgomp_settings(argv, cwd, "active", std::nullopt);
    EXPECT_TRUE(has(active, "OMP_WAIT_POLICY = 'ACTIVE'")) << active;
    EXPECT_FALSE(has(active, "GOMP_SPINCOUNT = '0'")) << active;

    std::string spin = libgomp_settings(argv, cwd, std::nullopt, "1234");
    EXPECT_TRUE(has(spin, "GOMP_SPINCOUNT = '1234'")) << spin;
}

#ifdef SMELT_MD2D
TEST(OpenMPDefaults, AnAppThatLoadsLibgompAtStartWaitsPassively) {
    check_program({SMELT_MD2D, "--help"});
}
#endif

#ifdef SMELT_EXAMPLE_AXPB
TEST(OpenMPDefaults, AProgramThatLoadsLibgompWithItsFirstKernelWaitsPassively) {
    check_program({SMELT_EXAMPLE_AXPB}, SMELT_EXAMPLES_DIR);
}
#endif

} // namespace
} // namespace smelt
