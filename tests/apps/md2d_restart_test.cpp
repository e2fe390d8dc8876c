// md2d on the kit's checkpoints: a run stopped part way and restarted from its checkpoint leaves
// the same trajectory, observables and CSV bit for bit as a run that went through (CPU backend),
// for double and single precision, periodic and walled boxes.
#include "common/run_loop.h"
#include "h5_read.h"
#include "md2d/simulation.h"
#include "md2d_test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace smelt::apps;
using namespace smelt::apps::md2d;
using namespace smelt::apps::test_util;
namespace fs = std::filesystem;

namespace {

#if SMELT_APPS_HAVE_HDF5

std::string read_text(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::vector<std::string> kSeries = {
    "particles/all/position",     "particles/all/velocity",   "observables/potential_energy",
    "observables/kinetic_energy", "observables/total_energy", "observables/temperature",
    "observables/pressure"};

RunReport run(const Md2dConfig &c, const fs::path &dir, int64_t steps,
              const std::string &restart = "") {
    Md2dConfig in_dir = c;
    in_dir.output.directory = dir.string();
    Simulation sim(in_dir, md2d_physics());
    RunOptions o;
    o.app = "md2d";
    o.restart = restart;
    return run_simulation(in_dir, sim, steps, o);
}

class Md2dRestart : public ::testing::TestWithParam<const char *> {};

TEST_P(Md2dRestart, StoppedAndRestartedRunEqualsTheUninterruptedOne) {
    SerialCpu serial; // the reductions' rounding depends on the thread count: keep it fixed
    const std::string yaml = GetParam();
    const Md2dConfig c = md2d_config(yaml);
    const fs::path ref = fresh_temp_dir("restart_ref"), dir = fresh_temp_dir("restart");
    const std::string prefix = c.output.prefix;
    run(c, ref, 50);
    RunReport first = run(c, dir, 23); // ends at 23: sample, frame and checkpoint off-interval
    EXPECT_EQ(first.steps_done, 23);
    RunReport second = run(c, dir, 50, (dir / (prefix + "_checkpoint.h5")).string());
    EXPECT_EQ(second.first_step, 23);
    EXPECT_EQ(second.steps_done, 50);
    EXPECT_EQ(h5_series_difference((ref / (prefix + ".h5")).string(),
                                   (dir / (prefix + ".h5")).string(), kSeries),
              "");
    EXPECT_EQ(read_text(dir / (prefix + "_thermo.csv")), read_text(ref / (prefix + "_thermo.csv")));
    fs::remove_all(ref);
    fs::remove_all(dir);
}

const char *const kConfigNames[] = {"Double", "Single", "Walls", "Reordered",
                                    "ReorderedAtTheRestart"};

INSTANTIATE_TEST_SUITE_P(
    Configs, Md2dRestart,
    ::testing::Values(
        // configs/ci/md2d_tiny.yaml's system, double and single precision
        "system: {lattice: square, cells: [10, 10], density: 0.6, temperature: 1.0, seed: 7}\n"
        "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 50}\n"
        "output: {prefix: sq, frame_interval: 10, thermo_interval: 5, progress: false}\n",
        "precision: single\n"
        "system: {lattice: square, cells: [10, 10], density: 0.6, temperature: 1.0, seed: 7}\n"
        "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 50}\n"
        "output: {prefix: sp, frame_interval: 10, thermo_interval: 5, progress: false}\n",
        // random start in soft walls, lists kept for several steps
        "system: {lattice: random, n: 120, density: 0.5, boundary: walls, temperature: 0.8, "
        "seed: 11}\nintegrator: {dt: 0.004, steps: 50}\n"
        "neighbor: {skin: 0.2, rebuild: displacement}\n"
        "output: {prefix: wall, frame_interval: 7, thermo_interval: 3, progress: false}\n",
        // particles reordered by cell every 7 steps (the checkpoint holds them in device order
        // with their ids), and at the step the run restarts from (23)
        "system: {lattice: square, cells: [12, 10], density: 0.6, temperature: 1.5, seed: 3}\n"
        "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 50}\n"
        "neighbor: {skin: 0.1, sort_interval: 7}\n"
        "output: {prefix: re, frame_interval: 10, thermo_interval: 5, progress: false}\n",
        "system: {lattice: square, cells: [12, 10], density: 0.6, temperature: 1.5, seed: 3}\n"
        "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 50}\n"
        "neighbor: {skin: 0.1, sort_interval: 23}\n"
        "output: {prefix: re23, frame_interval: 10, thermo_interval: 5, progress: false}\n"),
    [](const auto &info) { return std::string(kConfigNames[info.index]); });

// A checkpoint of another system (particle count) is refused with the entry that does not fit.
TEST(Md2dRestart, CheckpointOfAnotherSystemIsRefused) {
    SerialCpu serial;
    const fs::path dir = fresh_temp_dir("restart_misfit");
    Md2dConfig c =
        md2d_config("system: {lattice: square, cells: [10, 10], density: 0.6, temperature: 1.0}\n"
                    "integrator: {dt: 0.005, steps: 5}\noutput: {prefix: m, progress: false}\n");
    run(c, dir, 5);
    Md2dConfig other =
        md2d_config("system: {lattice: square, cells: [10, 11], density: 0.6, temperature: 1.0}\n"
                    "integrator: {dt: 0.005, steps: 5}\noutput: {prefix: m, progress: false}\n");
    try {
        run(other, dir, 10, (dir / "m_checkpoint.h5").string());
        FAIL();
    } catch (const CheckpointError &e) {
        EXPECT_NE(std::string(e.what()).find("entry 'x' has 100 values, expected 110"),
                  std::string::npos)
            << e.what();
    }
    fs::remove_all(dir);
}

#endif

} // namespace
