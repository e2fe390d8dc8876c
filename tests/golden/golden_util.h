// Produces the golden text of one stage for a golden case: the AST, the IR, and the emitted
// functions (without the prelude) in C++ and OpenCL C, each in double and single precision.
#pragma once

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "frontend/ast_printer.h"
#include "ir/printer.h"
#include "pipeline.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace smelt::testing {

inline std::vector<std::string> golden_stages() {
    return {"ast", "ir", "cpp", "single.cpp", "cl", "single.cl"};
}

// The case is named by its file name only, so #line directives in golden text do not depend on
// where the repository is checked out.
inline std::string golden_text(const std::string &path, const std::string &stage) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    auto file = std::make_shared<SourceFile>(std::filesystem::path(path).filename().string(), ss.str());
    auto module = parse_source(file);
    if (stage == "ast") return frontend::print_ast(*module);
    CompileOptions opts;
    if (stage == "single.cpp" || stage == "single.cl") opts.precision = Precision::Single;
    const bool cl = stage == "cl" || stage == "single.cl";
    if (cl) opts.backend = "opencl";
    std::vector<KernelRequest> requests;
    for (const auto &fn : module->functions)
        if (fn->is_annotated()) requests.push_back({fn->name, {}, {}});
    auto ir = build_ir(*module, requests, opts);
    if (stage == "ir") return ir::print(*ir);
    return codegen::emit_module(*ir, cl ? codegen::opencl_dialect() : codegen::cpp_dialect());
}

} // namespace smelt::testing
