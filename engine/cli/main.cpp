// smelt: the command-line tool. Subcommands are registered from their own files (commands.h).
#include "cli/commands.h"
#include "cli/completion.h"

#include "backends/kernel_loader.h"
#include "support/error.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace smelt::cli {
int &exit_status() {
    static int status = 0;
    return status;
}
} // namespace smelt::cli

int main(int argc, char **argv) {
    CLI::App app{"Smelt: kernels written in restricted Python, compiled for CPUs and GPUs."};
    app.set_version_flag("--version", std::string("smelt ") + SMELT_VERSION);
    app.require_subcommand(1);

    smelt::set_compile_notice(true);
    smelt::cli::add_check_command(app);
    smelt::cli::add_emit_command(app);
    smelt::cli::add_devices_command(app);
    smelt::cli::add_cache_command(app);
    smelt::cli::add_convert_command(app);
    smelt::cli::add_builtins_command(app);
    smelt::cli::add_completion_command(app, "smelt");
    app.footer("Exit status: 0 done, 1 error, 2 command-line usage error.");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        // CLI11's own codes (105, 106, 109, ...) become the usage status every command shares.
        return app.exit(e) == 0 ? 0 : 2;
    } catch (const smelt::UsageError &e) {
        std::cerr << "smelt: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception &e) { // smelt::Error, and files the commands read or write
        std::cerr << "smelt: error: " << e.what() << "\n";
        return 1;
    }
    return smelt::cli::exit_status();
}
