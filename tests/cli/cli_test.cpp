// The `smelt check` and `smelt emit` commands, run as a process.
#include "kernel_libs/kernel_libs_util.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#ifdef SMELT_CLI
namespace smelt {
namespace {

const std::string kDir = std::string(SMELT_TEST_DATA_DIR) + "/cli/";

ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), SMELT_CLI);
    return run_process(args);
}

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

TEST(CliCheck, ReportsEveryMistakeAtItsLineAndColumn) {
    ProcessResult r = cli({"check", kDir + "mistakes.py"});
    EXPECT_EQ(r.exit_status, 1) << r.output;
    EXPECT_TRUE(has(r.output, "mistakes.py:6:12: error: name 'y' is not defined")) << r.output;
    EXPECT_TRUE(has(r.output, "mistakes.py:11:9: error: lists are not supported")) << r.output;
    EXPECT_TRUE(has(r.output, "mistakes.py:18:9: error: a double value cannot be stored in 'k'"))
        << r.output;
    EXPECT_TRUE(has(r.output, "3 errors")) << r.output;
    // With --func only the named function is checked.
    ProcessResult one = cli({"check", kDir + "mistakes.py", "--func", "list_literal"});
    EXPECT_EQ(one.exit_status, 1);
    EXPECT_TRUE(has(one.output, "mistakes.py:11:9:")) << one.output;
    EXPECT_FALSE(has(one.output, "mistakes.py:6:12:")) << one.output;
}

TEST(CliCheck, CleanFileExitsZero) {
    ProcessResult r = cli({"check", kDir + "clean.py"});
    EXPECT_EQ(r.exit_status, 0) << r.output;
    EXPECT_TRUE(has(r.output, "ok: 1 function checked")) << r.output;
    ProcessResult both = cli({"check", kDir + "clean.py", "--func", "axpb", "--func", "jit_only"});
    EXPECT_EQ(both.exit_status, 0) << both.output;
    EXPECT_TRUE(has(both.output, "ok: 2 functions checked")) << both.output;
}

// A flat chain of 10 000 terms used to crash `smelt check` and `smelt emit` (stack overflow);
// past the nesting limit it is one located error with the caret, and the process exits 1.
TEST(CliCheck, AChainPastTheNestingLimitIsOneLocatedError) {
    std::string chain = "x[i]";
    for (int k = 1; k < 10000; ++k)
        chain += " + x[i]";
    testing_util::KernelTree tree;
    const std::string path = tree.write(
        "chain.py",
        "@annotate(i='int', doublep='x, y')\ndef k(i, x, y):\n    y[i] = " + chain + "\n");
    for (const char *cmd : {"check", "emit"}) {
        std::vector<std::string> args = {cmd, path};
        if (std::string(cmd) == "emit") args.push_back("k");
        ProcessResult r = cli(args);
        EXPECT_EQ(r.exit_status, 1) << cmd << ": " << r.output.substr(0, 300);
        EXPECT_TRUE(has(r.output, "chain.py:3:")) << r.output.substr(0, 300);
        EXPECT_TRUE(has(r.output, ": error: expression is too deep: more than 1000 operations"))
            << r.output.substr(0, 300);
        EXPECT_TRUE(has(r.output, "\n    y[i] = x[i] + x[i]")) << "the source line";
        EXPECT_TRUE(has(r.output, "^")) << "the caret";
    }
}

TEST(CliEmit, PrintsTheFunctionAndTheElementwiseUnit) {
    ProcessResult r = cli({"emit", kDir + "clean.py", "axpb"});
    EXPECT_EQ(r.exit_status, 0) << r.output;
    EXPECT_TRUE(has(r.output, "SMELT_INLINE void axpb(int32_t i, double *x, double *y"))
        << r.output;
    EXPECT_TRUE(has(r.output, "#define SMELT_INLINE")) << "prelude first";

    ProcessResult single = cli({"emit", kDir + "clean.py", "axpb", "--precision", "single"});
    EXPECT_TRUE(has(single.output, "void axpb(int32_t i, float *x")) << single.output;
    EXPECT_TRUE(has(single.output, "sinf(x[i])")) << single.output;

    ProcessResult jit = cli({"emit", kDir + "clean.py", "jit_only", "--signature",
                             "x=floatp, c=float", "--primitive", "elementwise"});
    EXPECT_EQ(jit.exit_status, 0) << jit.output;
    EXPECT_TRUE(has(jit.output, "void jit_only(int64_t i, float *x, float c)")) << jit.output;
    EXPECT_TRUE(has(jit.output, "void smelt_entry(")) << jit.output;
    EXPECT_TRUE(
        has(jit.output, "#define SMELT_CALL(smelt_i) jit_only(smelt_i, smelt_p0, smelt_p1)"))
        << jit.output;
}

