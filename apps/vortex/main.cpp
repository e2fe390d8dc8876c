// vortex: the command line is the kit's (apps/common/cli.h: run, check, --help, --version, exit
// status); vortex supplies its schema, describe() and its Stepper.
#include "common/app.h"
#include "vortex/config.h"
#include "vortex/simulation.h"

int main(int argc, char **argv) {
    using namespace smelt::apps;
    App<vortex::VortexConfig> app;
    app.name = "vortex";
    app.description = "2D point vortices and vortex blobs on the Smelt engine "
                      "(see apps/vortex/README.md)";
    app.units = "dimensionless: length, circulation, time = length^2/circulation";
    app.h5md_units = {}; // no H5MD unit system: no @unit attributes
    app.kernels = {"SMELT_VORTEX_PHYSICS", "physics.py", "vortex", SMELT_VORTEX_PHYSICS_DEFAULT};
    app.parse = vortex::parse_vortex_config;
    app.describe = [](const vortex::VortexConfig &c) { return vortex::describe(c); };
    app.steps = [](const vortex::VortexConfig &c) { return c.integrator.steps; };
    app.make_stepper = [](const vortex::VortexConfig &c, const smelt::Program &physics) {
        return std::unique_ptr<Stepper>(std::make_unique<vortex::Simulation>(c, physics));
    };
    return cli_main(app, argc, argv);
}
