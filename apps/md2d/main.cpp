// md2d: the command-line driver. Parses the command line, loads and checks the YAML config,
// finds physics.py and hands over to run_md2d (apps/md2d/run.cpp). Exit status: 0 done,
// 130 stopped by Ctrl-C / SIGTERM (every file closed valid), 1 any error (message on stderr).
#include "common/config_yaml.h"
#include "common/stop_signal.h"
#include "md2d/config.h"
#include "md2d/run.h"
#include "smelt.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

namespace fs = std::filesystem;
using namespace smelt::apps;
using namespace smelt::apps::md2d;

namespace {

struct Overrides {
    std::optional<std::string> backend, precision, output;
    std::optional<int64_t> steps;
    std::optional<int> threads;
};

// physics.py: $SMELT_MD2D_PHYSICS, else beside the binary (installed layouts), else the source
// tree the binary was built from (SMELT_MD2D_PHYSICS_DEFAULT, set by CMake).
std::string find_physics(const char *argv0) {
    if (const char *env = std::getenv("SMELT_MD2D_PHYSICS"); env && *env) {
        if (!fs::is_regular_file(env))
            throw std::runtime_error(std::string("SMELT_MD2D_PHYSICS=") + env + ": no such file");
        return env;
    }
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) exe = fs::absolute(argv0, ec);
    std::vector<fs::path> tried = {exe.parent_path() / "physics.py",
                                   exe.parent_path() / "../share/smelt/md2d/physics.py",
                                   fs::path(SMELT_MD2D_PHYSICS_DEFAULT)};
    std::string list;
    for (const fs::path &p : tried) {
        if (fs::is_regular_file(p, ec)) return fs::weakly_canonical(p, ec).string();
        list += "\n  " + p.string();
    }
    throw std::runtime_error("physics.py not found; looked in:" + list +
                             "\nset SMELT_MD2D_PHYSICS to its path");
}

// Applies command-line values over the file's and notes them in the stored config text, so the
// H5MD file says how the run was actually made.
void apply(const Overrides &o, Md2dConfig &c) {
    std::string note;
    if (o.backend) {
        c.backend = *o.backend == "cuda"     ? Backend::Cuda
                    : *o.backend == "opencl" ? Backend::OpenCL
                                             : Backend::Cpu;
        note += " --backend " + *o.backend;
    }
    if (o.precision) {
        c.precision = *o.precision == "single" ? Precision::Single : Precision::Double;
        note += " --precision " + *o.precision;
    }
    if (o.steps) {
        c.integrator.steps = *o.steps;
        note += " --steps " + std::to_string(*o.steps);
    }
    if (o.output) {
        c.output.directory = *o.output;
        note += " --output " + *o.output;
    }
    if (o.threads) {
        c.threads = *o.threads;
        note += " --threads " + std::to_string(*o.threads);
    }
    if (!note.empty()) c.source.text += "\n# md2d run command-line overrides:" + note + "\n";
}

int run_command(const std::string &config_path, const Overrides &o, const char *argv0) {
    Md2dConfig config = load_md2d_config(config_path);
    apply(o, config);
    const std::string physics_path = find_physics(argv0);
    smelt::Program physics = smelt::Program::from_file(physics_path);
    std::printf("%sphysics      %s\n\n", describe(config).c_str(), physics_path.c_str());
    std::fflush(stdout);

    StopSignal stop;
    RunReport r = run_md2d(config, physics, stdout, &stop);
    const double rate = r.seconds > 0 ? double(r.steps_done) * double(config.n()) / r.seconds : 0;
    std::printf("\n%s after %lld steps in %.3f s: %.4g particle-steps/s, %lld neighbour builds, "
                "%d CPU threads\n",
                r.interrupted ? "stopped" : "done", (long long)r.steps_done, r.seconds, rate,
                (long long)r.neighbor_builds, r.threads);
    for (const std::string &f : r.files)
        std::printf("wrote %s\n", f.c_str());
    std::fflush(stdout);
    return r.interrupted ? 130 : 0;
}

int check_command(const std::string &config_path) {
    Md2dConfig config = load_md2d_config(config_path);
    std::printf("%s%s: ok\n", describe(config).c_str(), config_path.c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    CLI::App app{"md2d: 2D Lennard-Jones molecular dynamics on the Smelt engine "
                 "(see apps/md2d/README.md)"};
    app.set_version_flag("--version", std::string("md2d (smelt ") + SMELT_VERSION + ")");
    app.require_subcommand(1);

    std::string run_config, check_config, backend, precision, output;
    int64_t steps = 0;
    int threads = 0;
    CLI::App *run = app.add_subcommand("run", "run a simulation");
    run->add_option("config", run_config, "YAML configuration")->required();
    auto *o_backend = run->add_option("--backend", backend, "override `backend`")
                          ->check(CLI::IsMember({"cpu", "opencl", "cuda"}));
    auto *o_precision = run->add_option("--precision", precision, "override `precision`")
                            ->check(CLI::IsMember({"single", "double"}));
    auto *o_steps = run->add_option("--steps", steps, "override `integrator.steps`")
                        ->check(CLI::NonNegativeNumber);
    auto *o_output = run->add_option("--output", output, "override `output.directory`");
    auto *o_threads = run->add_option("--threads", threads, "override `threads` (0 = all)")
                          ->check(CLI::Range(0, 4096));
    CLI::App *check = app.add_subcommand("check", "validate a configuration and print it resolved");
    check->add_option("config", check_config, "YAML configuration")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        app.exit(e);
        return e.get_exit_code() == 0 ? 0 : 1;
    }
    Overrides o;
    if (o_backend->count()) o.backend = backend;
    if (o_precision->count()) o.precision = precision;
    if (o_steps->count()) o.steps = steps;
    if (o_output->count()) o.output = output;
    if (o_threads->count()) o.threads = threads;
    try {
        if (*check) return check_command(check_config);
        return run_command(run_config, o, argv[0]);
    } catch (const ConfigError &e) {
        std::fflush(stdout);
        std::cerr << e.what() << "\n";
    } catch (const std::exception &e) { // smelt::Error (engine), writers, file system
        std::fflush(stdout);
        std::cerr << "md2d: error: " << e.what() << "\n";
    }
    return 1;
}
