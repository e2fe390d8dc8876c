// smelt::LoopFunction (loop-parallel functions, ParPy's model) against hand-written loops: ParPy's
// typical programs (tests/primitives/loop_kernels.py) on the test backend, and every rejection
// located in the .py with its message.
#include "ir/printer.h"
#include "primitive_test_util.h"
#include "primitives/loop_function/specialise.h"
#include "primitives/program_data.h"

#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/nvrtc_compiler.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace smelt {
namespace {

using namespace testing_util;

const Program &loop_kernels() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/loop_kernels.py");
    return p;
}

const Program &loop_kernels_2d() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/loop_kernels_2d.py");
    return p;
}

std::vector<double> values(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<double> v(n);
    for (auto &x : v)
        x = dist(gen);
    return v;
}

void expect_near_all(const std::vector<double> &got, const std::vector<double> &want, double tol) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t k = 0; k < got.size(); ++k)
        EXPECT_NEAR(got[k], want[k], tol * (1 + std::fabs(want[k]))) << "at " << k;
}

TEST(LoopFunction, AxpySliceStatement) {
    const size_t n = 1000;
    auto x = values(n, 1), y = values(n, 2);
    Array out = zeros(n, DType::Float64, &test_device());
    LoopFunction f(loop_kernels(), "axpy", {{"N", {}}}, test_options());
    f({2.5, to_device(x), to_device(y), out, int64_t(n)});
    std::vector<double> want(n);
    for (size_t k = 0; k < n; ++k)
        want[k] = 2.5 * x[k] + y[k];
    EXPECT_EQ(out.to_vector<double>(), want); // one rounding per operation, as in C
}

TEST(LoopFunction, RowSumsOuterParallelInnerReduce) {
    const int64_t rows = 37, cols = 300;
    auto x = values(size_t(rows * cols), 3);
    std::vector<double> want(rows, 0.0);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            want[i] += x[i * cols + j];
    for (const ParallelSpec &spec :
         {ParallelSpec{{"N", {}}, {"M", {128, true, 0}}}, ParallelSpec{{"N", {}}}}) {
        Array out = zeros(rows, DType::Float64, &test_device());
        LoopFunction f(loop_kernels(), "row_sums", spec, test_options());
        f({to_device(x), out, rows, cols});
        expect_near_all(out.to_vector<double>(), want, 1e-12);
    }
}

TEST(LoopFunction, SoftmaxPerRow) {
    const int64_t rows = 9, cols = 130;
    auto x = values(size_t(rows * cols), 4);
    std::vector<double> want(x.size());
    for (int64_t i = 0; i < rows; ++i) {
        double m = *std::max_element(x.begin() + i * cols, x.begin() + (i + 1) * cols), s = 0;
        for (int64_t j = 0; j < cols; ++j)
            s += std::exp(x[i * cols + j] - m);
        for (int64_t j = 0; j < cols; ++j)
            want[i * cols + j] = std::exp(x[i * cols + j] - m) / s;
    }
    Array out = zeros(x.size(), DType::Float64, &test_device());
    LoopFunction rowwise(loop_kernels(), "row_softmax", {{"N", {}}, {"M", {0, true, 64}}},
                         test_options());
    rowwise({to_device(x), out, rows, cols});
    expect_near_all(out.to_vector<double>(), want, 1e-12);
}

TEST(LoopFunction, SoftmaxWholeArray) {
    // One row, three top-level loops with sequential code between them.
    const size_t n = 5000;
    auto y = values(n, 5);
    double m = *std::max_element(y.begin(), y.end()), s = 0;
    for (double v : y)
        s += std::exp(v - m);
    std::vector<double> want1(n);
    for (size_t k = 0; k < n; ++k)
        want1[k] = std::exp(y[k] - m) / s;
    Array out1 = zeros(n, DType::Float64, &test_device());
    LoopFunction whole(loop_kernels(), "softmax", {{"R", {0, true, 0}}, {"N", {}}}, test_options());
    whole({to_device(y), out1, int64_t(n)});
    expect_near_all(out1.to_vector<double>(), want1, 1e-12);
}

