// md3d on the kit's checkpoints: a run stopped part way and restarted from its checkpoint leaves
// the same trajectory (positions, velocities, images), observables and CSV bit for bit as a run
// that went through (CPU backend, one thread), for each integrator, two types with walls, and
// single and mixed precision. The thermostats' random numbers are counter based and their heat is
// in the checkpoint, so Langevin and Bussi continue exactly too.
#include "common/run_loop.h"
#include "h5_read.h"
#include "md3d/simulation.h"
#include "md3d_test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace smelt::apps;
using namespace smelt::apps::md3d;
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
    "particles/all/position",       "particles/all/velocity",       "particles/all/image",
    "particles/all/species",        "observables/potential_energy", "observables/kinetic_energy",
    "observables/total_energy",     "observables/temperature",      "observables/pressure",
    "observables/conserved_energy", "observables/thermostat_heat",  "observables/momentum_x",
    "observables/momentum_z"};

RunReport run(const Md3dConfig &c, const fs::path &dir, int64_t steps,
              const std::string &restart = "") {
    Md3dConfig in_dir = c;
    in_dir.output.directory = dir.string();
    Simulation sim(in_dir, md3d_physics());
    RunOptions o;
    o.app = "md3d";
    o.restart = restart;
    return run_simulation(in_dir, sim, steps, o);
}

const char *kOutput =
    "output: {prefix: r, frame_interval: 5, thermo_interval: 3, progress: false}\n";

std::string with_output(const char *yaml) {
    return std::string(yaml) + kOutput;
}

class Md3dRestart : public ::testing::TestWithParam<const char *> {};

TEST_P(Md3dRestart, StoppedAndRestartedRunEqualsTheUninterruptedOne) {
    SerialCpu serial; // the reductions' rounding depends on the thread count: keep it fixed
    const Md3dConfig c = md3d_config(with_output(GetParam()));
    const fs::path ref = fresh_temp_dir("md3d_restart_ref"), dir = fresh_temp_dir("md3d_restart");
    const std::string prefix = c.output.prefix;
    run(c, ref, 40);
    RunReport first = run(c, dir, 17); // ends at 17: sample, frame and checkpoint off-interval
    EXPECT_EQ(first.steps_done, 17);
    RunReport second = run(c, dir, 40, (dir / (prefix + "_checkpoint.h5")).string());
    EXPECT_EQ(second.first_step, 17);
    EXPECT_EQ(second.steps_done, 40);
    EXPECT_EQ(h5_series_difference((ref / (prefix + ".h5")).string(),
                                   (dir / (prefix + ".h5")).string(), kSeries),
              "");
    EXPECT_EQ(read_text(dir / (prefix + "_thermo.csv")), read_text(ref / (prefix + "_thermo.csv")));
    fs::remove_all(ref);
    fs::remove_all(dir);
}

std::string config_name(size_t index) {
    const char *names[] = {"Nve", "LangevinWalls", "Bussi", "Single", "Mixed"};
    return names[index];
}

INSTANTIATE_TEST_SUITE_P(
    Configs, Md3dRestart,
    ::testing::Values(
        // NVE, the CI system (images change as atoms cross the seams)
        "system: {lattice: fcc, cells: [4, 4, 4], density: 0.6, temperature: 2.0, seed: 7}\n"
        "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 40}\n"
        "neighbor: {mode: all_pairs, skin: 0.2}\n",
        // Langevin, two types and masses, walls along z, binned lists kept several steps, the
        // particles reordered by cell at steps 0, 10, 20, 30 (before and after the restart)
        "neighbor: {sort_interval: 10}\n"
        "system: {lattice: fcc, cells: [5, 5, 3], density: 0.8, temperature: 1.0, seed: 11,\n"
        "  boundary: [periodic, periodic, walls], types: [A, B], counts: [240, 60],\n"
        "  masses: [1.0, 2.0]}\n"
        "potential:\n  shift: true\n"
        "  pairs:\n"
        "    - {types: [A, A], epsilon: 1.0, sigma: 1.0, r_cut: 2.5}\n"
        "    - {types: [A, B], epsilon: 1.5, sigma: 0.8, r_cut: 2.0}\n"
        "    - {types: [B, B], epsilon: 0.5, sigma: 0.88, r_cut: 2.2}\n"
        "integrator: {kind: langevin, kT: 1.2, gamma: 1.0, dt: 0.005, steps: 40, seed: 5}\n",
        // Bussi (host-side factor and heat)
        "system: {lattice: bcc, cells: [6, 6, 6], density: 0.7, temperature: 0.5, seed: 3}\n"
        "potential: {r_cut: 2.5}\n"
        "integrator: {kind: bussi, kT: 1.0, tau: 0.1, dt: 0.005, steps: 40}\n",
        // single precision
        "precision: single\n"
        "system: {lattice: fcc, cells: [4, 4, 4], density: 0.6, temperature: 2.0, seed: 7}\n"
        "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 40}\n"
        "neighbor: {mode: all_pairs, skin: 0.2}\n",
        // mixed precision (float64 state: the checkpoint holds it exactly), binned full lists
        // kept several steps, energies only on sampled steps
        "precision: mixed\n"
        "system: {lattice: fcc, cells: [5, 5, 5], density: 0.6, temperature: 2.0, seed: 7}\n"
        "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 40}\n"),
    [](const auto &info) { return config_name(info.index); });

// A checkpoint of another system (particle count) is refused with the entry that does not fit.
TEST(Md3dRestartCheck, CheckpointOfAnotherSystemIsRefused) {
    SerialCpu serial;
    const fs::path dir = fresh_temp_dir("md3d_restart_misfit");
    Md3dConfig c = md3d_config(
        with_output("system: {lattice: fcc, cells: [4, 4, 4], density: 0.6, temperature: 1}\n"
                    "integrator: {dt: 0.005, steps: 3}\nneighbor: {mode: all_pairs}\n"));
    run(c, dir, 3);
    Md3dConfig other = md3d_config(
        with_output("system: {lattice: fcc, cells: [4, 4, 5], density: 0.6, temperature: 1}\n"
                    "integrator: {dt: 0.005, steps: 6}\nneighbor: {mode: all_pairs}\n"));
    try {
        run(other, dir, 6, (dir / "r_checkpoint.h5").string());
        FAIL();
    } catch (const CheckpointError &e) {
        EXPECT_NE(std::string(e.what()).find("entry 'x' has 256 values, expected 320"),
                  std::string::npos)
            << e.what();
    }
    fs::remove_all(dir);
}

#endif

} // namespace
