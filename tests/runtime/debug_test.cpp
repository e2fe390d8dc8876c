// SMELT_DEBUG output: log lines only at or above their level; dump frames a stage's text.
#include "support/debug.h"

#include <gtest/gtest.h>

#include <string>

namespace smelt {
namespace {

TEST(Debug, LogRespectsLevelAndDumpFramesText) {
    std::string out;
    debug::set_sink_for_testing([&](std::string_view s) { out += s; });
    debug::set_level_for_testing(1);
    EXPECT_EQ(debug::level(), 1);
    debug::log(1, "shown");
    debug::log(2, "hidden");
    debug::dump("ir", "x = 1");
    debug::set_level_for_testing(-1);
    debug::set_sink_for_testing({});
    EXPECT_EQ(out, "smelt: shown\n=== ir ===\nx = 1\n=== end ir ===\n");
}

} // namespace
} // namespace smelt