TEST(LoopFunction, MatmulTwoNestedParallelLabels) {
    const int64_t N = 13, K = 17, M = 19;
    auto a = values(size_t(N * K), 6), b = values(size_t(K * M), 7);
    std::vector<double> want(size_t(N * M), 0.0);
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < M; ++j) {
            double s = 0.0;
            for (int64_t k = 0; k < K; ++k)
                s += a[i * K + k] * b[k * M + j];
            want[i * M + j] = s;
        }
    Array c = zeros(size_t(N * M), DType::Float64, &test_device());
    LoopFunction f(loop_kernels(), "matmul", {{"N", {}}, {"M", {}}}, test_options());
    f({to_device(a), to_device(b), c, N, K, M});
    EXPECT_EQ(c.to_vector<double>(), want); // the same k order in every item
    // Collapsed: one index space of N * M iterations.
    EXPECT_NE(f.source({to_device(a), to_device(b), c, N, K, M}).find("247"), std::string::npos);
}

TEST(LoopFunction, SpmvCsrSequentialInnerLoop) {
    const int64_t n = 50;
    std::vector<int64_t> rows{0};
    std::vector<int64_t> cols;
    std::vector<double> vals;
    std::mt19937 gen(8);
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j)
            if ((i * 7 + j * 3) % 5 == 0) {
                cols.push_back(j);
                vals.push_back(double(gen() % 100) / 10.0);
            }
        rows.push_back(int64_t(cols.size()));
    }
    auto x = values(size_t(n), 9);
    std::vector<double> want(size_t(n), 0.0);
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = rows[i]; k < rows[i + 1]; ++k)
            want[i] += vals[k] * x[cols[k]];
    Array y = zeros(size_t(n), DType::Float64, &test_device());
    LoopFunction f(loop_kernels(), "spmv", {{"N", {}}}, test_options());
    f({to_device(rows), to_device(cols), to_device(vals), to_device(x), y, n});
    EXPECT_EQ(y.to_vector<double>(), want);
}

TEST(LoopFunction, FullArraySumWithReduce) {
    for (size_t n : {size_t(255), size_t(10007)}) {
        auto x = small_values<double>(n, -50, 50, unsigned(n));
        const double want = std::accumulate(x.begin(), x.end(), 0.0); // exact: small integers
        Array out = zeros(1, DType::Float64, &test_device());
        LoopFunction f(loop_kernels(), "total", {{"N", {0, true, 0}}}, test_options());
        f({to_device(x), out, int64_t(n)});
        EXPECT_EQ(out.to_vector<double>()[0], want) << n;
        // An array element as the accumulator; calls add up.
        Array acc = full(1, 0.5, DType::Float64, &test_device());
        LoopFunction into(loop_kernels(), "total_into", {{"N", {0, true, 0}}}, test_options());
        into({to_device(x), acc, int64_t(n)});
        into({to_device(x), acc, int64_t(n)});
        EXPECT_EQ(acc.to_vector<double>()[0], 0.5 + 2 * want) << n;
    }
}

TEST(LoopFunction, DeterministicFloatSum) {
    auto x = values(100003, 10);
    LoopFunction f(loop_kernels(), "total", {{"N", {0, true, 0}}}, test_options());
    Array dx = to_device(x);
    Array a = zeros(1, DType::Float64, &test_device()),
          b = zeros(1, DType::Float64, &test_device());
    f({dx, a, int64_t(x.size())});
    f({dx, b, int64_t(x.size())});
    EXPECT_EQ(a.to_vector<double>()[0], b.to_vector<double>()[0]);
    EXPECT_NEAR(a.to_vector<double>()[0], std::accumulate(x.begin(), x.end(), 0.0), 1e-9);
}

TEST(LoopFunction, SequentialScalarReadByNextLoop) {
    const size_t n = 333;
    auto x = small_values<double>(n, 1, 40, 11);
    const double m = *std::max_element(x.begin(), x.end());
    Array out = zeros(n, DType::Float64, &test_device());
    LoopFunction f(loop_kernels(), "scale_by_max", {{"N", {}}}, test_options());
    f({to_device(x), out, int64_t(n)});
    std::vector<double> want(n);
    for (size_t k = 0; k < n; ++k)
        want[k] = x[k] / m;
    EXPECT_EQ(out.to_vector<double>(), want);
}

