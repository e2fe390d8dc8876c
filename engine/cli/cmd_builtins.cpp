// smelt builtins: the kernel language's builtins (lower/builtins.cpp's table) as the markdown
// table of docs/LANGUAGE.md's Builtins section; scripts/check_builtins_doc.sh compares the two.
#include "cli/commands.h"

#include "lower/builtins.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace smelt::cli {

void add_builtins_command(CLI::App &app) {
    CLI::App *cmd =
        app.add_subcommand("builtins", "Print the kernel language's builtins as a markdown table");
    cmd->callback([] { std::cout << lower::builtin_table_markdown(); });
}

} // namespace smelt::cli
