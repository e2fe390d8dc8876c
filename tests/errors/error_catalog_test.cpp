// Runs every rejected program under tests/errors/ through the compiler (as `smelt check` does)
// and checks the first diagnostic against the file's first line:
//   # expect: LINE:COL: <message fragment>
#include "pipeline.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;

namespace {

std::vector<std::string> catalog_files() {
    std::vector<std::string> out;
    for (const auto &e :
         fs::recursive_directory_iterator(std::string(SMELT_TEST_DATA_DIR) + "/errors"))
        if (e.path().extension() == ".py") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

class ErrorCatalog : public ::testing::TestWithParam<std::string> {};

TEST_P(ErrorCatalog, FirstDiagnosticMatches) {
    const std::string path = GetParam();
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    std::smatch m;
    ASSERT_TRUE(std::regex_match(first, m, std::regex(R"(# expect: (\d+):(\d+): (.+))")))
        << path << ": first line must be '# expect: LINE:COL: fragment'";
    int line = std::stoi(m[1]), col = std::stoi(m[2]);
    std::string fragment = m[3];

    std::vector<smelt::Diagnostic> diags;
    try {
        auto module = smelt::parse_program(smelt::read_source_file(path));
        diags = smelt::check_functions(*module, {}, smelt::CompileOptions{});
    } catch (const smelt::CompileError &e) {
        diags = e.diagnostics();
    }
    ASSERT_FALSE(diags.empty()) << path << ": the compiler accepted a program it must reject";
    const auto &d = diags.front();
    EXPECT_EQ(d.loc.line, line) << d.rendered;
    EXPECT_EQ(d.loc.col, col) << d.rendered;
    EXPECT_NE(d.message.find(fragment), std::string::npos)
        << "expected fragment: " << fragment << "\ngot:\n"
        << d.rendered;
    EXPECT_EQ(d.file, path);
    // The rendering carries the source line and a caret under the column.
    EXPECT_NE(d.rendered.find("\n" + d.source_line + "\n"), std::string::npos) << d.rendered;
    std::string caret;
    for (int k = 0; k + 1 < col; ++k)
        caret += d.source_line.at(k) == '\t' ? '\t' : ' ';
    caret += "^";
    EXPECT_EQ(d.rendered.substr(d.rendered.size() - caret.size()), caret) << d.rendered;
}

std::string case_name(const ::testing::TestParamInfo<std::string> &info) {
    fs::path p(info.param);
    std::string name = p.parent_path().filename().string() + "_" + p.stem().string();
    for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(All, ErrorCatalog, ::testing::ValuesIn(catalog_files()), case_name);

TEST(ErrorCatalogSize, HasAtLeastFortyCases) {
    EXPECT_GE(catalog_files().size(), 40u);
}

} // namespace