TEST(LoopFunction, ReductionsOverSlices) {
    const int64_t rows = 6, cols = 40;
    auto x = small_values<double>(size_t(rows * cols), -9, 9, 12);
    Array out = zeros(size_t(rows), DType::Float64, &test_device());
    LoopFunction f(loop_kernels(), "norms", {{"N", {}}}, test_options());
    f({to_device(x), out, rows, cols});
    for (int64_t i = 0; i < rows; ++i)
        EXPECT_EQ(out.to_vector<double>()[size_t(i)],
                  std::accumulate(x.begin() + i * cols, x.begin() + (i + 1) * cols, 0.0));

    // The same reduction labelled with a reduce label: a work-group per row on GPUs.
    Array out2 = zeros(size_t(rows), DType::Float64, &test_device());
    LoopFunction h(loop_kernels(), "norms_labelled", {{"N", {}}, {"M", {32, true, 0}}},
                   test_options());
    h({to_device(x), out2, rows, cols});
    EXPECT_EQ(out2.to_vector<double>(), out.to_vector<double>());
}

TEST(LoopFunction, ReductionsOverSlicesUnderMapLabels) {
    const int64_t rows = 6;
    // Two parpy reductions labelled with a map label (ParPy's threads(128) form): each splits
    // over the work-group on GPUs.
    auto z = values(size_t(rows * 300), 14);
    Array range = zeros(size_t(rows), DType::Float64, &test_device());
    LoopFunction r(loop_kernels(), "row_range", {{"N", {}}, {"M", {128, false, 0}}},
                   test_options());
    r({to_device(z), range, rows, int64_t(300)});
    for (int64_t i = 0; i < rows; ++i) {
        auto [lo, hi] = std::minmax_element(z.begin() + i * 300, z.begin() + (i + 1) * 300);
        EXPECT_EQ(range.to_vector<double>()[size_t(i)], *hi - *lo);
    }

    auto y = values(777, 13);
    Array ext = zeros(3, DType::Float64, &test_device());
    LoopFunction g(loop_kernels(), "extremes", {{"R", {0, true, 0}}}, test_options());
    g({to_device(y), ext});
    const double mx = *std::max_element(y.begin(), y.end());
    EXPECT_EQ(
        ext.to_vector<double>(),
        (std::vector<double>{mx, *std::min_element(y.begin(), y.end()), double(int32_t(mx))}));
}

// --- rejections, each located in the .py --------------------------------------------------

struct Rejection {
    const char *body; // the function's body (4-space indented lines)
    const char *spec; // labels of the spec, "R" meaning a reduce label named R
    int line, col;    // where the error points, in the file below
    const char *message;
};

Program rejection_program(const std::string &body) {
    return Program::from_source("bad.py", "import smelt.parpy as parpy\n\n\ndef f(x, out, N):\n" +
                                              std::string(body));
}

class LoopFunctionRejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(LoopFunctionRejects, Located) {
    const Rejection &r = GetParam();
    ParallelSpec spec;
    for (const char *c = r.spec; *c; ++c)
        spec[std::string(1, *c)] = LoopPar{0, *c == 'R', 0};
    Array x = zeros(8, DType::Float64, &test_device()),
          out = zeros(8, DType::Float64, &test_device());
    try {
        Program p = rejection_program(r.body);
        LoopFunction f(p, "f", spec, test_options());
        f({x, out, int64_t(8)});
        FAIL() << "accepted:\n" << r.body;
    } catch (const CompileError &e) {
        ASSERT_FALSE(e.diagnostics().empty());
        const Diagnostic &d = e.diagnostics().front();
        EXPECT_EQ(d.loc.line, r.line) << d.rendered;
        EXPECT_EQ(d.loc.col, r.col) << d.rendered;
        EXPECT_NE(d.message.find(r.message), std::string::npos) << d.rendered;
        EXPECT_NE(d.rendered.find("bad.py:" + std::to_string(r.line) + ":"), std::string::npos);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LoopFunctionRejects,
    ::testing::Values(
        Rejection{"    parpy.label('N')\n    for i in range(N):\n        out[i] = x[i]\n", "", 4, 5,
                  "(labels found: 'N'; spec: none)"},
        Rejection{"    parpy.label('N')\n    for i in range(N):\n        out[i] = x[i]\n", "NQ", 4,
                  5, "the parallel spec names label 'Q', but no loop of 'f' has it"},
        Rejection{"    s = 0.0\n    parpy.label('R')\n    for i in range(N):\n        s = x[i]\n"
                  "    out[0] = s\n",
                  "R", 8, 13, "its body must end with one update of an accumulator"},
        Rejection{"    s = 0.0\n    parpy.label('N')\n    for i in range(N):\n        s = x[i]\n"
                  "    out[0] = s\n",
                  "N", 7, 5, "'s' is assigned in the parallel loop 'N' and used outside it"},
        Rejection{"    parpy.label('N')\n    for i in range(int(x[0])):\n        out[i] = x[i]\n",
                  "N", 6, 5, "the stop of the parallel loop 'N' must be known"},
        Rejection{"    parpy.label('N')\n    out[0] = 1.0\n", "N", 5, 5,
                  "parpy.label('N') labels the next statement"},
        Rejection{"    parpy.label('N')\n    out[:] = x[0:3]\n", "N", 6, 16,
                  "every slice of a statement must have the same extent"},
        Rejection{"    with open('f') as h:\n        out[0] = 1.0\n", "N", 5, 5,
                  "ParPy accepts only `with parpy.gpu:`"},
        Rejection{"    for i in range(N):\n        out[i] = x[i]\n    else:\n        pass\n", "N",
                  7, 5, "for ... else is not supported in kernels (ParPy rejects it too)"},
        Rejection{
            "    parpy.label('N')\n    for i in range(N):\n        out[i] = parpy.foo(x[i])\n", "N",
            7, 18, "parpy.foo(...) is not supported"},
        Rejection{"    for i in range(N):\n        parpy.label('N')\n        for j in range(N):\n"
                  "            out[j] = x[i]\n",
                  "N", 7, 9, "is inside sequential code"}));

TEST(LoopFunction, TwoDimensionalSlicesAndReductions) {
    const int64_t R = 5, C = 70;
    auto x = small_values<double>(size_t(R * C), -20, 20, 15);
    auto y = small_values<double>(size_t(R * C), -20, 20, 16);
    Array dx = to_device(x), dy = to_device(y);

    Array sums = zeros(size_t(R), DType::Float64, &test_device());
    LoopFunction rows(loop_kernels_2d(), "row_sums_2d", {{"N", {}}, {"M", {64, false, 0}}},
                      test_options());
    rows({shaped(dx, {R, C}), sums, R});
    for (int64_t i = 0; i < R; ++i)
        EXPECT_EQ(sums.to_vector<double>()[size_t(i)],
                  std::accumulate(x.begin() + i * C, x.begin() + (i + 1) * C, 0.0));

    Array out = zeros(size_t(R * C), DType::Float64, &test_device());
    LoopFunction add(loop_kernels_2d(), "add_2d", {{"N", {}}, {"M", {}}}, test_options());
    add({shaped(dx, {R, C}), shaped(dy, {R, C}), shaped(out, {R, C})});
    std::vector<double> want(x.size());
    for (size_t k = 0; k < x.size(); ++k)
        want[k] = x[k] + 2.0 * y[k];
    EXPECT_EQ(out.to_vector<double>(), want);

    Array cols = zeros(size_t(C), DType::Float64, &test_device());
    LoopFunction colmax(loop_kernels_2d(), "col_max", {{"M", {}}}, test_options());
    colmax({shaped(dx, {R, C}), cols});
    for (int64_t j = 0; j < C; ++j) {
        double m = x[size_t(j)];
        for (int64_t i = 1; i < R; ++i)
            m = std::max(m, x[size_t(i * C + j)]);
        EXPECT_EQ(cols.to_vector<double>()[size_t(j)], m) << j;
    }

    const int64_t N = 4, K = 6, M = 3;
    auto a = values(size_t(N * K), 17), b = values(size_t(K * M), 18);
    std::vector<double> prod(size_t(N * M), 0.0);
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < M; ++j) {
            double s = 0.0;
            for (int64_t k = 0; k < K; ++k)
                s += a[i * K + k] * b[k * M + j];
            prod[i * M + j] = s;
        }
    Array c = zeros(size_t(N * M), DType::Float64, &test_device());
    LoopFunction mm(loop_kernels_2d(), "matmul_2d", {{"N", {}}, {"M", {}}}, test_options());
    mm({shaped(to_device(a), {N, K}), shaped(to_device(b), {K, M}), shaped(c, {N, M}), N, K, M});
    EXPECT_EQ(c.to_vector<double>(), prod);
}

