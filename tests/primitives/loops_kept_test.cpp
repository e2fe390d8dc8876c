// A loop without side effects means what it says (docs/LANGUAGE.md, "Floating point": loops are
// kept): `while k > 0.0: k = k * 1.0` spins for ever where k > 0, as in CPython, instead of
// being deleted by C++'s forward-progress rule (GCC's -ffinite-loops at -O2; without
// -fno-finite-loops this test fails: the kernel returns at once). The spinning run
// happens in a child process under `timeout`, so the test cannot hang.
#include "primitive_test_util.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace smelt {
namespace {

using namespace testing_util;

// What out[0] holds after spinning on x = value (1.0 once the loop is left).
double run_spin(double value) {
    Elementwise spin(kernels(), "spin_while_positive", test_options());
    Array x = full(4, value, DType::Float64, &test_device());
    Array out = zeros(4, DType::Float64, &test_device());
    std::printf("launching\n");
    std::fflush(stdout);
    spin({x, out});
    const double got = out.to_vector<double>()[0];
    std::printf("returned %g\n", got);
    std::fflush(stdout);
    return got;
}

// Run only as the child of the test below (it spins for ever).
TEST(LoopsKept, DISABLED_SpinChild) {
    run_spin(1.0);
}

TEST(LoopsKept, ASideEffectFreeLoopRunsAsWritten) {
    // Where the condition is false the loop is left at once; this also compiles the kernel, so
    // the child finds it in the disk cache and starts spinning within the time limit.
    EXPECT_EQ(run_spin(-1.0), 1.0);
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    ProcessResult r =
        run_process({"timeout", "4", self, "--gtest_filter=LoopsKept.DISABLED_SpinChild",
                     "--gtest_also_run_disabled_tests"});
    ASSERT_TRUE(r.started) << r.output;
    EXPECT_NE(r.output.find("launching"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("returned"), std::string::npos)
        << "the loop was deleted: the kernel returned at once\n"
        << r.output;
    EXPECT_EQ(r.exit_status, 124) << r.output; // killed by timeout: it was still spinning
}

} // namespace
} // namespace smelt
