// md2d: the command line is the kit's (apps/common/cli.h: run, check, --help, --version, exit
// status); md2d supplies its schema, describe() and its Stepper.
#include "common/app.h"
#include "common/domain/mpi_env.h"
#include "md2d/config.h"
#include "md2d/simulation.h"

int main(int argc, char **argv) {
    using namespace smelt::apps;
    // Under mpirun: MPI for the whole run and a domain decomposition over the ranks
    // (md2d/domain.h); a plain start stays serial.
    mpi::Session mpi_session(&argc, &argv);
    App<md2d::Md2dConfig> app;
    app.name = "md2d";
    app.description = "2D Lennard-Jones molecular dynamics on the Smelt engine "
                      "(see apps/md2d/README.md)";
    app.kernels = {"SMELT_MD2D_PHYSICS", "physics.py", "md2d", SMELT_MD2D_PHYSICS_DEFAULT};
    app.parse = md2d::parse_md2d_config;
    app.describe = [](const md2d::Md2dConfig &c) { return md2d::describe(c); };
    app.steps = [](const md2d::Md2dConfig &c) { return c.integrator.steps; };
    app.make_stepper = [](const md2d::Md2dConfig &c, const smelt::Program &physics) {
        return std::unique_ptr<Stepper>(std::make_unique<md2d::Simulation>(c, physics));
    };
    return cli_main(app, argc, argv);
}
