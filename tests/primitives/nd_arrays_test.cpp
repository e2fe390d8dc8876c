// Multi-dimensional array parameters (docs/LANGUAGE.md, "Multi-dimensional arrays"): shaped
// arguments (smelt::shaped / Arg(a, shape)) give unannotated parameters a global matrix type,
// indexed x[i, j] (or x[i][j]) with x.shape[k] and len(x) as compile-time integers. Checked
// against hand-written loops: a matrix-vector product, a transpose, a 5-point stencil, a rank-3
// reduction, a helper scaling rows in place, a Reduction and a low-level Kernel; shapes as
// specialisations; located errors; the bounds-checked mode on a second index.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <fstream>

namespace smelt {
namespace {

using namespace testing_util;

const Program &nd_kernels() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/nd_kernels.py");
    return p;
}

const Program &nd_errors() {
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/nd_errors.py");
    return p;
}

// The 1-based line of `text` in tests/primitives/<file>.
int line_of(const std::string &file, const std::string &text) {
    std::ifstream in(std::string(SMELT_TEST_DATA_DIR) + "/primitives/" + file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(text) != std::string::npos) return n;
    return -1;
}

std::vector<double> matvec_loop(const std::vector<double> &a, const std::vector<double> &x,
                                int64_t rows, int64_t cols) {
    std::vector<double> y(rows, 0.0);
    for (int64_t i = 0; i < rows; ++i) {
        double s = 0.0;
        for (int64_t j = 0; j < cols; ++j)
            s += a[i * cols + j] * x[j];
        y[i] = s;
    }
    return y;
}

TEST(NdArrays, MatrixVectorProductMatchesTheLoop) {
    Elementwise mv(nd_kernels(), "matvec", test_options());
    const int64_t rows = 37, cols = 19;
    const auto a = small_values<double>(rows * cols, -9, 9, 1);
    const auto x = small_values<double>(cols, -9, 9, 2);
    Array Y = zeros(rows, DType::Float64, &test_device());
    // n is len(a), the first extent.
    mv({shaped(to_device(a), {rows, cols}), to_device(x), Y});
    EXPECT_EQ(Y.to_vector<double>(), matvec_loop(a, x, rows, cols));
    // A global matrix is a flat pointer, indexed in 64 bits.
    EXPECT_NE(mv.source().find(spelled(Type::pointer(Scalar::F64)) + "a"), std::string::npos)
        << mv.source();
}

TEST(NdArrays, EachShapeIsItsOwnSpecialisationAndTheSameShapeIsReused) {
    Elementwise mv(nd_kernels(), "matvec", test_options());
    auto run = [&](int64_t rows, int64_t cols, unsigned seed) {
        const auto a = small_values<double>(rows * cols, -9, 9, seed);
        const auto x = small_values<double>(cols, -9, 9, seed + 1);
        Array Y = zeros(rows, DType::Float64, &test_device());
        mv({Arg(to_device(a), {rows, cols}), to_device(x), Y});
        EXPECT_EQ(Y.to_vector<double>(), matvec_loop(a, x, rows, cols)) << rows << "x" << cols;
        return &mv.source();
    };
    const std::string *first = run(6, 4, 10);
    const std::string first_text = *first;
    const std::string *second = run(4, 6, 20); // same size, other shape
    EXPECT_NE(first, second);
    EXPECT_NE(first_text, *second);
    EXPECT_EQ(run(6, 4, 30), first); // the first specialisation again, not a new one
    EXPECT_EQ(run(4, 6, 40), second);
}

TEST(NdArrays, TransposeWithChainedIndicesAndLen) {
    Elementwise tr(nd_kernels(), "transpose", test_options());
    const int64_t rows = 5, cols = 8;
    const auto a = small_values<int32_t>(rows * cols, -100, 100, 3);
    Array B = zeros(rows * cols, DType::Int32, &test_device());
    tr({shaped(to_device(a), {rows, cols}), shaped(B, {cols, rows})});
    std::vector<int32_t> want(rows * cols);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            want[j * rows + i] = a[i * cols + j];
    EXPECT_EQ(B.to_vector<int32_t>(), want);
}

TEST(NdArrays, FivePointStencil) {
    Elementwise lap(nd_kernels(), "laplacian", test_options());
    const int64_t rows = 9, cols = 13;
    const auto u = small_values<double>(rows * cols, -50, 50, 4);
    Array V = zeros(rows * cols, DType::Float64, &test_device());
    lap({shaped(to_device(u), {rows, cols}), shaped(V, {rows, cols})});
    std::vector<double> want(rows * cols);
    auto at = [&](int64_t i, int64_t j) { return u[i * cols + j]; };
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            want[i * cols + j] =
                (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
                    ? at(i, j)
                    : at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4.0 * at(i, j);
    EXPECT_EQ(V.to_vector<double>(), want);
}

TEST(NdArrays, RankThree) {
    Elementwise wp(nd_kernels(), "weighted_planes", test_options());
    const int64_t d0 = 4, d1 = 3, d2 = 5;
    const auto t = small_values<float>(d0 * d1 * d2, -9, 9, 5);
    Array Out = zeros(d0, DType::Float64, &test_device());
    wp({shaped(to_device(t), {d0, d1, d2}), Out});
    std::vector<double> want(d0, 0.0);
    for (int64_t i = 0; i < d0; ++i)
        for (int64_t j = 0; j < d1; ++j)
            for (int64_t k = 0; k < d2; ++k)
                want[i] += double(t[(i * d1 + j) * d2 + k]) * double(j + 1) - double(k);
    EXPECT_EQ(Out.to_vector<double>(), want);
}

TEST(NdArrays, HelpersTakeTheMatrixInPlace) {
    Elementwise sr(nd_kernels(), "scale_rows", test_options());
    const int64_t rows = 7, cols = 3;
    const auto a = small_values<double>(rows * cols, -9, 9, 6);
    const auto f = small_values<double>(rows, -3, 3, 7);
    Array A = to_device(a);
    sr({shaped(A, {rows, cols}), to_device(f)});
    std::vector<double> want = a;
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            want[i * cols + j] *= f[i];
    EXPECT_EQ(A.to_vector<double>(), want);
}

TEST(NdArrays, ReductionMapsOverTheRows) {
    Reduction r(&nd_kernels(), "a+b", "row_norm2", DType::Float64, "0", test_options());
    const int64_t rows = 300, cols = 7;
    const auto a = small_values<double>(rows * cols, -9, 9, 8);
    double want = 0.0;
    for (double v : a)
        want += v * v; // small integers: exact in any order
    EXPECT_EQ(r({shaped(to_device(a), {rows, cols})}).as<double>(), want);
}

TEST(NdArrays, ScanInputAndOutputFunctionsTakeMatrices) {
    // Running totals of the row sums of a, written to a vector and to column 0 of a matrix.
    Scan scan(nd_kernels(), "row_total", "store_row_prefix", "a+b", DType::Float64, "0", "",
              test_options());
    const int64_t rows = 500, cols = 3;
    const auto a = small_values<double>(rows * cols, -9, 9, 14);
    Array Prefix = zeros(rows, DType::Float64, &test_device());
    Array Out = zeros(rows * 2, DType::Float64, &test_device());
    scan({{"a", shaped(to_device(a), {rows, cols})},
          {"prefix", Prefix},
          {"out", shaped(Out, {rows, 2})}});
    std::vector<double> want(rows), want_out(rows * 2, 0.0);
    double run = 0.0;
    for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j)
            run += a[i * cols + j];
        want[i] = run;
        want_out[i * 2] = run;
    }
    EXPECT_EQ(Prefix.to_vector<double>(), want);
    EXPECT_EQ(Out.to_vector<double>(), want_out);
}