TEST(LoopFunction, TwoDimensionalRowSoftmaxInnerLoopsOverTheGroup) {
    // ParPy's softmax: a parpy.max and a trailing loop under the map label 'M', split over the
    // items of a work-group on GPUs (sequential in each iteration on the CPU).
    const int64_t R = 6, C = 150;
    auto x = values(size_t(R * C), 19);
    std::vector<double> want(x.size());
    for (int64_t i = 0; i < R; ++i) {
        double m = *std::max_element(x.begin() + i * C, x.begin() + (i + 1) * C), s = 0;
        for (int64_t j = 0; j < C; ++j)
            s += std::exp(x[i * C + j] - m);
        for (int64_t j = 0; j < C; ++j)
            want[i * C + j] = std::exp(x[i * C + j] - m) / s;
    }
    Array out = zeros(x.size(), DType::Float64, &test_device());
    LoopFunction f(loop_kernels_2d(), "row_softmax_2d", {{"N", {}}, {"M", {64, false, 0}}},
                   test_options());
    f({shaped(to_device(x), {R, C}), shaped(out, {R, C}), R, C});
    expect_near_all(out.to_vector<double>(), want, 1e-12);
}

TEST(LoopFunction, TwoDimensionalSliceExtentsMustAgree) {
    Program p = Program::from_source(
        "bad2d.py", "import smelt.parpy as parpy\n\n\ndef f(x, out):\n    parpy.label('N')\n"
                    "    out[:] = parpy.sum(x[:, :], axis=1)\n");
    LoopFunction f(p, "f", {{"N", {}}}, test_options());
    Array x = zeros(12, DType::Float64, &test_device()),
          out = zeros(4, DType::Float64, &test_device());
    try {
        f({shaped(x, {3, 4}), out});
        FAIL() << "accepted a reduction over rows of 3 into 4 elements";
    } catch (const CompileError &e) {
        const Diagnostic &d = e.diagnostics().front();
        EXPECT_EQ(d.loc.line, 6) << d.rendered;
        EXPECT_NE(d.message.find("every slice of a statement must have the same extent"),
                  std::string::npos)
            << d.rendered;
    }
}

// A row written by the work-group's item 0 (a plain loop) and then reduced by all its items
// (parpy.sum over the row): long rows, so on a GPU the other items reach the sum well before
// item 0 has written the row unless a barrier orders them.
TEST(LoopFunction, GroupReductionReadsTheRowItem0JustWrote) {
    Program p = Program::from_source(
        "softmax_rows.py",
        "import smelt.parpy as parpy\nfrom math import exp\n\n\n"
        "def softmax_rows(x, out, N, M):\n    parpy.label('N')\n    for i in range(N):\n"
        "        parpy.label('M')\n        m = parpy.max(x[i, :])\n"
        "        for j in range(M):\n            out[i, j] = exp(x[i, j] - m)\n"
        "        parpy.label('M')\n        s = parpy.sum(out[i, :])\n"
        "        for j in range(M):\n            out[i, j] = out[i, j] / s\n");
    const int64_t R = 8, C = 4096;
    auto x = values(size_t(R * C), 23);
    std::vector<double> want(x.size());
    for (int64_t i = 0; i < R; ++i) {
        double m = *std::max_element(x.begin() + i * C, x.begin() + (i + 1) * C), s = 0;
        for (int64_t j = 0; j < C; ++j)
            s += std::exp(x[size_t(i * C + j)] - m);
        for (int64_t j = 0; j < C; ++j)
            want[size_t(i * C + j)] = std::exp(x[size_t(i * C + j)] - m) / s;
    }
    Array out = zeros(x.size(), DType::Float64, &test_device());
    LoopFunction f(p, "softmax_rows", {{"N", {}}, {"M", {64, true, 0}}}, test_options());
    f({shaped(to_device(x), {R, C}), shaped(out, {R, C}), R, C});
    expect_near_all(out.to_vector<double>(), want, 1e-12);
}

