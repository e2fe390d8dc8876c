// The `smelt` subcommands. Each lives in its own cmd_<name>.cpp and defines one
// add_<name>_command(app) that registers the subcommand and its callback; main.cpp calls them
// in the order they appear in --help.
//
// A callback reports failure by throwing smelt::Error (exit status 1; UsageError: 2) or by
// setting exit_status() (e.g. `smelt check` found errors and printed them itself). Exit status,
// as every Smelt command: 0 done, 1 error, 2 command-line usage error.
#pragma once

namespace CLI {
class App;
}

namespace smelt::cli {

int &exit_status(); // 0 unless a command sets it

void add_devices_command(CLI::App &app);  // cmd_devices.cpp
void add_cache_command(CLI::App &app);    // cmd_cache.cpp
void add_check_command(CLI::App &app);    // cmd_check.cpp: smelt check FILE.py [--func NAME]
void add_emit_command(CLI::App &app);     // cmd_emit.cpp:  smelt emit FILE.py FUNC [...]
void add_convert_command(CLI::App &app);  // cmd_convert.cpp: smelt convert IN.h5 OUT [...]
void add_builtins_command(CLI::App &app); // cmd_builtins.cpp: smelt builtins

} // namespace smelt::cli
