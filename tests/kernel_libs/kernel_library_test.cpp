// Kernel libraries, run: kernels calling functions and constants imported from other kernel
// files, checked against the formulas written out in C++; requesting an imported function
// directly; and the disk cache seeing a change in an imported file.
#include "kernel_libs_util.h"
#include "primitives/primitive_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace smelt {
namespace {

using namespace testing_util;

double min_image(double dx, double L) {
    return dx - L * std::floor(dx / L + 0.5);
}

std::vector<double> positions(size_t n, double L) {
    std::vector<double> x(n);
    for (size_t k = 0; k < n; ++k)
        x[k] = -1.7 * L + 3.4 * L * double(k) / double(n - 1); // spans several images
    return x;
}

TEST(KernelLibrary, KernelsCallImportedHelpersAndConstants) {
    KernelTree t;
    t.write("box.py", box_py());
    Program p = Program::from_file(t.write("main.py", "from box import min_image\n"
                                                      "from box import pair_dist2 as d2, HALF\n"
                                                      "SCALE = 2.0\n"
                                                      "def sq(x):\n"
                                                      "    return x + x\n"
                                                      "def wrap(i, x, out, L):\n"
                                                      "    out[i] = min_image(x[i], L)\n"
                                                      "def mixed(i, x, y, out, L):\n"
                                                      "    out[i] = sq(x[i]) + d2(x, y, 0, i, L) "
                                                      "* HALF * SCALE\n"));
    const size_t n = 257;
    const double L = 1.5;
    std::vector<double> x = positions(n, L), y(n);
    for (size_t k = 0; k < n; ++k)
        y[k] = 0.3 * x[n - 1 - k];
    Array xa = to_device(x), ya = to_device(y), out = zeros(n, DType::Float64, &test_device());

    Elementwise(p, "wrap", test_options())({xa, out, L});
    std::vector<double> got = out.to_vector<double>();
    for (size_t k = 0; k < n; ++k)
        EXPECT_NEAR(got[k], min_image(x[k], L), 1e-12) << k;

    // main.py's sq doubles; box.py's sq (inside pair_dist2) squares.
    Elementwise mixed(p, "mixed", test_options());
    mixed({xa, ya, out, L});
    got = out.to_vector<double>();
    for (size_t k = 0; k < n; ++k) {
        double dx = min_image(x[k] - x[0], L), dy = min_image(y[k] - y[0], L);
        EXPECT_NEAR(got[k], 2 * x[k] + (dx * dx + dy * dy) * 0.5 * 2.0, 1e-12) << k;
    }
    // Two functions named sq, emitted under two C names.
    EXPECT_NE(mixed.source().find(" sq("), std::string::npos) << mixed.source();
    EXPECT_NE(mixed.source().find(" sq_v2("), std::string::npos) << mixed.source();
}

TEST(KernelLibrary, ImportedFunctionsCanBeRequestedUnderTheirAlias) {
    KernelTree t;
    t.write("lib/kern.py", "def scale(i, x, a):\n"
                           "    x[i] = x[i] * a\n"
                           "def energy(i, v):\n"
                           "    return 0.5 * v[i] * v[i]\n");
    ProgramOptions opts;
    opts.kernel_path = {t.path("lib")};
    Program p = Program::from_source(t.path("app/main.py"),
                                     "from kern import scale as scale_by, energy\n", opts);
    EXPECT_TRUE(p.has_function("scale_by"));
    EXPECT_FALSE(p.has_function("scale")); // not bound in main.py
    EXPECT_EQ(p.imported_files(), std::vector<std::string>{t.path("lib/kern.py")});
    std::vector<double> v = {1, -2, 3, 0.5};
    Array a = to_device(v);
    Elementwise(p, "scale_by", test_options())({a, 2.0});
    EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{2, -4, 6, 1}));
    Reduction e(&p, "a+b", "energy", DType::Float64, "0", test_options());
    EXPECT_DOUBLE_EQ(e({a}).as<double>(), 0.5 * (4 + 16 + 36 + 1));
    EXPECT_THROW(Elementwise(p, "scale", test_options()), UsageError);
}

TEST(KernelLibrary, ChangingAnImportedFileChangesTheCompiledKernel) {
    KernelTree t;
    const std::string main = t.write("main.py", "from lib import bump\n"
                                                "def k(i, x):\n"
                                                "    x[i] = bump(x[i])\n");
    auto run = [&] {
        Array a = to_device(std::vector<double>{1, 2, 3});
        Elementwise k(Program::from_file(main), "k", test_options());
        k({a});
        return std::make_pair(a.to_vector<double>(), k.source());
    };
    t.write("lib.py", "def bump(x):\n    return x + 1.0\n");
    auto [first, first_source] = run();
    EXPECT_EQ(first, (std::vector<double>{2, 3, 4}));
    // Same main.py, same paths: only the imported file differs. A cache key that missed it would
    // load the first binary (from memory or disk) and add 1 again.
    t.write("lib.py", "def bump(x):\n    return x + 10.0\n");
    auto [second, second_source] = run();
    EXPECT_EQ(second, (std::vector<double>{11, 12, 13}));
    EXPECT_NE(first_source, second_source);
}

TEST(KernelLibrary, MissingNameAndMissingModuleErrors) {
    KernelTree t;
    t.write("lib.py", "def bump(x):\n    return x + 1.0\n");
    EXPECT_THROW(Program::from_source(t.path("main.py"), "from lib import bunp\n"), CompileError);
    Program p = Program::from_source(t.path("main.py"), "from gone import bump\n"
                                                        "def k(i, x):\n"
                                                        "    x[i] = bump(x[i])\n");
    Elementwise k(p, "k", test_options());
    try {
        k({to_device(std::vector<double>{1})});
        FAIL() << "compiled";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find(t.path("main.py") + ":3:12: error: 'bump' is "
                                                                 "imported from 'gone' (line 1)"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace smelt
