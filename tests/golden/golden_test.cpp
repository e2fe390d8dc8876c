// Golden files: the AST, IR and generated C++ of every tests/golden/*.py, compared with the
// stored text. scripts/update_golden.sh regenerates them (SMELT_UPDATE_GOLDEN=1 makes this test
// write instead of compare); reviewing that diff is the check.
// The generated C++ of every case must also compile with the system compiler, warnings as errors.
#include "golden_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

std::string read_or_empty(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> golden_cases() {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(std::string(SMELT_TEST_DATA_DIR) + "/golden"))
        if (e.path().extension() == ".py") out.push_back(e.path().stem().string());
    std::sort(out.begin(), out.end());
    return out;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesStoredText) {
    fs::path dir = fs::path(SMELT_TEST_DATA_DIR) / "golden";
    for (const auto &stage : smelt::testing::golden_stages()) {
        fs::path expected_path = dir / (GetParam() + "." + stage);
        std::string actual = smelt::testing::golden_text((dir / (GetParam() + ".py")).string(), stage);
        if (std::getenv("SMELT_UPDATE_GOLDEN")) {
            std::ofstream(expected_path) << actual;
            continue;
        }
        ASSERT_TRUE(fs::exists(expected_path))
            << expected_path << " is missing: run scripts/update_golden.sh and review the diff";
        EXPECT_EQ(actual, read_or_empty(expected_path))
            << "stage " << stage << " of " << GetParam()
            << " changed: run scripts/update_golden.sh and review the diff";
    }
}

TEST_P(Golden, GeneratedCppCompilesWithWarningsAsErrors) {
    fs::path dir = fs::path(SMELT_TEST_DATA_DIR) / "golden";
    fs::path tmp = fs::temp_directory_path() / ("smelt_golden_" + GetParam());
    fs::create_directories(tmp);
    for (const char *stage : {"cpp", "single.cpp"}) {
        fs::path src = tmp / (GetParam() + "." + stage);
        std::ofstream(src) << smelt::codegen::prelude(smelt::codegen::cpp_dialect()) << "\n"
                           << smelt::testing::golden_text((dir / (GetParam() + ".py")).string(), stage);
        std::string cmd = std::string(SMELT_CXX) + " -std=c++17 -O1 -Wall -Werror -fopenmp -c " +
                          src.string() + " -o " + (tmp / "out.o").string() + " 2>&1";
        EXPECT_EQ(std::system(cmd.c_str()), 0) << "generated source does not compile: " << src;
    }
}

INSTANTIATE_TEST_SUITE_P(All, Golden, ::testing::ValuesIn(golden_cases()));

} // namespace
