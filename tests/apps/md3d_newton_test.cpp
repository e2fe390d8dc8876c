// neighbor.newton: on the cpu backend, half lists with Newton's third law against the full lists
// (each pair twice): every pair once, the same forces, energies and virials to round-off, the
// same trajectory to round-off, and the same bits on any thread count (newton_buffers.h); pair
// energies only on sampled steps, with the same bits.
#include "app_test_util.h"
#include "md3d/simulation.h"
#include "md3d_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <utility>

namespace smelt::apps {
namespace {

using namespace md3d;
using namespace test_util;

const char *kQuiet = "output: {h5md: false, csv: false, progress: false, checkpoint: false}\n";

// n particles in a cube of edge `edge` (walls on the axes whose bit of `mask` is clear), one
// type (LJ) or two (Kob-Andersen); the lattice only fixes n and the box (the tests set the
// state). `newton` is the neighbor.newton value.
std::string random_config(int64_t n, double edge, int32_t mask, int ntypes,
                          const std::string &newton) {
    std::ostringstream s;
    s << "system:\n  lattice: sc\n  n: " << n << "\n  lattice_constant: 0.5\n  box: [" << edge
      << ", " << edge << ", " << edge << "]\n  boundary: [";
    for (int a = 0; a < 3; ++a)
        s << (a ? ", " : "") << ((mask >> a) & 1 ? "periodic" : "walls");
    s << "]\n  temperature: 0\n";
    if (mask != 7) s << "  walls: {stiffness: 50.0, range: 0.5}\n";
    if (ntypes == 2)
        s << "  types: [A, B]\n  counts: [" << n - n / 2 << ", " << n / 2
          << "]\n  masses: [1.0, 1.7]\npotential:\n  shift: true\n"
          << kKobAndersenPairs;
    else
        s << "potential: {r_cut: 2.5, shift: true}\n";
    s << "integrator: {dt: 0.004, steps: 10}\nneighbor: {newton: " << newton << "}\n" << kQuiet;
    return s.str();
}

// The pairs (i < j) of a simulation's lists, each once; `twice` counts pairs listed again.
std::set<std::pair<int32_t, int32_t>> listed_pairs(const NeighborList &list, size_t &twice) {
    const auto start = list.start().to_vector<int32_t>();
    const auto count = list.count().to_vector<int32_t>();
    const auto idx = list.indices().to_vector<int32_t>();
    std::set<std::pair<int32_t, int32_t>> pairs;
    twice = 0;
    for (size_t i = 0; i < start.size(); ++i)
        for (int32_t k = 0; k < count[i]; ++k) {
            const int32_t j = idx[size_t(start[i] + k)], a = std::min(int32_t(i), j),
                          b = std::max(int32_t(i), j);
            twice += !pairs.insert({a, b}).second;
        }
    return pairs;
}

double largest(const std::vector<double> &v) {
    double m = 0.0;
    for (double x : v)
        m = std::max(m, std::abs(x));
    return m;
}

// Each pair once in the half lists, the full lists' pairs; forces, per-particle energies and
// virials equal to 1e-12 of the largest, in a periodic box, with walls on z and on every axis
// (particles past the walls), with one and two types. 3100 particles: three chunks.
TEST(Md3dNewton, HalfListsGiveTheFullListForces) {
    SerialCpu serial;
    const double edge = 16.0;
    const int64_t n = 3100;
    ASSERT_EQ(NewtonBuffers::chunks_for(n), 3);
    for (int32_t mask : {7, 3, 0})
        for (int ntypes : {1, 2}) {
            SCOPED_TRACE("mask " + std::to_string(mask) + ", types " + std::to_string(ntypes));
            HostState s = random_state(n, {edge, edge, edge}, mask, ntypes, 0.8,
                                       11 + uint64_t(mask) * 3 + uint64_t(ntypes), -0.3);
            Simulation half(md3d_config(random_config(n, edge, mask, ntypes, "true")),
                            md3d_physics());
            Simulation full(md3d_config(random_config(n, edge, mask, ntypes, "false")),
                            md3d_physics());
            half.set_state(s);
            full.set_state(s);
            ASSERT_TRUE(half.neighbors().spec().half);
            ASSERT_FALSE(full.neighbors().spec().half);
            size_t twice_half = 0, twice_full = 0;
            const auto hp = listed_pairs(half.neighbors(), twice_half);
            const auto fp = listed_pairs(full.neighbors(), twice_full);
            EXPECT_EQ(twice_half, 0u) << "a pair in two half lists";
            EXPECT_EQ(twice_full, fp.size()) << "the full lists hold every pair twice";
            EXPECT_EQ(hp, fp);
            EXPECT_EQ(2 * half.neighbors().total(), full.neighbors().total());
            EXPECT_GT(hp.size(), size_t(20 * n));

            for (int a = 0; a < 3; ++a) {
                const auto fh = half.host(half.force(a)), ff = full.host(full.force(a));
                const double tol = 1e-12 * largest(ff);
                for (size_t i = 0; i < ff.size(); ++i)
                    ASSERT_NEAR(fh[i], ff[i], tol) << "axis " << a << " particle " << i;
            }
            for (auto get : {&Simulation::pe, &Simulation::vir}) {
                const auto vh = half.host((half.*get)()), vf = full.host((full.*get)());
                const double tol = 1e-12 * largest(vf);
                for (size_t i = 0; i < vf.size(); ++i)
                    ASSERT_NEAR(vh[i], vf[i], tol) << "particle " << i;
            }
            const Observables oh = half.observables(), of = full.observables();
            EXPECT_NEAR(oh.pe, of.pe, 1e-12 * std::abs(of.pe));
            EXPECT_NEAR(oh.virial, of.virial, 1e-12 * std::abs(of.virial));
        }
}

const char *kLiquid =
    "system: {lattice: fcc, cells: [10, 10, 10], density: 0.8442, temperature: 1.44, seed: 5}\n"
    "potential: {r_cut: 2.5}\n"
    "integrator: {kind: nve, dt: 0.005, steps: 100}\n";

std::unique_ptr<Simulation> run(const std::string &yaml, int steps) {
    return run_steps(yaml + kQuiet, steps);
}

// LAMMPS' in.lj liquid (4000 atoms: three chunks) over 100 NVE steps, with list rebuilds and a
// reordering by cell: positions and velocities follow the full lists' to round-off and the
// total energy is conserved alike.
TEST(Md3dNewton, TrajectoryFollowsTheFullLists) {
    SerialCpu serial;
    const int steps = 100;
    auto half = run(std::string(kLiquid) + "neighbor: {newton: true}\n", steps);
    auto full = run(std::string(kLiquid) + "neighbor: {newton: false}\n", steps);
    EXPECT_GT(half->neighbors().builds(), 3);
    const auto a = state_of(*half), b = state_of(*full);
    bool differs = false;
    for (size_t k = 0; k < a.size(); ++k)
        for (size_t i = 0; i < a[k].size(); ++i) {
            ASSERT_NEAR(a[k][i], b[k][i], 1e-9) << "column " << k << " particle " << i;
            differs = differs || a[k][i] != b[k][i];
        }
    EXPECT_TRUE(differs) << "the same bits: was neighbor.newton applied?";
    const ThermoSample th = half->thermo(), tf = full->thermo();
    EXPECT_NEAR(th.etotal, tf.etotal, 1e-10 * std::abs(tf.etotal));
    EXPECT_NEAR(th.pressure, tf.pressure, 1e-9 * std::abs(tf.pressure));
}

// The chunks' buffers are summed in chunk order: 1 and 2 threads give the same bits.
TEST(Md3dNewton, SameBitsOnOneAndTwoThreads) {
    auto &cpu = dynamic_cast<smelt::cpu::CpuBackend &>(smelt::get_backend("cpu"));
    const int saved = cpu.num_threads();
    const std::string yaml = std::string(kLiquid) + "neighbor: {newton: true}\n";
    cpu.set_num_threads(1);
    auto one = run(yaml, 30);
    cpu.set_num_threads(2);
    auto two = run(yaml, 30);
    cpu.set_num_threads(saved);
    EXPECT_EQ(state_of(*one), state_of(*two));
    for (int a = 0; a < 3; ++a)
        EXPECT_EQ(one->host(one->force(a)), two->host(two->force(a)));
    EXPECT_EQ(one->host(one->pe()), two->host(two->pe()));
}

// Which particle holds a pair of a half list depends on the cells at the build, and so does the
// order of the force sums: a restart builds the list at the checkpoint's build positions again
// and has the uninterrupted run's forces bit for bit; without them (a fresh build) the bits
// differ, which shows that the comparison can fail.
TEST(Md3dNewton, RestartRebuildsTheListOfTheRun) {
    SerialCpu serial;
    const std::string yaml = std::string(kLiquid) + "neighbor: {newton: true}\n";
    auto a = run(yaml, 30);
    bool fresh_differs = false;
    // Checkpoints at several steps between list builds.
    for (int round = 0; round < 4; ++round) {
        for (int k = 0; k < 7; ++k)
            a->step();
        Checkpoint ck = a->save();
        ck.step = a->step_index(); // as the run loop stamps it
        ck.time = a->time();
        ASSERT_TRUE(ck.has("x_list"));
        Checkpoint fresh;
        fresh.app = ck.app;
        fresh.step = ck.step;
        fresh.time = ck.time;
        for (const auto &[name, values] : ck.entries())
            if (name.find("_list") == std::string::npos) fresh.put(name, values);
        Simulation b(md3d_config(yaml + kQuiet), md3d_physics()),
            c(md3d_config(yaml + kQuiet), md3d_physics());
        b.restore(ck);
        c.restore(fresh);
        for (int ax = 0; ax < 3; ++ax) {
            const auto fa = a->host(a->force(ax));
            ASSERT_EQ(b.host(b.force(ax)), fa) << "step " << ck.step << " axis " << ax;
            fresh_differs = fresh_differs || c.host(c.force(ax)) != fa;
        }
        ASSERT_EQ(b.host(b.pe()), a->host(a->pe()));
        if (round == 3) {
            for (int k = 0; k < 10; ++k) {
                a->step();
                b.step();
            }
            EXPECT_EQ(state_of(b), state_of(*a));
        }
    }
    EXPECT_TRUE(fresh_differs) << "lists built at the restart steps summed in the same order";
}

// A step the run loop does not sample (output.thermo_interval, frame_interval) skips the pair
// energies and virials: the trajectory and the forces keep their bits, and pe and vir read
// after such a step (one force pass more) are those of a run that computed them every step.
// `setup` is the config's lines for the backend and the lists.
void expect_energies_only_on_sampled_steps(const std::string &setup) {
    auto make = [&](int every) {
        std::ostringstream y;
        y << kLiquid << setup
          << "output: {h5md: false, csv: false, progress: false, checkpoint: false, "
          << "thermo_interval: " << every << ", frame_interval: " << every << "}\n";
        auto s = std::make_unique<Simulation>(md3d_config(y.str()), md3d_physics());
        s->set_initial_state();
        return s;
    };
    auto sparse = make(7), every = make(1);
    for (int k = 0; k < 23; ++k) {
        sparse->step();
        every->step();
    }
    // Steps 7, 14 and 21 sampled, plus the initial state's forces.
    EXPECT_EQ(sparse->energy_passes(), 4);
    EXPECT_EQ(sparse->force_only_passes(), 20);
    EXPECT_EQ(every->force_only_passes(), 0);
    EXPECT_EQ(state_of(*sparse), state_of(*every));
    for (int a = 0; a < 3; ++a)
        EXPECT_EQ(sparse->host(sparse->force(a)), every->host(every->force(a)));
    EXPECT_EQ(sparse->host(sparse->pe()), every->host(every->pe()));
    EXPECT_EQ(sparse->host(sparse->vir()), every->host(every->vir()));
    EXPECT_EQ(sparse->energy_passes(), 5);
    const Observables oa = sparse->observables(), ob = every->observables();
    EXPECT_EQ(sparse->energy_passes(), 5) << "the energies were current";
    EXPECT_EQ(oa.pe, ob.pe);
    EXPECT_EQ(oa.virial, ob.virial);
    // The forces after the extra pass are still those of the step.
    for (int a = 0; a < 3; ++a)
        EXPECT_EQ(sparse->host(sparse->force(a)), every->host(every->force(a)));
}

TEST(Md3dNewton, EnergiesOnlyOnSampledStepsKeepTheBits) {
    SerialCpu serial;
    expect_energies_only_on_sampled_steps("neighbor: {newton: true}\n");
}

// The GPU form of the force loop (compute_forces over full lists, here with 2 lanes on OpenCL:
// PoCL in CI) skips energies and virials on unsampled steps too, with the same bits.
TEST(OpenCLMd3dEnergies, OnlyOnSampledStepsKeepTheBits) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    expect_energies_only_on_sampled_steps("backend: opencl\nneighbor: {lanes: 2}\n");
}

// About 1024 particles a chunk; above 8 chunks a multiple of 8 (the nearest), at most 64, so
// that 2, 4 and 8 threads of the static OpenMP schedule get equal shares.
TEST(Md3dNewton, ChunkCountsSplitEvenlyOverThreads) {
    const std::pair<int64_t, int32_t> expected[] = {
        {0, 1},      {1023, 1},   {3100, 3},   {8191, 7},    {9216, 8},
        {12287, 8},  {12288, 16}, {20479, 16}, {20480, 24},  {32000, 32},
        {36863, 32}, {36864, 40}, {64000, 64}, {1000000, 64}};
    for (const auto &[n, chunks] : expected)
        EXPECT_EQ(NewtonBuffers::chunks_for(n), chunks) << n << " particles";
}

// With wide chunks beyond 8 of them (md3d's 4096 particles): up to 8 chunks as before, then
// at least 8, a multiple of 8, at most 64.
TEST(Md3dNewton, ChunkCountsWithWideChunks) {
    const std::pair<int64_t, int32_t> expected[] = {{3100, 3},     {8191, 7},    {9216, 8},
                                                    {32000, 8},    {65536, 16},  {200000, 48},
                                                    {1000000, 64}, {4000000, 64}};
    for (const auto &[n, chunks] : expected)
        EXPECT_EQ(NewtonBuffers::chunks_for(n, 4096), chunks) << n << " particles";
    EXPECT_EQ(NewtonBuffers::chunks_for(32000, 1024), 32);
    EXPECT_THROW(NewtonBuffers::chunks_for(1000, 0), std::invalid_argument);
    EXPECT_THROW(NewtonBuffers::chunks_for(1000, 512), std::invalid_argument);
}

// md3d's wide chunks: on an in.lj liquid of 16 384 atoms, 8 chunks (16 of 1024 otherwise), and
// the buffers of the same list hold fewer entries (each chunk's range reaches about one layer of
// cells past its particles), and the forces after 10 steps equal the full lists' to 1e-10.
TEST(Md3dNewton, EightChunksHoldFewerEntriesWithTheSameForces) {
    const std::string liquid =
        "system: {lattice: fcc, cells: [16, 16, 16], density: 0.8442, temperature: 1.44, "
        "seed: 5}\npotential: {r_cut: 2.5}\nintegrator: {kind: nve, dt: 0.005, steps: 10}\n";
    auto half = run(liquid + "neighbor: {newton: true}\n", 10);
    auto full = run(liquid + "neighbor: {newton: false}\n", 10);
    const int64_t n = 16384;
    ASSERT_EQ(NewtonBuffers::chunks_for(n), 16);
    EXPECT_EQ(half->newton_chunks(), 8);
    NewtonBuffers uncapped(md3d_physics(), smelt::Options{}, n, smelt::DType::Float64);
    uncapped.prepare(half->neighbors());
    ASSERT_EQ(uncapped.chunks(), 16);
    RecordProperty("entries_8_chunks", std::to_string(half->newton_entries()));
    RecordProperty("entries_16_chunks", std::to_string(uncapped.entries()));
    EXPECT_LT(half->newton_entries(), uncapped.entries());
    EXPECT_LT(half->newton_entries(), 3 * n) << "uncapped: " << uncapped.entries();
    double scale = 0.0;
    for (int a = 0; a < 3; ++a)
        scale = std::max(scale, largest(full->host(full->force(a))));
    for (int a = 0; a < 3; ++a) {
        const auto fh = half->host(half->force(a)), ff = full->host(full->force(a));
        for (size_t i = 0; i < fh.size(); ++i)
            ASSERT_NEAR(fh[i], ff[i], 1e-10 * scale) << "axis " << a << " particle " << i;
    }
}

TEST(Md3dNewton, AutoIsOnForBinnedListsOnTheCpu) {
    Md3dConfig c = md3d_config(std::string(kLiquid) + kQuiet);
    EXPECT_FALSE(c.neighbor.newton.has_value());
    EXPECT_TRUE(c.neighbor.newton_on(true));
    EXPECT_FALSE(c.neighbor.newton_on(false));
    c.neighbor.mode = NeighborMode::AllPairs;
    EXPECT_FALSE(c.neighbor.newton_on(true));
    EXPECT_FALSE(md3d_config(std::string(kLiquid) + "neighbor: {newton: false}\n" + kQuiet)
                     .neighbor.newton_on(true));
}

} // namespace
} // namespace smelt::apps
