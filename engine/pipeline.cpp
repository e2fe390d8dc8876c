#include "pipeline.h"

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "frontend/ast_printer.h"
#include "frontend/parser.h"
#include "ir/passes/pass_list.h"
#include "ir/printer.h"
#include "support/debug.h"
#include "support/error.h"
#include "types/lower.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace smelt {

std::shared_ptr<const SourceFile> read_source_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("cannot read kernel file '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    return std::make_shared<SourceFile>(path, ss.str());
}

std::shared_ptr<const ast::Module> parse_source(std::shared_ptr<const SourceFile> file) {
    auto module = frontend::parse(std::move(file));
    if (debug::level() >= 4) debug::dump("ast", frontend::print_ast(*module));
    return module;
}

std::shared_ptr<ir::Module> build_ir(const ast::Module &module,
                                     const std::vector<KernelRequest> &requests,
                                     const CompileOptions &options) {
    auto lowered = types::lower_module(module, requests, options);
    if (debug::level() >= 2) debug::dump("ir (lowered)", ir::print(*lowered));
    return ir::run_passes(*lowered, [](const std::string &pass, const ir::Module &m) {
        if (debug::level() >= 2) debug::dump("ir after " + pass, ir::print(m));
    });
}

std::string emit_source(const ir::Module &module, const std::string &backend) {
    if (backend != "cpu") throw UsageError("no code generator for backend '" + backend + "' yet");
    const codegen::Dialect &d = codegen::cpp_dialect();
    return codegen::prelude(d) + "\n" + codegen::emit_module(module, d);
}

std::vector<Diagnostic> check_functions(const ast::Module &module,
                                        const std::vector<std::string> &names,
                                        const CompileOptions &options) {
    std::vector<KernelRequest> requests;
    for (const auto &n : names) requests.push_back({n, {}, {}});
    if (names.empty())
        for (const auto &fn : module.functions)
            if (fn->is_annotated()) requests.push_back({fn->name, {}, {}});
    try {
        build_ir(module, requests, options);
    } catch (const CompileError &e) {
        return e.diagnostics();
    }
    return {};
}

} // namespace smelt