TEST(NdArrays, LowLevelKernel) {
    if (test_backend().rfind("opencl", 0) != 0 && test_backend().rfind("cuda", 0) != 0)
        GTEST_SKIP() << "Kernel needs work-groups (opencl or cuda); SMELT_TEST_BACKEND is "
                     << test_backend();
    Kernel k(nd_kernels(), "gid_matvec", test_options());
    const int64_t rows = 50, cols = 6;
    const auto a = small_values<double>(rows * cols, -9, 9, 9);
    const auto x = small_values<double>(cols, -9, 9, 10);
    Array Y = zeros(rows, DType::Float64, &test_device());
    k(64, 32, {shaped(to_device(a), {rows, cols}), to_device(x), Y});
    EXPECT_EQ(Y.to_vector<double>(), matvec_loop(a, x, rows, cols));
}

TEST(NdArrays, ShapesMustMatchTheArraySize) {
    Array A = zeros(12, DType::Float64, &test_device());
    try {
        Arg bad(A, {5, 3});
        FAIL() << "no error";
    } catch (const UsageError &e) {
        EXPECT_STREQ(e.what(),
                     "an array argument of shape (5, 3) needs 15 elements, but the array has 12");
    }
    EXPECT_THROW(Arg(A, {}), UsageError);
    EXPECT_THROW(Arg(A, {-3, -4}), UsageError);
    EXPECT_EQ(Arg(A).shape(), std::vector<int64_t>{12});
    EXPECT_EQ(Arg(A).rank(), 1u);
    EXPECT_EQ(Arg(A).length(), 12);
    EXPECT_EQ(Arg(A, {3, 4}).shape(), (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(Arg(A, {3, 4}).rank(), 2u);
    EXPECT_EQ(Arg(A, {3, 4}).length(), 3);
    EXPECT_EQ(Arg(2.5).rank(), 0u);
    // Rank 1 stays a pointer; rank 2 is a global matrix.
    EXPECT_EQ(Arg(A, {12}).type(), Type::pointer(Scalar::F64));
    EXPECT_EQ(Arg(A, {3, 4}).type(), Type::matrix(Scalar::F64, {3, 4}, AddrSpace::Global));
    EXPECT_EQ(Arg(A, {3, 4}).type().str(), "array((3, 4), 'double')");
}

TEST(NdArrays, AnnotatedPointerParametersTakeShapedArraysFlat) {
    // flat_affine annotates x as doublep: a 2 x 3 array passed there is its six elements.
    Elementwise fa(nd_kernels(), "flat_affine", test_options());
    const auto x = small_values<double>(6, -9, 9, 11);
    Array Y = zeros(6, DType::Float64, &test_device());
    fa(6, {shaped(to_device(x), {2, 3}), Y});
    std::vector<double> want;
    for (double v : x)
        want.push_back(2.0 * v + 1.0);
    EXPECT_EQ(Y.to_vector<double>(), want);
}

struct ErrorCase {
    const char *func;
    const char *line_text;
    int col;
    const char *message;
};

TEST(NdArrays, MistakesAreLocatedCompileErrors) {
    const ErrorCase cases[] = {
        {"one_index", "y[i] = a[i]", 12, "'a' has 2 dimensions but 1 index was given"},
        {"three_indices", "a[i, 0, 1]", 20, "'a' has 2 dimensions but 3 indices were given"},
        {"shape_past_rank", "a.shape[2]", 12, "a.shape[2]: 'a' has 2 dimensions"},
        {"len_of_pointer", "len(y)", 16,
         "len(y): 'y' is a one-dimensional array (doublep) whose length is not part of its type"},
        {"shape_by_variable", "a.shape[i]", 20,
         "'a.shape' can only be indexed by a constant integer"},
        {"atomic_on_matrix", "atomic_add(a[i, 0]", 16,
         "atomic_add() is not supported on multi-dimensional arrays ('a' is array((3, 2), "
         "'double'))"},
        {"bare_shape", "s = a.shape", 9,
         "'a.shape' can only be indexed by a constant, as in a.shape[0]"},
    };
    Array A = zeros(6, DType::Float64, &test_device());
    Array Y = zeros(3, DType::Float64, &test_device());
    for (const ErrorCase &c : cases) {
        SCOPED_TRACE(c.func);
        Elementwise ew(nd_errors(), c.func, test_options());
        try {
            ew({shaped(A, {3, 2}), Y});
            ADD_FAILURE() << "no error";
        } catch (const CompileError &e) {
            ASSERT_FALSE(e.diagnostics().empty());
            const Diagnostic &d = e.diagnostics()[0];
            EXPECT_NE(d.file.find("nd_errors.py"), std::string::npos) << d.file;
            EXPECT_EQ(d.loc.line, line_of("nd_errors.py", c.line_text)) << d.rendered;
            EXPECT_EQ(d.loc.col, c.col) << d.rendered;
            EXPECT_EQ(d.message.rfind(c.message, 0), 0u) << d.rendered;
            EXPECT_NE(d.rendered.find(":" + std::to_string(d.loc.line) + ":" +
                                      std::to_string(c.col) + ": error: " + c.message),
                      std::string::npos)
                << d.rendered;
            EXPECT_EQ(d.rendered.back(), '^') << d.rendered;
        }
    }
}

TEST(NdArrays, BoundsCheckedModeNamesTheDimension) {
    Options o = test_options();
    o.bounds_check = true;
    Elementwise dp(nd_kernels(), "diagonal_plus_one", o);
    Array A = to_device(small_values<double>(9, -9, 9, 12));
    Array Out = zeros(3, DType::Float64, &test_device());
    std::string m = "no error";
    try {
        dp({shaped(A, {3, 3}), Out});
    } catch (const UsageError &e) {
        m = e.what();
    }
    // Item 2 reads a[2, 3]: the second index is past the extent 3, though 2 * 3 + 3 < 9 would
    // not be past the flat array's end.
    EXPECT_EQ(m, std::string(SMELT_TEST_DATA_DIR) + "/primitives/nd_kernels.py:" +
                     std::to_string(line_of("nd_kernels.py", "a[i, i + 1]")) +
                     ": error: index 3 is out of range for 'a' (dimension 1 of length 3) in "
                     "'diagonal_plus_one' (bounds-checked run; 1 access out of range)");
    // In range, the checked run gives the loop's result.
    Array Out2 = zeros(2, DType::Float64, &test_device());
    Elementwise dp2(nd_kernels(), "diagonal_plus_one", o);
    const auto b = small_values<double>(6, -9, 9, 13);
    dp2({shaped(to_device(b), {2, 3}), Out2});
    EXPECT_EQ(Out2.to_vector<double>(), (std::vector<double>{b[1], b[5]}));
}

} // namespace
} // namespace smelt
