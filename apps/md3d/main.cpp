// md3d: the command line is the kit's (apps/common/cli.h: run, check, --help, --version, exit
// status); md3d supplies its schema, describe() and its Stepper.
#include "common/app.h"
#include "common/domain/mpi_env.h"
#include "md3d/config.h"
#include "md3d/simulation.h"

int main(int argc, char **argv) {
    using namespace smelt::apps;
    // Under mpirun: MPI for the whole run and a domain decomposition over the ranks
    // (md3d/domain.h); a plain start stays serial.
    mpi::Session mpi_session(&argc, &argv);
    App<md3d::Md3dConfig> app;
    app.name = "md3d";
    app.description = "3D Lennard-Jones molecular dynamics on the Smelt engine "
                      "(see apps/md3d/README.md)";
    app.kernels = {"SMELT_MD3D_PHYSICS", "physics.py", "md3d", SMELT_MD3D_PHYSICS_DEFAULT};
    app.parse = md3d::parse_md3d_config;
    app.describe = [](const md3d::Md3dConfig &c) { return md3d::describe(c); };
    app.steps = [](const md3d::Md3dConfig &c) { return c.integrator.steps; };
    app.make_stepper = [](const md3d::Md3dConfig &c, const smelt::Program &physics) {
        return std::unique_ptr<Stepper>(std::make_unique<md3d::Simulation>(c, physics));
    };
    return cli_main(app, argc, argv);
}
