// The layout of the OpenCL primitives (primitives/opencl/layout.h): by device type unless
// SMELT_OPENCL_LAYOUT says gpu or cpu, and the wrapper text each layout generates.
#include "opencl_test_util.h"

#include "../runtime/runtime_test_util.h"

#include <gtest/gtest.h>

#ifdef SMELT_HAVE_OPENCL

#include "primitives/opencl/layout.h"
#include "smelt.h"

namespace smelt {
namespace {

using primitives::opencl::Layout;
using primitives::opencl::layout_for;
using testing_util::ScopedEnv;

TEST(OpenCLLayout, EnvironmentOverridesTheDeviceType) {
    SMELT_OPENCL_OR_SKIP(cl);
    {
        ScopedEnv env("SMELT_OPENCL_LAYOUT", std::nullopt);
        EXPECT_EQ(layout_for(*cl), cl->device().summary.is_gpu ? Layout::Gpu : Layout::Cpu);
    }
    {
        ScopedEnv env("SMELT_OPENCL_LAYOUT", "gpu");
        EXPECT_EQ(layout_for(*cl), Layout::Gpu);
    }
    {
        ScopedEnv env("SMELT_OPENCL_LAYOUT", "cpu");
        EXPECT_EQ(layout_for(*cl), Layout::Cpu);
    }
    ScopedEnv env("SMELT_OPENCL_LAYOUT", "warp");
    try {
        layout_for(*cl);
        FAIL() << "an unknown layout should be refused";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("'warp'"), std::string::npos) << e.what();
    }
}

// Both layouts give the oracle's sum, and their generated kernels are the ones asked for.
TEST(OpenCLLayout, ReductionAndScanUseTheChosenLayout) {
    SMELT_OPENCL_OR_SKIP(cl);
    std::vector<int32_t> v(10007);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = int32_t(i % 13) - 6;
    int64_t want = 0;
    for (int32_t x : v)
        want += x;
    const Program p = Program::from_source("layout.py", "def ident(i, x):\n"
                                                        "    return x[i]\n"
                                                        "def put(i, item, y):\n"
                                                        "    y[i] = item\n");
    for (const char *layout : {"gpu", "cpu"}) {
        SCOPED_TRACE(layout);
        ScopedEnv env("SMELT_OPENCL_LAYOUT", layout);
        const bool gpu = std::string(layout) == "gpu";
        Reduction sum(nullptr, "a+b", "", DType::Int64, "0", Options{"opencl"});
        Array x = Array::from_vector(v, cl);
        EXPECT_EQ(sum({x}).as<int64_t>(), want);
        EXPECT_EQ(sum.source().find("reqd_work_group_size") != std::string::npos, gpu);
        Scan scan(p, "ident", "put", "a+b", DType::Int64, "0", "", Options{"opencl"});
        Array y = zeros(v.size(), DType::Int64, cl);
        scan({{"x", x}, {"y", y}});
        EXPECT_EQ(y.to_vector<int64_t>().back(), want);
        EXPECT_EQ(scan.source().find("(GPU layout)") != std::string::npos, gpu);
    }
}

} // namespace
} // namespace smelt

#endif