TEST(CliEmit, BadArgumentsAreUsageErrors) {
    ProcessResult no_func = cli({"emit", kDir + "clean.py"});
    EXPECT_NE(no_func.exit_status, 0);
    EXPECT_TRUE(has(no_func.output, "func is required")) << no_func.output;

    ProcessResult bad_type =
        cli({"emit", kDir + "clean.py", "jit_only", "--signature", "x=dooble"});
    EXPECT_EQ(bad_type.exit_status, 2) << bad_type.output;
    EXPECT_TRUE(has(bad_type.output, "'dooble' is not a kernel type")) << bad_type.output;

    ProcessResult bad_name = cli({"emit", kDir + "clean.py", "jit_only", "--signature", "q=int"});
    EXPECT_EQ(bad_name.exit_status, 2) << bad_name.output;
    EXPECT_TRUE(has(bad_name.output, "'q' is not a parameter of 'jit_only'")) << bad_name.output;

    ProcessResult untyped = cli({"emit", kDir + "clean.py", "jit_only"});
    EXPECT_EQ(untyped.exit_status, 1) << untyped.output;
    EXPECT_TRUE(
        has(untyped.output, "clean.py:10:17: error: parameter 'x' of 'jit_only' has no type"))
        << untyped.output;

    ProcessResult missing = cli({"check", kDir + "no_such_file.py"});
    EXPECT_EQ(missing.exit_status, 2) << missing.output;
    ProcessResult bad_precision = cli({"emit", kDir + "clean.py", "axpb", "--precision", "half"});
    EXPECT_NE(bad_precision.exit_status, 0);
    ProcessResult unknown_func = cli({"check", kDir + "clean.py", "--func", "nope"});
    EXPECT_EQ(unknown_func.exit_status, 2) << unknown_func.output;

    ProcessResult help = cli({"emit", "--help"});
    EXPECT_EQ(help.exit_status, 0);
    EXPECT_TRUE(has(help.output, "--signature")) << help.output;
    ProcessResult check_help = cli({"check", "--help"});
    EXPECT_TRUE(has(check_help.output, "--func")) << check_help.output;
}

TEST(CliKernelPath, CheckAndEmitFindImportedKernelFilesThroughPath) {
    testing_util::KernelTree t;
    const std::string lib = t.write("lib/box.py", testing_util::box_py());
    const std::string main = t.write("app/main.py", "from box import min_image\n"
                                                    "@annotate(x='doublep', L='double')\n"
                                                    "def wrap(i, x, L):\n"
                                                    "    x[i] = min_image(x[i], L)\n");
    testing_util::ScopedEnv no_env("SMELT_KERNEL_PATH", std::nullopt);
    // Without the library's directory the kernel's call is an error naming what was searched.
    ProcessResult lost = cli({"check", main});
    EXPECT_EQ(lost.exit_status, 1) << lost.output;
    EXPECT_TRUE(has(lost.output, main + ":4:12: error: 'min_image' is imported from 'box'"))
        << lost.output;
    EXPECT_TRUE(has(lost.output, "no box.py was found in " + t.path("app") + " (add"))
        << lost.output;

    ProcessResult found = cli({"check", main, "--path", "/no/such/dir", "--path", t.path("lib")});
    EXPECT_EQ(found.exit_status, 0) << found.output;
    EXPECT_TRUE(has(found.output, "ok: 1 function checked")) << found.output;
    {
        testing_util::ScopedEnv env("SMELT_KERNEL_PATH", t.path("lib"));
        EXPECT_EQ(cli({"check", main}).exit_status, 0);
    }

    ProcessResult emitted = cli({"emit", main, "wrap", "--path", t.path("lib")});
    EXPECT_EQ(emitted.exit_status, 0) << emitted.output;
    EXPECT_TRUE(has(emitted.output, "#line 8 \"" + lib + "\"\nSMELT_INLINE double min_image("))
        << emitted.output;
    EXPECT_TRUE(has(emitted.output, "#line 3 \"" + main + "\"\nSMELT_INLINE void wrap("))
        << emitted.output;

    // A misspelt import is reported at load time, at the name.
    const std::string typo = t.write("app/typo.py", "from box import min_imag\n");
    ProcessResult bad = cli({"check", typo, "--path", t.path("lib")});
    EXPECT_EQ(bad.exit_status, 1) << bad.output;
    EXPECT_TRUE(has(bad.output, typo + ":1:17: error: cannot import name 'min_imag' from 'box'"))
        << bad.output;
}

} // namespace
} // namespace smelt
#endif
