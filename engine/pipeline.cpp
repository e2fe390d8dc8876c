#include "pipeline.h"

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "frontend/ast_printer.h"
#include "frontend/imports.h"
#include "frontend/parser.h"
#include "ir/passes/pass_list.h"
#include "ir/printer.h"
#include "lower/annotations.h"
#include "lower/externals.h"
#include "lower/lower.h"
#include "support/debug.h"
#include "support/error.h"

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

std::shared_ptr<const ast::Module>
parse_program(std::shared_ptr<const SourceFile> main, const std::vector<std::string> &kernel_path,
              const std::map<std::string, ConstantValue> &constants,
              const std::vector<External> &externals) {
    lower::check_externals(externals);
    auto module =
        frontend::load_program(std::move(main), frontend::kernel_search_path(kernel_path));
    frontend::override_constants(*module, constants);
    module->externals = externals;
    if (debug::level() >= 4)
        for (const ast::Module *m : module->program_modules())
            debug::dump("ast of " + m->source->name(), frontend::print_ast(*m));
    return module;
}

std::shared_ptr<ir::Module> build_ir(const ast::Module &module,
                                     const std::vector<KernelRequest> &requests,
                                     const CompileOptions &options) {
    auto lowered = lower::lower_module(module, requests, options);
    if (debug::level() >= 2) debug::dump("ir (lowered)", ir::print(*lowered));
    return ir::run_passes(*lowered, [](const std::string &pass, const ir::Module &m) {
        if (debug::level() >= 2) debug::dump("ir after " + pass, ir::print(m));
    });
}

std::string emit_source(const ir::Module &module, const std::string &backend) {
    const codegen::Dialect &d = codegen::dialect_for_backend(backend);
    // OpenCL: the fp64 parts (pragma, double helpers) only when the program uses double, so a
    // single-precision program builds on a device without fp64. The C++ prelude is always whole.
    bool with_f64 = d.f64_enable.empty() || codegen::uses_scalar(module, Scalar::F64);
    return codegen::prelude(d, with_f64) + "\n" + codegen::emit_module(module, d);
}

std::vector<Diagnostic> check_functions(const ast::Module &module,
                                        const std::vector<std::string> &names,
                                        const CompileOptions &options) {
    // (the name a function is asked for by, which may be an imported alias; the function)
    std::vector<std::pair<std::string, const ast::FunctionDef *>> fns;
    for (const auto &n : names) {
        const ast::FunctionDef *fn = module.resolve_function(n);
        if (!fn) throw UsageError("no function named '" + n + "' in " + module.source->name());
        fns.emplace_back(n, fn);
    }
    if (names.empty())
        for (const auto &fn : module.functions)
            if (fn->is_annotated()) fns.emplace_back(fn->name, fn.get());
    // A function with parameters typed only at the call (JIT) cannot be type-checked alone:
    // its syntax is checked, the rest when a primitive specialises it.
    std::vector<KernelRequest> requests;
    std::vector<Diagnostic> untyped_errors;
    for (const auto &[name, fn] : fns) {
        DiagnosticSink scratch(module.source);
        auto declared = lower::read_declared_types(*fn, false, scratch);
        bool typed = true;
        for (size_t k = 0; k < fn->params.size(); ++k)
            typed = typed && (declared.params[k] || declared.defaults[k] ||
                              fn->params[k].name == "i" || fn->params[k].name == "N");
        if (typed)
            requests.push_back({name, {}, {}});
        else {
            untyped_errors.insert(untyped_errors.end(), fn->errors.begin(), fn->errors.end());
            for (const auto &d : scratch.diagnostics())
                untyped_errors.push_back(d);
        }
    }
    std::vector<Diagnostic> out;
    try {
        build_ir(module, requests, options);
    } catch (const CompileError &e) {
        out = e.diagnostics();
    }
    out.insert(out.end(), untyped_errors.begin(), untyped_errors.end());
    sort_diagnostics(out, module.source->name());
    return out;
}

} // namespace smelt
