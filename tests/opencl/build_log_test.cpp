// map_log_locations: build-log locations that point at lines of the generated text become
// file.py:line through the text's own #line directives. The expected lines are counted by hand
// from the directives in each test.
#include <gtest/gtest.h>

#ifdef SMELT_HAVE_OPENCL

#include "backends/opencl/build_log.h"

namespace smelt {
namespace {

using opencl::map_log_locations;

// Line numbers of the generated text on the left.
const std::string kSource = "/* prelude */\n"              // 1
                            "int smelt_helper(int a);\n"   // 2
                            "#line 12 \"my_kernels.py\"\n" // 3: line 4 is my_kernels.py:12
                            "__kernel void broken(__global int *x) {\n" // 4 -> 12
                            "#line 14\n"                                // 5: file kept
                            "    x[0] = undefined_name;\n"              // 6 -> 14
                            "    x[1] = 2;\n"                           // 7 -> 15
                            "#line 3 \"dir \\\"q\\\"/other.py\"\n"      // 8: escaped quotes
                            "}\n"                                       // 9 -> other.py:3
                            "\n"                                        // 10 -> other.py:4
                            "#line 40 \"kernel.cl\"\n"                  // 11
                            "void wrapper(void) {}\n";                  // 12 -> kernel.cl:40

TEST(OpenCLBuildLog, NvidiaLocationsMapToThePyLine) {
    const std::string log = "<kernel>:6:12: error: use of undeclared identifier 'undefined_name'\n"
                            "    x[0] = undefined_name;\n"
                            "           ^\n"
                            "<kernel>:4:1: note: in kernel 'broken'\n"
                            "<kernel>:7:5: warning: unused\n"
                            "<kernel>:9:1: error: brace\n"
                            "<source>:10:2: error: at the blank line\n"
                            "  :12:7: warning: indented bare location\n"
                            "<kernel>:7: error: no column";
    const std::string want = "my_kernels.py:14:12: error: use of undeclared identifier "
                             "'undefined_name'\n"
                             "    x[0] = undefined_name;\n"
                             "           ^\n"
                             "my_kernels.py:12:1: note: in kernel 'broken'\n"
                             "my_kernels.py:15:5: warning: unused\n"
                             "dir \"q\"/other.py:3:1: error: brace\n"
                             "dir \"q\"/other.py:4:2: error: at the blank line\n"
                             "  kernel.cl:40:7: warning: indented bare location\n"
                             "my_kernels.py:15: error: no column";
    EXPECT_EQ(map_log_locations(log, kSource), want);
}

TEST(OpenCLBuildLog, MappedAndUnmappableLocationsStay) {
    // PoCL's log already names the .py; lines above the first directive have no .py line; a
    // colon-number inside a message is not a location.
    const std::string log = "my_kernels.py:14:12: error: use of undeclared identifier\n"
                            "<kernel>:2:5: error: in the prelude\n"
                            "note: value is 3:4:5 here\n"
                            "input.cl:6:1: error: another file name";
    EXPECT_EQ(map_log_locations(log, kSource), log);
    // No directives at all: nothing to map with.
    EXPECT_EQ(map_log_locations("<kernel>:1:1: error: x", "int x;\n"), "<kernel>:1:1: error: x");
}

} // namespace
} // namespace smelt

#endif
