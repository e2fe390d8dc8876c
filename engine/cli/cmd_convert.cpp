// smelt convert INPUT.h5 OUTPUT [--format F] [--frame K]: an app's H5MD file to GSD (HOOMD-blue),
// a LAMMPS data file or a LAMMPS dump. The converter is Python (h5py, and the gsd package for
// GSD): python/smelt/convert.py, which this command runs with every argument after `convert`
// (its --help too), so the options and the exit status (0 done, 1 error, 2 usage) are its own.
#include "cli/commands.h"

#include "support/error.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace smelt::cli {

namespace {

namespace fs = std::filesystem;

// $SMELT_CONVERT_SCRIPT, else the installed copy <bin>/../share/smelt/convert.py, else the
// source tree's.
std::string converter_script() {
    if (const char *env = std::getenv("SMELT_CONVERT_SCRIPT"); env && *env) return env;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    std::vector<fs::path> tried;
    if (!ec) tried.push_back(exe.parent_path() / "../share/smelt/convert.py");
    tried.push_back(SMELT_CONVERT_SOURCE);
    std::string list;
    for (const fs::path &p : tried) {
        if (fs::is_regular_file(p, ec)) return fs::weakly_canonical(p, ec).string();
        list += "\n  " + p.string();
    }
    throw Error("the converter (convert.py) is not found; looked in:" + list +
                "\nset SMELT_CONVERT_SCRIPT to its path");
}

// $SMELT_PYTHON, else the interpreter CMake found (it has NumPy and h5py where the tests ran).
std::string python() {
    if (const char *env = std::getenv("SMELT_PYTHON"); env && *env) return env;
    return SMELT_CLI_PYTHON;
}

[[noreturn]] void run_converter(const std::vector<std::string> &args) {
    const std::string py = python(), script = converter_script();
    std::vector<std::string> argv_s{py, script};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (std::string &a : argv_s)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(py.c_str(), argv.data());
    throw Error("cannot run the Python interpreter '" + py + "' (set SMELT_PYTHON)");
}

} // namespace

void add_convert_command(CLI::App &app) {
    CLI::App *cmd = app.add_subcommand(
        "convert", "Convert an app's H5MD file to GSD (HOOMD-blue), a LAMMPS data file or a "
                   "LAMMPS dump (`smelt convert --help` for the options)");
    cmd->prefix_command(); // every argument goes to the converter, --help included
    cmd->set_help_flag();
    cmd->callback([cmd] { run_converter(cmd->remaining()); });
}

} // namespace smelt::cli
