#include "common/cli.h"

#include "common/app.h"
#include "common/checkpoint.h"
#include "common/domain/mpi_env.h"
#include "common/hdf5_errors.h"
#include "common/kernel_file.h"
#include "common/run_loop.h"
#include "common/stop_signal.h"

#include "backends/kernel_loader.h"
#include "cli/completion.h"
#include "support/backend_table.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <new>
#include <optional>

namespace smelt::apps {

namespace detail {

namespace {

struct Request {
    std::string config_path;
    std::vector<ConfigOverride> overrides;
    std::string restart;
    bool overwrite = false;
};

std::shared_ptr<const RunConfig> load(const AppHooks &app, const Request &r) {
    return app.parse(ConfigNode::load_file(r.config_path, r.overrides));
}

int check_command(const AppHooks &app, const Request &r) {
    auto config = load(app, r);
    std::printf("%s%s: ok\n", app.describe(*config).c_str(), r.config_path.c_str());
    return kExitDone;
}

int run_command(const AppHooks &app, const Request &r, const char *argv0) {
    auto config = load(app, r);
    const std::string physics_path = find_kernel_file(app.kernels, argv0);
    smelt::Program physics = load_kernel_program(physics_path);
    // In an MPI job rank 0 speaks for the run.
    const bool root = mpi::is_root();
    if (root) {
        std::printf("%sphysics      %s\n", app.describe(*config).c_str(), physics_path.c_str());
        if (mpi::distributed()) std::printf("mpi          %d ranks\n", mpi::size());
        if (!r.restart.empty()) std::printf("restart      %s\n", r.restart.c_str());
        std::printf("\n");
        std::fflush(stdout);
    }

    StopSignal stop;
    smelt::set_compile_notice(root); // the first run's compile is seconds of silence otherwise
    std::unique_ptr<Stepper> stepper = app.make_stepper(*config, physics);
    RunOptions options;
    options.app = app.name;
    options.units = app.units;
    options.h5md_units = app.h5md_units;
    options.console = root ? stdout : nullptr;
    options.stop = &stop;
    options.restart = r.restart;
    options.overwrite = r.overwrite;
    RunReport report = run_simulation(*config, *stepper, app.steps(*config), options);
    if (root) {
        std::printf("\n%s\n", summary_line(report, stepper->n()).c_str());
        for (const std::string &f : report.files)
            std::printf("wrote %s\n", f.c_str());
        std::fflush(stdout);
    }
    return report.interrupted ? kExitStopped : kExitDone;
}

} // namespace

int cli_main(const AppHooks &app, int argc, char **argv) {
    silence_hdf5_error_printing(); // every failure is reported in one line of our own
    CLI::App cli{app.name + ": " + app.description};
    cli.set_version_flag("--version", app.name + " (smelt " + SMELT_VERSION + ")");
    cli.require_subcommand(1);
    cli.footer("Exit status: 0 done, 1 configuration or run-time error, 2 command-line usage "
               "error, 130 stopped by Ctrl-C / SIGTERM (every output file valid).");

    std::string run_config, check_config, backend, precision, output, restart;
    int64_t steps = 0;
    int threads = 0;
    std::vector<std::string> run_sets, check_sets;
    auto add_set = [](CLI::App *cmd, std::vector<std::string> &sets) {
        cmd->add_option("--set", sets,
                        "override any config key: key.path=value (value read as YAML; "
                        "repeatable)")
            ->expected(1)
            ->allow_extra_args(false)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    };
    CLI::App *run = cli.add_subcommand("run", "run a simulation");
    run->add_option("config", run_config, "YAML configuration")->required();
    auto *o_backend = run->add_option("--backend", backend, "override `backend`")
                          ->check(CLI::IsMember(smelt::backend_families()));
    auto *o_precision = run->add_option("--precision", precision, "override `precision`")
                            ->check(CLI::IsMember({"single", "double", "mixed"}));
    auto *o_steps = run->add_option("--steps", steps, "override `" + app.steps_key + "`")
                        ->check(CLI::NonNegativeNumber);
    auto *o_output = run->add_option("--output", output, "override `output.directory`");
    auto *o_threads = run->add_option("--threads", threads, "override `threads` (0 = all)")
                          ->check(CLI::Range(0, 4096));
    add_set(run, run_sets);
    auto *o_restart = run->add_option(
        "--restart", restart, "continue the run of this checkpoint (<prefix>_checkpoint.h5)");
    bool overwrite = false;
    run->add_flag("--overwrite", overwrite,
                  "replace the output files of an earlier run (without it, such files stop the "
                  "run)")
        ->excludes(o_restart);
    CLI::App *check = cli.add_subcommand("check", "validate a configuration and print it resolved");
    check->add_option("config", check_config, "YAML configuration")->required();
    add_set(check, check_sets);

    CLI::App *completion = smelt::cli::add_completion_command(cli, app.name);

    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        cli.exit(e);
        return e.get_exit_code() == 0 ? kExitDone : kExitUsage;
    }
    if (completion->parsed()) return kExitDone; // its callback printed the script

    Request r;
    try {
        auto add = [&](CLI::Option *opt, const std::string &key, const std::string &value) {
            if (opt->count()) r.overrides.push_back({key, value, opt->get_name() + " " + value});
        };
        add(o_backend, "backend", backend);
        add(o_precision, "precision", precision);
        add(o_steps, app.steps_key, std::to_string(steps));
        add(o_threads, "threads", std::to_string(threads));
        // A directory name is text whatever it looks like: quote it for YAML.
        if (o_output->count()) {
            std::string quoted = "'";
            for (char c : output)
                quoted += c == '\'' ? std::string("''") : std::string(1, c);
            r.overrides.push_back({"output.directory", quoted + "'", "--output " + output});
        }
        for (const std::string &s : *check ? check_sets : run_sets)
            r.overrides.push_back(parse_set_option(s));
    } catch (const std::invalid_argument &e) {
        std::cerr << app.name << ": " << e.what() << "\n";
        return kExitUsage;
    }
    r.config_path = *check ? check_config : run_config;
    r.restart = restart;
    r.overwrite = overwrite;
    try {
        if (*check) return check_command(app, r);
        return run_command(app, r, argv[0]);
    } catch (const ConfigError &e) {
        std::fflush(stdout);
        std::cerr << e.what() << "\n";
    } catch (const std::bad_alloc &) {
        std::fflush(stdout);
        std::cerr << app.name << ": error: out of memory (the system is too large for this "
                  << "machine: fewer particles, or a device with more memory)\n";
    } catch (const std::exception &e) { // smelt::Error (engine), checkpoints, writers, files
        std::fflush(stdout);
        std::cerr << app.name << ": error: " << e.what() << "\n";
    }
    // The other ranks may wait in a collective for this one: end the whole job, now.
    if (mpi::distributed()) mpi::abort("", kExitError);
    return kExitError;
}

} // namespace detail

} // namespace smelt::apps
