// vortex on the kit's checkpoints: a run stopped part way and restarted from its checkpoint leaves
// the same trajectory (positions, velocities, circulations), observables and CSV bit for bit as a
// run that went through (CPU backend, one thread), for every integrator, double and single
// precision, unbounded and periodic; the tiled Kernel too on OpenCL.
#include "common/run_loop.h"
#include "h5_read.h"
#include "vortex/simulation.h"
#include "vortex_test_util.h"

#include <gtest/gtest.h>

using namespace smelt::apps;
using namespace smelt::apps::vortex;
using namespace smelt::apps::vortex_test;
using namespace smelt::apps::test_util;
namespace fs = std::filesystem;

namespace {

#if SMELT_APPS_HAVE_HDF5

const std::vector<std::string> kSeries = {"particles/all/position",      "particles/all/velocity",
                                          "particles/all/circulation",   "observables/circulation",
                                          "observables/impulse_x",       "observables/impulse_y",
                                          "observables/angular_impulse", "observables/hamiltonian"};

RunReport run(const VortexConfig &c, const fs::path &dir, int64_t steps,
              const std::string &restart = "") {
    VortexConfig in_dir = c;
    in_dir.output.directory = dir.string();
    Simulation sim(in_dir, vortex_physics());
    RunOptions o;
    o.app = "vortex";
    o.restart = restart;
    return run_simulation(in_dir, sim, steps, o);
}

void expect_restart_equals_uninterrupted(const VortexConfig &c) {
    const fs::path ref = vortex_temp_dir("restart_ref"), dir = vortex_temp_dir("restart");
    const std::string prefix = c.output.prefix;
    run(c, ref, 30);
    RunReport first = run(c, dir, 13); // ends off-interval: sample, frame and checkpoint at 13
    EXPECT_EQ(first.steps_done, 13);
    RunReport second = run(c, dir, 30, (dir / (prefix + "_checkpoint.h5")).string());
    EXPECT_EQ(second.first_step, 13);
    EXPECT_EQ(second.steps_done, 30);
    EXPECT_EQ(h5_series_difference((ref / (prefix + ".h5")).string(),
                                   (dir / (prefix + ".h5")).string(), kSeries),
              "");
    EXPECT_EQ(read_text(dir / (prefix + "_thermo.csv")), read_text(ref / (prefix + "_thermo.csv")));
    fs::remove_all(ref);
    fs::remove_all(dir);
}

struct RestartCase {
    const char *name, *yaml;
};

class VortexRestart : public ::testing::TestWithParam<RestartCase> {};

TEST_P(VortexRestart, StoppedAndRestartedRunEqualsTheUninterruptedOne) {
    OneCpuThread serial;
    expect_restart_equals_uninterrupted(vortex_config(GetParam().yaml));
}

INSTANTIATE_TEST_SUITE_P(
    Configs, VortexRestart,
    ::testing::Values(
        RestartCase{"Rk4Krasny", "physics: {regularisation: krasny, delta: 0.05}\n"
                                 "integrator: {kind: rk4, dt: 0.05, steps: 30}\n"
                                 "initial: {kind: patch, n: 40, circulation_spread: 1.5}\n"
                                 "output: {prefix: a, frame_interval: 5, thermo_interval: 3, "
                                 "progress: false}\n"},
        RestartCase{
            "SingleHeunGaussian",
            "precision: single\nphysics: {regularisation: gaussian, delta: 0.3}\n"
            "integrator: {kind: heun, dt: 0.1, steps: 30}\n"
            "initial: {kind: lamb_oseen, rings: 3}\n"
            "output: {prefix: b, frame_interval: 4, thermo_interval: 4, progress: false}\n"},
        RestartCase{"PeriodicSheetRk2",
                    "physics: {regularisation: krasny, delta: 0.2, periodic_x: true, period: 1}\n"
                    "integrator: {kind: rk2, dt: 0.05, steps: 30}\n"
                    "initial: {kind: sheet, n: 24, amplitude: 0.05}\n"
                    "output: {prefix: c, frame_interval: 6, thermo_interval: 5, progress: false, "
                    "checkpoint_interval: 4}\n"},
        RestartCase{
            "EulerPointRing",
            "integrator: {kind: euler, dt: 0.02, steps: 30}\n"
            "initial: {kind: ring, n: 9, perturbation: 0.1}\n"
            "output: {prefix: d, frame_interval: 1, thermo_interval: 1, progress: false}\n"}),
    [](const auto &info) { return std::string(info.param.name); });

TEST(OpenCLVortexRestart, TiledRunRestartsBitForBit) {
    VORTEX_OPENCL_OR_SKIP();
    expect_restart_equals_uninterrupted(
        vortex_config("backend: opencl\nphysics: {regularisation: krasny, delta: 0.05}\n"
                      "integrator: {dt: 0.05, steps: 30}\nevaluation: {tile: 16}\n"
                      "initial: {kind: patch, n: 40, circulation_spread: 1.5}\n"
                      "output: {prefix: t, frame_interval: 5, thermo_interval: 3, progress: "
                      "false}\n"));
}

// A checkpoint of another system (vortex count) is refused with the entry that does not fit.
TEST(VortexRestart, CheckpointOfAnotherSystemIsRefused) {
    const fs::path dir = vortex_temp_dir("restart_misfit");
    const std::string rest = "integrator: {dt: 0.05, steps: 5}\noutput: {prefix: m, progress: "
                             "false}\n";
    run(vortex_config("initial: {kind: ring, n: 7}\n" + rest), dir, 5);
    try {
        run(vortex_config("initial: {kind: ring, n: 8}\n" + rest), dir, 10,
            (dir / "m_checkpoint.h5").string());
        FAIL();
    } catch (const CheckpointError &e) {
        EXPECT_NE(std::string(e.what()).find("entry 'x' has 7 values, expected 8"),
                  std::string::npos)
            << e.what();
    }
    fs::remove_all(dir);
}

#endif

} // namespace