// axis= counts the axes of the slice, as NumPy does: x[i, :] has one axis, 0 (the row's
// columns); an axis the slice does not have is a located error.
TEST(LoopFunction, AxisCountsTheAxesOfTheSlice) {
    Program p = Program::from_source(
        "axis.py", "import smelt.parpy as parpy\n\n\ndef f(x, lo, N):\n    parpy.label('N')\n"
                   "    for i in range(N):\n        lo[i] = parpy.min(x[i, :], axis=0)\n\n\n"
                   "def g(x, lo, N):\n    parpy.label('N')\n    for i in range(N):\n"
                   "        lo[i] = parpy.min(x[i, :], axis=1)\n");
    const int64_t R = 5, C = 7;
    std::vector<double> x(size_t(R * C));
    for (size_t k = 0; k < x.size(); ++k)
        x[k] = double((k * 37) % 23) - 11.0;
    std::vector<double> want(static_cast<size_t>(R));
    for (int64_t i = 0; i < R; ++i)
        want[size_t(i)] = *std::min_element(x.begin() + i * C, x.begin() + (i + 1) * C);
    Array lo = zeros(size_t(R), DType::Float64, &test_device());
    LoopFunction f(p, "f", {{"N", {}}}, test_options());
    f({shaped(to_device(x), {R, C}), lo, R});
    EXPECT_EQ(lo.to_vector<double>(), want);
    LoopFunction g(p, "g", {{"N", {}}}, test_options());
    try {
        g({shaped(to_device(x), {R, C}), lo, R});
        FAIL() << "accepted axis=1 on a one-axis slice";
    } catch (const CompileError &e) {
        const Diagnostic &d = e.diagnostics().front();
        EXPECT_EQ(d.loc.line, 13) << d.rendered;
        EXPECT_NE(d.message.find("axis=1 is out of range"), std::string::npos) << d.rendered;
    }
}

TEST(LoopFunction, LabelsAreKeptOnIrLoops) {
    // The lowering alone: labels on the loops of a for statement, a slice statement and a
    // reduction; integer arguments specialised as constants.
    auto entry = std::make_shared<LoopEntry>();
    entry->function = "norms_labelled";
    entry->values = {{"N", 3}, {"M", 4}};
    CompileOptions o;
    o.loop_entry = entry;
    KernelRequest r{"norms_labelled",
                    {{"x", Type::pointer(Scalar::F64)},
                     {"out", Type::pointer(Scalar::F64)},
                     {"N", Type::scalar(Scalar::I64)},
                     {"M", Type::scalar(Scalar::I64)}},
                    {}};
    const std::string text = ir::print_function(
        *build_ir(*loop_kernels().data().module, {r}, o)->find("norms_labelled"));
    EXPECT_NE(text.find("label N\n    for i_it in range(0:long, 3:long, 1:long):"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("label M\n        for sum_it in range("), std::string::npos) << text;
}

TEST(LoopFunction, WithGpuBlockIsSequentialCode) {
    Program p = Program::from_source(
        "gpu.py", "import smelt.parpy as parpy\n\n\ndef f(x, out, N):\n    with parpy.gpu:\n"
                  "        out[0] = x[0] * 2.0\n    parpy.label('N')\n    for i in range(1, N):\n"
                  "        out[i] = x[i] + 1.0\n");
    LoopFunction f(p, "f", {{"N", {}}}, test_options());
    Array x = to_device(std::vector<double>{1, 2, 3, 4}),
          out = zeros(4, DType::Float64, &test_device());
    f({x, out, int64_t(4)});
    EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{2, 3, 4, 5}));
}

