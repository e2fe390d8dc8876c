// Every semantics case compiles in the engine: parse_source + build_ir for the case's kernel
// (its parameters typed as the runner passes them, which must agree with any annotation; helpers
// specialised from the calls) + emit_source for the CPU,
// in double and single precision, and the system C++ compiler accepts the generated source
// with warnings as errors. A CompileError here means the engine rejects a program the language
// reference accepts (CPython runs it: see oracle_test.cpp).
#include "case_spec.h"
#include "pipeline.h"
#include "support/error.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace smelt::testing {
namespace {

namespace fs = std::filesystem;

std::string emitted_cpp(const CaseSpec &spec, Precision precision) {
    auto module = parse_source(read_source_file(spec.path));
    CompileOptions options;
    options.precision = precision;
    auto ir = build_ir(*module, {KernelRequest{spec.kernel, argument_types(spec), {}}}, options);
    return emit_source(*ir, "cpu");
}

std::string rendered(const CompileError &e) {
    std::string out;
    for (const auto &d : e.diagnostics())
        out += d.rendered + "\n";
    return out;
}

class CaseCompiles : public ::testing::TestWithParam<std::string> {};

TEST_P(CaseCompiles, EmittedCppCompiles) {
    CaseSpec spec = parse_case_spec(GetParam());
    fs::path dir = fs::temp_directory_path() / ("smelt_semcompile_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (Precision p : {Precision::Double, Precision::Single}) {
        const char *label = p == Precision::Double ? "double" : "single";
        std::string source;
        try {
            source = emitted_cpp(spec, p);
        } catch (const CompileError &e) {
            ADD_FAILURE() << "the engine rejects " << spec.name << " (" << label << " precision):\n"
                          << rendered(e);
            continue;
        }
        fs::path src = dir / (spec.name + "." + label + ".cpp");
        std::ofstream(src) << source;
        ProcessResult r = run_process(
            {SMELT_CXX, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", src.string()});
        EXPECT_TRUE(r.started && r.exit_status == 0) << "generated C++ for " << spec.name << " ("
                                                     << label << " precision) does not compile:\n"
                                                     << r.output << "\n--- source ---\n"
                                                     << source;
    }
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Cases, CaseCompiles, ::testing::ValuesIn(case_files()),
                         [](const auto &info) { return case_name(info.param); });

} // namespace
} // namespace smelt::testing
