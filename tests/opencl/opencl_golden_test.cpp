// The OpenCL C of every golden case (tests/golden/*.cl, *.single.cl) builds on the OpenCL
// device with the prelude in front; the single-precision translation unit contains no "double"
// at all.
#include "../golden/golden_util.h"
#include "opencl_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#ifdef SMELT_HAVE_OPENCL

namespace fs = std::filesystem;

namespace smelt {
namespace {

std::vector<std::string> cases() {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(std::string(SMELT_TEST_DATA_DIR) + "/golden"))
        if (e.path().extension() == ".py") out.push_back(e.path().stem().string());
    std::sort(out.begin(), out.end());
    return out;
}

class OpenCLGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(OpenCLGolden, GeneratedOpenCLBuildsOnTheDevice) {
    SMELT_OPENCL_OR_SKIP(cl);
    const codegen::Dialect &d = codegen::opencl_dialect();
    std::string py = (fs::path(SMELT_TEST_DATA_DIR) / "golden" / (GetParam() + ".py")).string();
    for (const char *stage : {"cl", "single.cl"}) {
        const bool single = std::string(stage) == "single.cl";
        std::string body = testing::golden_text(py, stage);
        if (single) EXPECT_EQ(body.find("double"), std::string::npos) << body;
        if (!single && !cl->has_fp64()) continue;
        // NVIDIA's OpenCL compiler crashes on a program without any kernel: add an empty one.
        std::string tu = codegen::prelude(d, !single) + "\n" + body +
                         "\n__kernel void smelt_probe(__global int *p) { p[0] = 0; }\n";
        if (single) EXPECT_EQ(tu.find("double"), std::string::npos);
        // Through the backend's cache (SMELT_CACHE_DIR), so reruns do not rebuild. A failed
        // build is a BackendError carrying the device's log; drivers differ in the warnings
        // they print, which are allowed.
        try {
            cl->compile({tu, {}, "golden", GetParam() + "." + stage});
        } catch (const BackendError &e) {
            ADD_FAILURE() << stage << " of " << GetParam() << " does not build:\n" << e.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(All, OpenCLGolden, ::testing::ValuesIn(cases()));

} // namespace
} // namespace smelt

#else

TEST(OpenCLGolden, Skipped) {
    GTEST_SKIP() << "no OpenCL device: smelt was built without OpenCL";
}

#endif
