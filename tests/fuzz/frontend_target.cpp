// The frontend fuzz target: one input is a kernel file. It is parsed, every function is
// checked (`smelt check`), and every function that type-checks — with unannotated parameters
// typed as double arrays, the index as long — is lowered and emitted for the C++ and OpenCL
// dialects (`smelt emit`). A located CompileError or a UsageError is the right answer to a
// bad file; anything else (a crash, an InternalError, another exception) is a finding.
//
// libFuzzer's entry point, so the same target runs under libFuzzer (clang -fsanitize=fuzzer,
// scripts/fuzz.sh) or under the plain mutation driver (mutation_driver.cpp).
#include "frontend/ast.h"
#include "ir/ir.h"
#include "lower/annotations.h"
#include "pipeline.h"
#include "support/error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

using namespace smelt;

void compile_each_function(const ast::Module &module) {
    CompileOptions options;
    (void)check_functions(module, {}, options);
    for (const auto &fn : module.functions) {
        if (!fn->errors.empty()) continue;
        KernelRequest request{fn->name, {}, {}};
        DiagnosticSink scratch(module.source);
        auto declared = lower::read_declared_types(*fn, false, scratch);
        if (!scratch.diagnostics().empty()) continue;
        for (size_t k = 0; k < fn->params.size(); ++k)
            if (!declared.params[k])
                request.arg_types[fn->params[k].name] =
                    k == 0 ? Type::scalar(Scalar::I64) : Type::pointer(Scalar::F64);
        try {
            auto ir = build_ir(module, {request}, options);
            (void)emit_source(*ir, "cpu");
            options.backend = "opencl";
            auto cl = build_ir(module, {request}, options);
            (void)emit_source(*cl, "opencl");
            options.backend = "cpu";
        } catch (const CompileError &) {
            options.backend = "cpu";
        } catch (const UsageError &) {
            options.backend = "cpu";
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    try {
        auto module = parse_source(std::make_shared<SourceFile>("fuzz.py", std::move(text)));
        compile_each_function(*module);
    } catch (const CompileError &) {
    } catch (const UsageError &) {
    } catch (const std::exception &e) {
        // InternalError (a broken invariant) and anything unexpected are bugs.
        std::fprintf(stderr, "smelt fuzz target: unexpected exception: %s\n", e.what());
        std::abort();
    }
    return 0;
}
