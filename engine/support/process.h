// Runs an external program (the C++ compiler) and captures its output.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace smelt {

struct ProcessResult {
    bool started = false; // false when the program could not be run at all (see `output`)
    int exit_status = -1; // exit code, or 128 + signal number when killed by a signal
    std::string output;   // stdout and stderr interleaved, as a terminal would show them
};

// Runs argv[0] (searched on PATH when it has no '/') with arguments argv[1..] in `cwd`
// (empty: the current folder) and waits for it.
ProcessResult run_process(const std::vector<std::string> &argv,
                          const std::filesystem::path &cwd = {});

// Quotes an argument list for display ("g++ -O3 'a b.cpp'").
std::string shell_quote(const std::vector<std::string> &argv);

} // namespace smelt
