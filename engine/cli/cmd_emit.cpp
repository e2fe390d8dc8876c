// smelt emit FILE FUNC: the generated source of one function (device code and prelude), or the
// whole translation unit a primitive compiles (--primitive elementwise).
#include "cli/commands.h"

#include "pipeline.h"
#include "primitives/elementwise_unit.h"
#include "primitives/target.h"
#include "support/error.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace smelt::cli {

namespace {

struct EmitArgs {
    std::string file, func;
    std::string backend = "cpu";
    std::string signature;
    std::string precision = "double";
    std::string primitive = "none";
    std::vector<std::string> path; // kernel search path (--path, repeatable)
};

// "x=doublep, n=int" → {x: doublep, n: int}.
std::map<std::string, Type> parse_signature(const std::string &text) {
    std::map<std::string, Type> out;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        std::string item =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        pos = comma == std::string::npos ? text.size() + 1 : comma + 1;
        auto trim = [](std::string s) {
            s.erase(0, s.find_first_not_of(" \t"));
            s.erase(s.find_last_not_of(" \t") + 1);
            return s;
        };
        item = trim(item);
        if (item.empty()) continue;
        size_t eq = item.find('=');
        if (eq == std::string::npos)
            throw UsageError("--signature: expected NAME=TYPE, not '" + item + "'");
        std::string name = trim(item.substr(0, eq)), type = trim(item.substr(eq + 1));
        std::optional<Type> t = parse_type_name(type);
        if (name.empty() || !t)
            throw UsageError("--signature: '" + type + "' is not a kernel type (in '" + item +
                             "')");
        out[name] = *t;
    }
    return out;
}

void run_emit(const EmitArgs &args) {
    CompileOptions options;
    options.precision = args.precision == "single" ? Precision::Single : Precision::Double;
    // Code generation depends on the backend kind only ("cpu:serial" emits what "cpu" does).
    options.backend = args.backend.substr(0, args.backend.find(':'));
    const std::map<std::string, Type> sig = parse_signature(args.signature);
    try {
        auto module = parse_program(read_source_file(args.file), args.path);
        const ast::FunctionDef *fn = module->resolve_function(args.func);
        if (!fn) throw UsageError("no function named '" + args.func + "' in " + args.file);
        for (const auto &[name, _] : sig) {
            bool found = false;
            for (const auto &p : fn->params)
                found |= p.name == name;
            if (!found)
                throw UsageError("--signature: '" + name + "' is not a parameter of '" + args.func +
                                 "'");
        }
        if (args.primitive == "none") {
            auto m = build_ir(*module, {{args.func, sig, {}}}, options);
            std::cout << emit_source(*m, options.backend);
            return;
        }
        if (!fn->params.empty() && sig.count(fn->params[0].name))
            throw UsageError("--signature: the index parameter '" + fn->params[0].name +
                             "' is typed by its annotation (default long)");
        std::vector<std::optional<Type>> given;
        for (size_t k = 1; k < fn->params.size(); ++k) {
            auto it = sig.find(fn->params[k].name);
            given.push_back(it == sig.end() ? std::nullopt : std::optional<Type>(it->second));
        }
        primitives::ElementwiseUnit unit = primitives::elementwise_unit(
            *module, args.func, given, options.precision,
            primitives::primitive_target(options.backend), options.backend);
        std::cout << unit.source;
    } catch (const CompileError &e) {
        for (const Diagnostic &d : e.diagnostics())
            std::cerr << d.rendered << "\n";
        exit_status() = 1;
    }
}

} // namespace

void add_emit_command(CLI::App &app) {
    auto args = std::make_shared<EmitArgs>();
    CLI::App *cmd = app.add_subcommand(
        "emit", "Print the source generated for a kernel function (types from its annotations "
                "and --signature)");
    cmd->add_option("file", args->file, "Kernel file (.py)")->required();
    cmd->add_option("func", args->func, "Function to emit")->required();
    cmd->add_option("--backend", args->backend, "Target backend (default cpu)");
    cmd->add_option("--path", args->path,
                    "Directory searched for imported kernel files, after the file's own "
                    "directory and before $SMELT_KERNEL_PATH (repeatable)");
    cmd->add_option("--signature", args->signature,
                    "Types of unannotated parameters, e.g. 'x=doublep,n=int'");
    cmd->add_option("--precision", args->precision, "double (default) or single")
        ->check(CLI::IsMember({"single", "double"}));
    cmd->add_option("--primitive", args->primitive,
                    "none (default): the device functions with the prelude; elementwise: the "
                    "whole translation unit Elementwise compiles")
        ->check(CLI::IsMember({"none", "elementwise"}));
    cmd->callback([args] { run_emit(*args); });
}

} // namespace smelt::cli
