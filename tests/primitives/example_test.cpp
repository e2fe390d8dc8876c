// The README's example program runs and prints y = 2*sin(x) + 1 at both ends of [0, 1].
#include "support/process.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#ifdef SMELT_EXAMPLE_AXPB
namespace smelt {
namespace {

TEST(Example, AxpbRunsFromItsFolder) {
    ProcessResult r = run_process({SMELT_EXAMPLE_AXPB}, SMELT_EXAMPLES_DIR);
    ASSERT_EQ(r.exit_status, 0) << r.output;
    char want[128];
    std::snprintf(want, sizeof want, "y[0] = %.6f, y[n-1] = %.6f", 1.0, 2.0 * std::sin(1.0) + 1.0);
    EXPECT_NE(r.output.find(want), std::string::npos) << r.output << "\nwanted: " << want;
}

} // namespace
} // namespace smelt
#endif