// Every program's CUDA unit compiles with NVRTC for sm_90 (no device needed), so the kernels the
// GPU machine runs are at least well-formed where no GPU is.
TEST(LoopFunctionCuda, UnitsCompileForSm90WithoutADevice) {
#ifndef SMELT_HAVE_CUDA
    GTEST_SKIP() << "built without CUDA (NVRTC)";
#else
    Backend &cpu = get_backend("cpu");
    auto arr = [&](size_t n) { return Arg(zeros(n, DType::Float64, &cpu)); };
    auto idx = [&](size_t n) { return Arg(zeros(n, DType::Int64, &cpu)); };
    const LoopPar map{}, red{0, true, 0}, group{64, true, 0};
    struct Case {
        const char *func;
        ParallelSpec spec;
        std::vector<Arg> args;
    };
    const std::vector<Case> cases = {
        {"axpy", {{"N", map}}, {2.0, arr(8), arr(8), arr(8), int64_t(8)}},
        {"row_sums", {{"N", map}, {"M", group}}, {arr(12), arr(3), int64_t(3), int64_t(4)}},
        {"row_softmax", {{"N", map}, {"M", group}}, {arr(12), arr(12), int64_t(3), int64_t(4)}},
        {"softmax", {{"R", red}, {"N", map}}, {arr(8), arr(8), int64_t(8)}},
        {"matmul",
         {{"N", map}, {"M", map}},
         {arr(6), arr(6), arr(4), int64_t(2), int64_t(3), int64_t(2)}},
        {"spmv", {{"N", map}}, {idx(4), idx(5), arr(5), arr(3), arr(3), int64_t(3)}},
        {"total_into", {{"N", red}}, {arr(8), arr(1), int64_t(8)}},
        {"norms_labelled", {{"N", map}, {"M", group}}, {arr(12), arr(3), int64_t(3), int64_t(4)}},
        {"row_range",
         {{"N", map}, {"M", LoopPar{64, false, 0}}},
         {arr(12), arr(3), int64_t(3), int64_t(4)}},
        {"extremes", {{"R", red}}, {arr(8), arr(3)}},
    };
    const std::vector<Case> cases_2d = {
        {"add_2d",
         {{"N", map}, {"M", map}},
         {shaped(zeros(6, DType::Float64, &cpu), {2, 3}),
          shaped(zeros(6, DType::Float64, &cpu), {2, 3}),
          shaped(zeros(6, DType::Float64, &cpu), {2, 3})}},
        {"col_max", {{"M", map}}, {shaped(zeros(6, DType::Float64, &cpu), {2, 3}), arr(3)}},
        {"row_softmax_2d",
         {{"N", map}, {"M", LoopPar{32, false, 0}}},
         {shaped(zeros(6, DType::Float64, &cpu), {2, 3}),
          shaped(zeros(6, DType::Float64, &cpu), {2, 3}), int64_t(2), int64_t(3)}},
        {"row_sums_2d",
         {{"N", map}, {"M", LoopPar{32, false, 0}}},
         {shaped(zeros(6, DType::Float64, &cpu), {2, 3}), arr(2), int64_t(2)}},
    };
    for (const Case &c : cases_2d) {
        auto sp = primitives::loops::specialise(*loop_kernels_2d().data().module, c.func, c.spec,
                                                c.args, Precision::Double, "cuda");
        cuda::NvrtcOutput out =
            cuda::nvrtc_compile(sp.unit.source, "kernel.cu", cuda::nvrtc_options("sm_90"));
        EXPECT_TRUE(out.ok) << c.func << ":\n" << out.log;
    }
    for (const Case &c : cases) {
        auto sp = primitives::loops::specialise(*loop_kernels().data().module, c.func, c.spec,
                                                c.args, Precision::Double, "cuda");
        cuda::NvrtcOutput out =
            cuda::nvrtc_compile(sp.unit.source, "kernel.cu", cuda::nvrtc_options("sm_90"));
        EXPECT_TRUE(out.ok) << c.func << ":\n" << out.log;
        EXPECT_EQ(sp.unit.symbols.size(), sp.code.kernels.size());
    }
#endif
}

} // namespace
} // namespace smelt
