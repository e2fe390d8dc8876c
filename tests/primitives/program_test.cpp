// Program: from text with a line offset, check(), and toolchain failures as BackendError.
#include "primitive_test_util.h"
#include "runtime/runtime_test_util.h"

#include <gtest/gtest.h>

#include <chrono>

namespace smelt {
namespace {

using namespace testing_util;

TEST(Program, FromSourceKeepsTheFileLineNumbers) {
    // As if taken from line 11 of lib.py (inspect.getsource): 10 lines before it.
    Program p = Program::from_source("lib.py", "def bump(i, x):\n    x[i] = x[i] + q\n", 10);
    EXPECT_EQ(p.name(), "lib.py");
    EXPECT_EQ(p.function_names(), std::vector<std::string>{"bump"});
    EXPECT_TRUE(p.has_function("bump"));
    Elementwise bump(p, "bump", test_options());
    try {
        bump({zeros(3, DType::Float64, &test_device())});
        FAIL();
    } catch (const CompileError &e) {
        ASSERT_EQ(e.diagnostics().size(), 1u);
        EXPECT_EQ(e.diagnostics()[0].loc.line, 12);
        EXPECT_NE(e.diagnostics()[0].rendered.find("lib.py:12:19: error"), std::string::npos)
            << e.diagnostics()[0].rendered;
    }
}

TEST(Program, CheckListsDiagnostics) {
    Program p = Program::from_source("c.py", "@annotate(x='doublep')\n"
                                             "def f(i, x):\n"
                                             "    x[i] = [1]\n"
                                             "\n"
                                             "@annotate(x='intp')\n"
                                             "def g(i, x):\n"
                                             "    x[i] = 1\n");
    auto all = p.check();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].loc.line, 3);
    EXPECT_TRUE(p.check({"g"}).empty());
    EXPECT_THROW(p.check({"h"}), UsageError);
    EXPECT_THROW(Program::from_file("/no/such/kernels.py"), UsageError);
}

TEST(Program, ToolchainFailureIsABackendError) {
    if (test_backend().rfind("cpu", 0) != 0) GTEST_SKIP() << "uses the CPU compiler";
    // A source no cache has seen, so the compiler must run, and a compiler that does not exist.
    const auto tag = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    Program p = Program::from_source("fresh.py", "# " + tag + "\ndef f(i, x):\n    x[i] = 1\n");
    Elementwise f(p, "f", test_options());
    ScopedEnv cxx("SMELT_CXX", "/nonexistent/c++");
    try {
        f({zeros(4, DType::Int32, &test_device())});
        FAIL();
    } catch (const BackendError &e) {
        EXPECT_FALSE(e.kept_source().empty());
        EXPECT_NE(std::string(e.what()).find("build of elementwise"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace smelt
