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

// The parameter types of `# golden: FUNC NAME=TYPE ...` lines, for unannotated functions:
// TYPE is a type name ("double", "intp") or a global matrix as ELEM[D0,D1,...] ("double[4,5]"),
// which only a shaped argument can give.
inline std::vector<KernelRequest> golden_requests(const std::string &text) {
    std::vector<KernelRequest> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("# golden: ", 0) != 0) continue;
        std::istringstream words(line.substr(10));
        KernelRequest r;
        words >> r.name;
        for (std::string w; words >> w;) {
            const size_t eq = w.find('='), open = w.find('[');
            const std::string param = w.substr(0, eq);
            if (open == std::string::npos) {
                r.arg_types[param] = *parse_type_name(w.substr(eq + 1));
                continue;
            }
            std::vector<int64_t> dims;
            std::istringstream ds(w.substr(open + 1));
            for (int64_t d; ds >> d; ds.ignore(1))
                dims.push_back(d);
            const Type elem = *parse_type_name(w.substr(eq + 1, open - eq - 1));
            r.arg_types[param] = Type::matrix(elem.elem, dims, AddrSpace::Global);
        }
        out.push_back(std::move(r));
    }
    return out;
}

// The case is named by its file name only, so #line directives in golden text do not depend on
// where the repository is checked out.
inline std::string golden_text(const std::string &path, const std::string &stage) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    auto file =
        std::make_shared<SourceFile>(std::filesystem::path(path).filename().string(), ss.str());
    auto module = parse_source(file);
    if (stage == "ast") return frontend::print_ast(*module);
    CompileOptions opts;
    if (stage == "single.cpp" || stage == "single.cl") opts.precision = Precision::Single;
    const bool cl = stage == "cl" || stage == "single.cl";
    if (cl) opts.backend = "opencl";
    std::vector<KernelRequest> requests = golden_requests(ss.str());
    for (const auto &fn : module->functions)
        if (fn->is_annotated()) requests.push_back({fn->name, {}, {}});
    auto ir = build_ir(*module, requests, opts);
    if (stage == "ir") return ir::print(*ir);
    return codegen::emit_module(*ir, cl ? codegen::opencl_dialect() : codegen::cpp_dialect());
}

} // namespace smelt::testing
