// ProgramOptions::constants: module constants set when a Program is made change what kernels
// compute (checked against the formulas with the new values), including a matrix extent and a
// constant imported from a kernel library; names that are not constants are UsageErrors.
#include "kernel_libs/kernel_libs_util.h"
#include "primitive_test_util.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

using namespace testing_util;

const char *kStencil = "N = 2\n"
                       "RC = 1.5\n"
                       "SHIFT = -1\n"
                       "def window(i, x, out):\n"
                       "    w = declare('matrix(N)')\n"
                       "    for k in range(N):\n"
                       "        w[k] = x[(i + k) % len_x]\n"
                       "    s = 0.0\n"
                       "    for k in range(N):\n"
                       "        s += w[k]\n"
                       "    out[i] = s * RC + SHIFT\n"
                       "len_x = 10\n";

std::vector<double> run_window(const Program &p) {
    std::vector<double> x(10);
    for (size_t k = 0; k < x.size(); ++k)
        x[k] = double(k * k);
    Array X = to_device(x), out = zeros(x.size(), DType::Float64, &test_device());
    Elementwise(p, "window", test_options())({X, out});
    return out.to_vector<double>();
}

std::vector<double> window_formula(int n, double rc, double shift) {
    std::vector<double> out(10);
    for (int i = 0; i < 10; ++i) {
        double s = 0;
        for (int k = 0; k < n; ++k)
            s += double(((i + k) % 10) * ((i + k) % 10));
        out[i] = s * rc + shift;
    }
    return out;
}

TEST(ProgramConstants, ValuesGivenAtCreationReplaceTheFilesOwn) {
    EXPECT_EQ(run_window(Program::from_source("stencil.py", kStencil)), window_formula(2, 1.5, -1));
    ProgramOptions opts;
    opts.constants = {{"N", 5}, {"RC", 0.25}, {"SHIFT", -3.5}};
    EXPECT_EQ(run_window(Program::from_source("stencil.py", kStencil, opts)),
              window_formula(5, 0.25, -3.5));
    // An int given for a float constant and a float for an int one: the value's own type, as
    // `RC = 2` would be in the file.
    opts.constants = {{"RC", 2}, {"SHIFT", 0.5}};
    EXPECT_EQ(run_window(Program::from_source("stencil.py", kStencil, opts)),
              window_formula(2, 2.0, 0.5));
}

TEST(ProgramConstants, AnImportedConstantIsSetInTheMainFileOnly) {
    KernelTree t;
    t.write("box.py", "L = 10.0\ndef lib_scale(x):\n    return x * L\n");
    ProgramOptions opts;
    opts.constants = {{"L", 2.0}};
    Program p = Program::from_file(t.write("main.py", "from box import L, lib_scale\n"
                                                      "def k(i, x, out):\n"
                                                      "    out[i] = x[i] * L + lib_scale(x[i])\n"),
                                   opts);
    Array X = to_device(std::vector<double>{1, 2, 3}),
          out = zeros(3, DType::Float64, &test_device());
    Elementwise(p, "k", test_options())({X, out});
    // main.py sees L = 2; box.py's lib_scale keeps its own L = 10, as in Python.
    EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{12, 24, 36}));
}

TEST(ProgramConstants, ANameThatIsNotAConstantIsAUsageError) {
    ProgramOptions opts;
    opts.constants = {{"NN", 3}};
    try {
        Program::from_source("stencil.py", kStencil, opts);
        FAIL() << "accepted";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("constant 'NN' is given a value, but it is not a "
                                             "module constant of stencil.py (its constants: "
                                             "'N', 'RC', 'SHIFT', 'len_x')"),
                  std::string::npos)
            << e.what();
    }
    opts.constants = {{"window", 1}};
    EXPECT_THROW(Program::from_source("stencil.py", kStencil, opts), UsageError);
}

} // namespace
} // namespace smelt
