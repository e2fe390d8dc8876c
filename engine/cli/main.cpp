// smelt: the command-line tool. Subcommands are registered from their own files (commands.h).
#include "cli/commands.h"

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

    smelt::cli::add_check_command(app);
    smelt::cli::add_emit_command(app);
    smelt::cli::add_devices_command(app);
    smelt::cli::add_cache_command(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e);
    } catch (const smelt::UsageError &e) {
        std::cerr << "smelt: error: " << e.what() << "\n";
        return 2;
    } catch (const smelt::Error &e) {
        std::cerr << "smelt: error: " << e.what() << "\n";
        return 1;
    }
    return smelt::cli::exit_status();
}
