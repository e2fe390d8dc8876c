// smelt check FILE [--func NAME]... [--path DIR]...: every error in the kernel functions (and the
// library functions they call), without compiling.
#include "cli/commands.h"

#include "pipeline.h"
#include "support/error.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <memory>

namespace smelt::cli {

namespace {

struct CheckArgs {
    std::string file;
    std::vector<std::string> funcs;
    std::string precision = "double";
    std::vector<std::string> path; // kernel search path (--path, repeatable)
};

void print_diagnostics(const std::vector<Diagnostic> &diags) {
    for (const Diagnostic &d : diags)
        std::cerr << d.rendered << "\n";
    std::cerr << diags.size() << (diags.size() == 1 ? " error\n" : " errors\n");
}

void run_check(const CheckArgs &args) {
    CompileOptions options;
    options.precision = args.precision == "single" ? Precision::Single : Precision::Double;
    std::shared_ptr<const ast::Module> module;
    try {
        module = parse_program(read_source_file(args.file), args.path);
    } catch (const CompileError &e) { // a file is not readable Python at module level, or an
                                      // import names what its kernel file does not define
        print_diagnostics(e.diagnostics());
        exit_status() = 1;
        return;
    }
    std::vector<Diagnostic> diags = check_functions(*module, args.funcs, options);
    if (!diags.empty()) {
        print_diagnostics(diags);
        exit_status() = 1;
        return;
    }
    size_t checked = args.funcs.size();
    if (args.funcs.empty())
        for (const auto &fn : module->functions)
            checked += fn->is_annotated() ? 1 : 0;
    std::printf("ok: %zu function%s checked\n", checked, checked == 1 ? "" : "s");
}

} // namespace

void add_check_command(CLI::App &app) {
    auto args = std::make_shared<CheckArgs>();
    CLI::App *cmd = app.add_subcommand(
        "check", "Report every error in kernel functions (file:line:col), without compiling");
    cmd->add_option("file", args->file, "Kernel file (.py)")->required();
    cmd->add_option("--func", args->funcs,
                    "Function to check (repeatable; default: every annotated or decorated "
                    "function; functions typed only at the call are checked for syntax)");
    cmd->add_option("--precision", args->precision, "double (default) or single")
        ->check(CLI::IsMember({"single", "double"}));
    cmd->add_option("--path", args->path,
                    "Directory searched for imported kernel files, after the file's own "
                    "directory and before $SMELT_KERNEL_PATH (repeatable)");
    cmd->callback([args] { run_check(*args); });
}

} // namespace smelt::cli
