// Arguments by parameter name for Elementwise, Reduction and Kernel: the same results as the
// positional calls and as hand-written loops, in any order, and UsageErrors that name unknown,
// missing and repeated names.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace smelt {
namespace {

using namespace testing_util;

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

std::string usage_error(const std::function<void()> &f) {
    try {
        f();
    } catch (const UsageError &e) {
        return e.what();
    }
    return "(no UsageError)";
}

TEST(Elementwise, ArgumentsByNameInAnyOrder) {
    Elementwise ss(kernels(), "scale_shift", test_options()); // y[i] = a * x[i] + b
    const std::vector<double> x = {1, -2, 3.5, 4, 0.25};
    Array X = to_device(x), Y = zeros(x.size(), DType::Float64, &test_device());
    ss(NamedArgs{{"b", 1.0}, {"y", Y}, {"a", 3.0}, {"x", X}});
    std::vector<double> want(x.size());
    for (size_t k = 0; k < x.size(); ++k)
        want[k] = 3.0 * x[k] + 1.0;
    EXPECT_EQ(Y.to_vector<double>(), want);
    // With n: only the first three items change.
    Array Z = zeros(x.size(), DType::Float64, &test_device());
    ss({{"x", X}, {"y", Z}, {"a", 2.0}, {"b", 0.0}}, 3);
    EXPECT_EQ(Z.to_vector<double>(), (std::vector<double>{2, -4, 7, 0, 0}));
}

TEST(Elementwise, NamedArgumentMistakesNameTheArgument) {
    Elementwise ss(kernels(), "scale_shift", test_options());
    Array X = zeros(4, DType::Float64, &test_device()),
          Y = zeros(4, DType::Float64, &test_device());
    std::string unknown = usage_error([&] {
        ss({{"x", X}, {"y", Y}, {"a", 1.0}, {"b", 1.0}, {"c", 2.0}});
    });
    EXPECT_TRUE(has(unknown, "'scale_shift' has no parameter 'c' (its parameters: 'x', 'y', "
                             "'a', 'b')"))
        << unknown;
    std::string index = usage_error([&] { ss({{"i", 0.0}, {"x", X}, {"y", Y}, {"a", 1.0}}); });
    EXPECT_TRUE(has(index, "no parameter 'i'")) << index; // the index is not an argument
    std::string missing = usage_error([&] { ss({{"x", X}, {"a", 1.0}}); });
    EXPECT_TRUE(has(missing, "'scale_shift': no argument for the parameters 'y', 'b'")) << missing;
    std::string twice = usage_error([&] { ss({{"x", X}, {"y", Y}, {"a", 1.0}, {"a", 2.0}}); });
    EXPECT_TRUE(has(twice, "'scale_shift': the argument 'a' is given twice")) << twice;
}

TEST(Reduction, ArgumentsByName) {
    Reduction r(&kernels(), "a+b", "twice", DType::Float64, "0", test_options()); // k * x[i]
    const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(r(NamedArgs{{"k", 3.0}, {"x", to_device(x)}}).as<double>(), 3.0 * 28);
    std::string missing = usage_error([&] { r(NamedArgs{{"x", to_device(x)}}); });
    EXPECT_TRUE(has(missing, "'twice': no argument for the parameter 'k'")) << missing;
    Reduction plain(nullptr, "a+b", "", DType::Float64, "0", test_options());
    std::string no_map = usage_error([&] { plain(NamedArgs{{"x", to_device(x)}}); });
    EXPECT_TRUE(has(no_map, "without map_func takes its one array by position")) << no_map;
}

TEST(Kernel, ArgumentsByName) {
    if (test_backend().rfind("opencl", 0) != 0 && test_backend().rfind("cuda", 0) != 0)
        GTEST_SKIP() << "Kernel needs work-groups (opencl or cuda); SMELT_TEST_BACKEND is "
                     << test_backend();
    static const Program p =
        Program::from_file(std::string(SMELT_TEST_DATA_DIR) + "/primitives/low_level_kernels.py");
    Kernel fill(p, "fill", test_options()); // x[GID_0 * LDIM_0 + LID_0] = value
    Array X = zeros(64, DType::Float64, &test_device());
    fill(64, 16, NamedLaunchArgs{{"value", 2.5}, {"x", X}});
    EXPECT_EQ(X.to_vector<double>(), std::vector<double>(64, 2.5));
    std::string unknown = usage_error([&] { fill(64, 16, NamedLaunchArgs{{"x", X}, {"v", 1.0}}); });
    EXPECT_TRUE(has(unknown, "Kernel 'fill' has no parameter 'v'")) << unknown;
}

} // namespace
} // namespace smelt
