// What an app hands the kit: its name, its config schema, describe() and a Stepper factory. The
// kit's command line (cli.h) does the rest, the same for every app:
//
//   int main(int argc, char **argv) {
//       smelt::apps::App<Md2dConfig> app;
//       app.name = "md2d";
//       app.description = "2D Lennard-Jones molecular dynamics";
//       app.kernels = {"SMELT_MD2D_PHYSICS", "physics.py", "md2d", SMELT_MD2D_PHYSICS_DEFAULT};
//       app.parse = parse_md2d_config;
//       app.describe = describe;
//       app.steps = [](const Md2dConfig &c) { return c.integrator.steps; };
//       app.make_stepper = [](const Md2dConfig &c, const smelt::Program &p) {
//           return std::make_unique<Simulation>(c, p);
//       };
//       return smelt::apps::cli_main(app, argc, argv);
//   }
#pragma once

#include "common/config_yaml.h"
#include "common/kernel_file.h"
#include "common/run_config.h"
#include "common/stepper.h"
#include "smelt.h"

#include <functional>
#include <memory>
#include <string>
#include <type_traits>

namespace smelt::apps {

// Config: the app's typed configuration, derived from RunConfig (run_config.h).
template <class Config> struct App {
    static_assert(std::is_base_of_v<RunConfig, Config>, "an app's config derives from RunConfig");

    std::string name;        // the binary's name: messages, --version, H5MD creator, checkpoints
    std::string description; // one line for --help
    std::string units;       // H5MD /parameters@units ("" = reduced Lennard-Jones units)
    // The H5MD units module and @unit attributes (the stepper's fields and columns name their
    // units in this system); an app without a unit system sets H5mdUnits{}.
    H5mdUnits h5md_units = H5mdUnits::lennard_jones();
    std::string steps_key = "integrator.steps"; // the config key that --steps sets
    KernelFile kernels;                         // where physics.py is found
    // The schema: a config from the parsed YAML (command-line overrides already applied).
    // Throws ConfigError.
    std::function<Config(const ConfigNode &root)> parse;
    // The resolved configuration, one aspect per line ("check" prints it, "run" starts with it).
    std::function<std::string(const Config &)> describe;
    // The number of steps the run ends at.
    std::function<int64_t(const Config &)> steps;
    // A stepper for the config (its state is set by Stepper::initialize() or restore()).
    std::function<std::unique_ptr<Stepper>(const Config &, const smelt::Program &)> make_stepper;
};

namespace detail {

// App<Config> with the config type erased (the configs travel as RunConfig).
struct AppHooks {
    std::string name, description, units, steps_key;
    KernelFile kernels;
    H5mdUnits h5md_units;
    std::function<std::shared_ptr<const RunConfig>(const ConfigNode &)> parse;
    std::function<std::string(const RunConfig &)> describe;
    std::function<int64_t(const RunConfig &)> steps;
    std::function<std::unique_ptr<Stepper>(const RunConfig &, const smelt::Program &)> make_stepper;
};

int cli_main(const AppHooks &app, int argc, char **argv);

template <class Config> AppHooks hooks(const App<Config> &app) {
    // Every RunConfig below came from this app's parse, so it is a Config.
    auto typed = [](const RunConfig &c) -> const Config & {
        return static_cast<const Config &>(c);
    };
    AppHooks h{app.name,    app.description,
               app.units,   app.steps_key,
               app.kernels, app.h5md_units,
               {},          {},
               {},          {}};
    h.parse = [parse = app.parse](const ConfigNode &root) -> std::shared_ptr<const RunConfig> {
        return std::make_shared<const Config>(parse(root));
    };
    h.describe = [describe = app.describe, typed](const RunConfig &c) {
        return describe(typed(c));
    };
    h.steps = [steps = app.steps, typed](const RunConfig &c) { return steps(typed(c)); };
    h.make_stepper = [make = app.make_stepper, typed](const RunConfig &c, const smelt::Program &p) {
        return make(typed(c), p);
    };
    return h;
}

} // namespace detail

// The command line of every app (cli.h documents it). Returns the exit status.
template <class Config> int cli_main(const App<Config> &app, int argc, char **argv) {
    return detail::cli_main(detail::hooks(app), argc, argv);
}

} // namespace smelt::apps
