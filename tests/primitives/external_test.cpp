// External functions (ProgramOptions::externals, Options::includes/libs/extra_flags): a function
// from a user header, from pasted source and from a library built here, called from an
// Elementwise on cpu, OpenCL (PoCL in CI) and CUDA (on a GPU machine), each checked against
// the value computed by hand; located errors for wrong calls; a header edit recompiles; a
// missing header or library function is a BackendError carrying the compiler's log.
#include "cache/header_deps.h"
#include "primitive_test_util.h"
#include "primitives/external_options.h"
#include "runtime/runtime_test_util.h"
#include "support/process.h"

#ifdef SMELT_HAVE_OPENCL
#include "opencl/opencl_test_util.h"
#endif
#ifdef SMELT_HAVE_CUDA
#include "backends/cuda/nvrtc_compiler.h"
#include "cuda/cuda_test_util.h"
#include "primitives/cuda/cuda_target.h"
#include "primitives/elementwise_unit.h"
#include "primitives/program_data.h"
#endif

#include <gtest/gtest.h>

#include <cmath>

namespace smelt {
namespace {

using namespace testing_util;
namespace fs = std::filesystem;

// The header of the tests: a __device__ function under CUDA, a plain static inline one for C++
// and OpenCL C.
std::string cube_header(const std::string &extra = "") {
    return "#pragma once\n"
           "#ifdef __CUDACC__\n"
           "__device__\n"
           "#endif\n"
           "static inline double my_cube(double x) { return x * x * x" +
           extra + "; }\n";
}

External cube_external() {
    External x;
    x.name = "my_cube";
    x.params = {"double"};
    x.result = "double";
    x.header = "my_cube.h";
    return x;
}

const char *kCubeKernel = "def cube_all(i, x, y):\n"
                          "    y[i] = my_cube(x[i]) + 1.0\n";

Program program(const std::string &text, std::vector<External> externals) {
    ProgramOptions po;
    po.externals = std::move(externals);
    return Program::from_source("ext.py", text, po);
}

std::vector<double> inputs() {
    std::vector<double> x(37);
    for (size_t k = 0; k < x.size(); ++k)
        x[k] = 0.5 * double(k) - 7.0; // exact cubes in double
    return x;
}

// y = my_cube(x) + 1 on `backend`, with the header in `dir`.
void check_header_cube(const std::string &backend, const fs::path &dir) {
    Backend &dev = get_backend(backend);
    std::vector<double> x = inputs();
    Array X = Array::from_vector(x, &dev), Y = zeros(x.size(), DType::Float64, &dev);
    Options o;
    o.backend = backend;
    o.includes = {dir.string()};
    Elementwise e(program(kCubeKernel, {cube_external()}), "cube_all", o);
    e({X, Y});
    std::vector<double> y = Y.to_vector<double>();
    for (size_t k = 0; k < x.size(); ++k)
        EXPECT_EQ(y[k], x[k] * x[k] * x[k] + 1.0) << "x = " << x[k];
    EXPECT_NE(e.source().find("#include \"my_cube.h\""), std::string::npos);
}

// Pasted source: twice_plus(a, b) = 2a + b with a long b, so the index converts.
External twice_plus_external() {
    External x;
    x.name = "twice_plus";
    x.c_name = "smelt_test_twice_plus";
    x.params = {"double", "long"};
    x.result = "double";
    const std::string body =
        "double smelt_test_twice_plus(double a, long b) { return 2.0 * a + (double)b; }\n";
    x.code[""] = "static inline " + body;
    x.code["cuda"] = "__device__ static inline " + body;
    return x;
}

void check_source_text(const std::string &backend) {
    Backend &dev = get_backend(backend);
    std::vector<double> x = inputs();
    Array X = Array::from_vector(x, &dev), Y = zeros(x.size(), DType::Float64, &dev);
    Options o;
    o.backend = backend;
    Elementwise e(program("def f(i, x, y):\n"
                          "    y[i] = twice_plus(x[i], i)\n",
                          {twice_plus_external()}),
                  "f", o);
    e({X, Y});
    std::vector<double> y = Y.to_vector<double>();
    for (size_t k = 0; k < x.size(); ++k)
        EXPECT_EQ(y[k], 2.0 * x[k] + double(k));
}

TEST(External, HeaderFunctionOnCpu) {
    TempDir dir;
    spew(dir.path() / "my_cube.h", cube_header());
    check_header_cube("cpu", dir.path());
}

TEST(External, SourceTextOnCpu) {
    check_source_text("cpu");
}

TEST(External, SameExternalFromTwoFunctionsIsDeclaredOnce) {
    // A helper and the kernel both call it; the code is pasted once (it defines a function).
    Program p = program("def helper(v):\n"
                        "    return twice_plus(v, 1)\n"
                        "def f(i, x, y):\n"
                        "    y[i] = helper(x[i]) + twice_plus(x[i], 0)\n",
                        {twice_plus_external()});
    std::vector<double> x = inputs();
    Array X = Array::from_vector(x), Y = zeros(x.size());
    Elementwise e(p, "f", {.backend = "cpu"});
    e({X, Y});
    std::vector<double> y = Y.to_vector<double>();
    for (size_t k = 0; k < x.size(); ++k)
        EXPECT_EQ(y[k], (2.0 * x[k] + 1.0) + 2.0 * x[k]);
    const std::string &src = e.source();
    size_t first = src.find("double smelt_test_twice_plus(");
    ASSERT_NE(first, std::string::npos);
    EXPECT_EQ(src.find("double smelt_test_twice_plus(", first + 1), std::string::npos);
}

TEST(External, LibraryLinkedThroughLibs) {
    TempDir dir;
    spew(dir.path() / "triple.cpp",
         "extern \"C\" double smelt_test_triple(double x) { return 3.0 * x; }\n");
    ProcessResult built = run_process({SMELT_CXX, "-shared", "-fPIC", "-o",
                                       (dir.path() / "libsmelttriple.so").string(),
                                       (dir.path() / "triple.cpp").string()});
    if (!built.started || built.exit_status != 0)
        GTEST_SKIP() << "cannot build a shared library with " << SMELT_CXX << ": " << built.output;
    External x;
    x.name = "triple";
    x.c_name = "smelt_test_triple";
    x.params = {"double"};
    x.result = "double";
    x.backends = {"cpu"};
    x.code["cpu"] = "extern \"C\" double smelt_test_triple(double);\n";
    std::vector<double> in = inputs();
    Array X = Array::from_vector(in), Y = zeros(in.size());
    Options o;
    o.backend = "cpu";
    o.libs = {dir.path().string(), "smelttriple"};
    Elementwise(program("def f(i, x, y):\n    y[i] = triple(x[i])\n", {x}), "f", o)({X, Y});
    std::vector<double> y = Y.to_vector<double>();
    for (size_t k = 0; k < in.size(); ++k)
        EXPECT_EQ(y[k], 3.0 * in[k]);

    // A function no library defines fails the link, with the linker's message.
    External missing = x;
    missing.name = "nowhere";
    missing.c_name = "smelt_test_defined_nowhere";
    missing.code["cpu"] = "extern \"C\" double smelt_test_defined_nowhere(double);\n";
    try {
        Elementwise(program("def g(i, x, y):\n    y[i] = nowhere(x[i])\n", {missing}), "g",
                    o)({X, Y});
        FAIL() << "expected a BackendError";
    } catch (const BackendError &e) {
        EXPECT_NE(e.log().find("smelt_test_defined_nowhere"), std::string::npos) << e.log();
        EXPECT_NE(std::string(e.what()).find("smelt_test_defined_nowhere"), std::string::npos);
    }
}

TEST(External, LinkArgumentsSpellLibraries) {
    TempDir dir;
    std::vector<std::string> args =
        primitives::link_arguments({dir.path().string(), "m", "-lz", "/x/libq.a"});
    ASSERT_EQ(args.size(), 6u);
    EXPECT_EQ(args[0], "-Wl,--no-undefined");
    EXPECT_EQ(args[1], "-L" + fs::absolute(dir.path()).lexically_normal().string());
    EXPECT_EQ(args[2], "-Wl,-rpath," + fs::absolute(dir.path()).lexically_normal().string());
    EXPECT_EQ(args[3], "-lm");
    EXPECT_EQ(args[4], "-lz");
    EXPECT_EQ(args[5], "/x/libq.a");
}

std::string compile_error(const Program &p, const std::string &func,
                          const std::string &backend = "cpu") {
    std::vector<double> x = inputs();
    Array X = Array::from_vector(x), Y = zeros(x.size());
    try {
        Elementwise(p, func, {.backend = backend})({X, Y});
    } catch (const CompileError &e) {
        return e.what();
    }
    return "(no CompileError)";
}

TEST(External, WrongArgumentCountIsLocated) {
    std::string msg = compile_error(program("def f(i, x, y):\n"
                                            "    y[i] = my_cube(x[i], 2.0)\n",
                                            {cube_external()}),
                                    "f");
    EXPECT_NE(msg.find("ext.py:2:12: error: external function 'my_cube' takes 1 argument but 2 "
                       "were given"),
              std::string::npos)
        << msg;
}

TEST(External, WrongArgumentTypeIsLocatedAtTheArgument) {
    std::string msg = compile_error(program("def f(i, x, y):\n"
                                            "    y[i] = my_cube(x)\n",
                                            {cube_external()}),
                                    "f");
    EXPECT_NE(msg.find("ext.py:2:20: error:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("parameter 1 of external function 'my_cube'"), std::string::npos) << msg;

    External take_int{.name = "take_int", .params = {"int"}, .result = "int"};
    msg = compile_error(program("def f(i, x, y):\n"
                                "    y[i] = take_int(x[i])\n",
                                {take_int}),
                        "f");
    EXPECT_NE(msg.find("ext.py:2:21: error:"), std::string::npos) << msg;
}

TEST(External, DeclaredForAnotherBackendIsLocated) {
    External x = cube_external();
    x.backends = {"cuda"};
    std::string msg = compile_error(program(kCubeKernel, {x}), "cube_all");
    EXPECT_NE(msg.find("ext.py:2:12: error: 'my_cube' is an external function declared for cuda "
                       "only, not for the cpu backend"),
              std::string::npos)
        << msg;
}

TEST(External, BadDeclarationsAreUsageErrors) {
    auto make = [](External x) { return program("def f(i):\n    pass\n", {x}); };
    External bad_type = cube_external();
    bad_type.params = {"dbl"};
    EXPECT_THROW(make(bad_type), UsageError);
    External bad_backend = cube_external();
    bad_backend.backends = {"metal"};
    EXPECT_THROW(make(bad_backend), UsageError);
    External bad_c = cube_external();
    bad_c.c_name = "my-cube";
    EXPECT_THROW(make(bad_c), UsageError);
    EXPECT_THROW(program("def f(i):\n    pass\n", {cube_external(), cube_external()}), UsageError);
}

TEST(External, HeaderEditRecompiles) {
    TempDir dir;
    spew(dir.path() / "my_cube.h", cube_header());
    std::vector<double> x = inputs();
    Array X = Array::from_vector(x), Y = zeros(x.size());
    Options o;
    o.backend = "cpu";
    o.includes = {dir.path().string()};
    Program p = program(kCubeKernel, {cube_external()});
    Elementwise(p, "cube_all", o)({X, Y});
    EXPECT_EQ(Y.to_vector<double>()[3], x[3] * x[3] * x[3] + 1.0);

    // The generated source is the same; only the header differs.
    spew(dir.path() / "my_cube.h", cube_header(" + 10.0"));
    Elementwise(p, "cube_all", o)({X, Y});
    EXPECT_EQ(Y.to_vector<double>()[3], x[3] * x[3] * x[3] + 10.0 + 1.0);
}

TEST(External, HeaderDependenciesFollowContents) {
    TempDir dir;
    spew(dir.path() / "a.h", "int a;\n");
    const std::string src = "#include <cmath>\n#include \"a.h\"\n#include \"b.h\"\n";
    std::string before = header_dependencies(src, {dir.path().string()});
    EXPECT_NE(before.find("a.h " + (dir.path() / "a.h").string()), std::string::npos) << before;
    EXPECT_NE(before.find("b.h not found"), std::string::npos) << before;
    EXPECT_EQ(before.find("cmath"), std::string::npos) << before;
    spew(dir.path() / "a.h", "int b;\n");
    EXPECT_NE(header_dependencies(src, {dir.path().string()}), before);
    EXPECT_EQ(header_dependencies("int x;\n", {dir.path().string()}), "");
}

TEST(External, MissingHeaderIsABackendErrorWithTheLog) {
    External x = cube_external();
    x.header = "smelt_no_such_header.h";
    std::vector<double> in = inputs();
    Array X = Array::from_vector(in), Y = zeros(in.size());
    try {
        Elementwise(program(kCubeKernel, {x}), "cube_all", {.backend = "cpu"})({X, Y});
        FAIL() << "expected a BackendError";
    } catch (const BackendError &e) {
        EXPECT_NE(e.log().find("smelt_no_such_header.h"), std::string::npos) << e.log();
        EXPECT_FALSE(e.kept_source().empty());
        EXPECT_NE(std::string(e.what()).find("not found on the include path (Options::includes, "
                                             "includes= in Python): smelt_no_such_header.h"),
                  std::string::npos)
            << e.what();
    }
}

#ifdef SMELT_HAVE_OPENCL
TEST(OpenCLExternal, HeaderFunction) {
    SMELT_OPENCL_OR_SKIP(cl);
    (void)cl;
    TempDir dir;
    spew(dir.path() / "my_cube.h", cube_header());
    check_header_cube("opencl", dir.path());
}

TEST(OpenCLExternal, SourceText) {
    SMELT_OPENCL_OR_SKIP(cl);
    (void)cl;
    check_source_text("opencl");
}

TEST(OpenCLExternal, LibsAreForTheCpuOnly) {
    SMELT_OPENCL_OR_SKIP(cl);
    Array X = Array::from_vector(inputs(), cl), Y = zeros(inputs().size(), DType::Float64, cl);
    Options o;
    o.backend = "opencl";
    o.libs = {"m"};
    Program p =
        program("def f(i, x, y):\n    y[i] = twice_plus(x[i], i)\n", {twice_plus_external()});
    EXPECT_THROW(Elementwise(p, "f", o)({X, Y}), UsageError);
}
#endif

#ifdef SMELT_HAVE_CUDA
TEST(CudaExternal, HeaderFunction) {
    SMELT_REQUIRE_CUDA();
    (void)cuda_dev;
    TempDir dir;
    spew(dir.path() / "my_cube.h", cube_header());
    check_header_cube("cuda", dir.path());
}

// NVRTC needs no device: the CUDA units calling a header's __device__ function and pasted
// __device__ code compile for sm_90 with the header directory as --include-path.
TEST(CudaExternalNvrtc, UnitsCompileWithoutADevice) {
    TempDir dir;
    spew(dir.path() / "my_cube.h", cube_header());
    Program p = program("def f(i, x, y):\n"
                        "    y[i] = my_cube(x[i]) + twice_plus(x[i], i)\n",
                        {cube_external(), twice_plus_external()});
    const Type dp = Type::pointer(Scalar::F64);
    std::string unit =
        primitives::elementwise_unit(*p.data().module, "f", {dp, dp}, Precision::Double,
                                     primitives::cuda::cuda_target(), "cuda")
            .source;
    EXPECT_NE(unit.find("__device__ static inline double smelt_test_twice_plus"),
              std::string::npos);
    cuda::NvrtcOutput out = cuda::nvrtc_compile(
        unit, "kernel.cu", cuda::nvrtc_options("sm_90", {"--include-path=" + dir.path().string()}));
    EXPECT_TRUE(out.ok) << out.log;

    // Without the include path the header is missing, and the log says which.
    out = cuda::nvrtc_compile(unit, "kernel.cu", cuda::nvrtc_options("sm_90"));
    EXPECT_FALSE(out.ok);
    EXPECT_NE(out.log.find("my_cube.h"), std::string::npos) << out.log;
}

TEST(CudaExternal, SourceText) {
    SMELT_REQUIRE_CUDA();
    (void)cuda_dev;
    check_source_text("cuda");
}
#endif

} // namespace
} // namespace smelt
