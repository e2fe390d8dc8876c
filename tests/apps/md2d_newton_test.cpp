// md2d's neighbor.newton: on the cpu backend, half lists with Newton's third law against the full
// lists (each pair twice): every pair once, the same forces, energies and virials to round-off,
// the same trajectory to round-off, the same bits on any thread count (newton_buffers.h), and
// restarts that rebuild the run's list.
#include "md2d/simulation.h"
#include "md2d_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <utility>

namespace smelt::apps {
namespace {

using namespace md2d;
using namespace test_util;

const char *kQuiet = "output: {h5md: false, csv: false, progress: false, checkpoint: false}\n";

// An nx x ny square lattice at density 0.7 (walls: the box is the lattice's region);
// `newton` is the neighbor.newton value.
std::string lattice_config(int nx, int ny, bool periodic, const std::string &newton) {
    std::string s = "system:\n  lattice: square\n  cells: [" + std::to_string(nx) + ", " +
                    std::to_string(ny) + "]\n  density: 0.7\n  temperature: 1.0\n  seed: 9\n";
    if (!periodic)
        s += "  boundary: walls\n  box_scale: 1.0\n  walls: {stiffness: 50.0, range: 0.5}\n";
    return s + "potential: {r_cut: 2.5, shift: true}\nintegrator: {dt: 0.005, steps: 100}\n" +
           "neighbor: {newton: " + newton + "}\n" + kQuiet;
}

// The lattice sites of a config, jittered by up to 0.15 and in a random index order (so that the
// chunks' rows reach far in index), with two particles pushed past the walls when there are some.
std::pair<std::vector<double>, std::vector<double>> jittered_sites(const Md2dConfig &c,
                                                                   uint64_t seed) {
    const auto box = c.box();
    const int64_t nx = c.system.plan.nx, ny = c.system.plan.ny;
    const double ax = box[0] / double(nx), ay = box[1] / double(ny);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> jitter(-0.15, 0.15);
    std::vector<size_t> perm(size_t(nx * ny));
    std::iota(perm.begin(), perm.end(), size_t(0));
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<double> x(perm.size()), y(perm.size());
    for (int64_t k = 0; k < nx * ny; ++k) {
        x[perm[size_t(k)]] = (double(k % nx) + 0.5) * ax + jitter(rng);
        y[perm[size_t(k)]] = (double(k / nx) + 0.5) * ay + jitter(rng);
    }
    if (!c.periodic()) {
        x[perm[0]] = -0.2;                   // site (0, 0), past the wall x = 0
        y[perm[size_t(nx * ny - 1)]] += 0.8; // the last site, past the wall y = ly
    }
    return {x, y};
}

// The pairs (i < j) of a list, each once; `twice` counts pairs listed again.
std::set<std::pair<int32_t, int32_t>> listed_pairs(const NeighborList &list, size_t &twice) {
    const auto start = list.start().to_vector<int32_t>();
    const auto count = list.count().to_vector<int32_t>();
    const auto idx = list.indices().to_vector<int32_t>();
    std::set<std::pair<int32_t, int32_t>> pairs;
    twice = 0;
    for (size_t i = 0; i < start.size(); ++i)
        for (int32_t k = 0; k < count[i]; ++k) {
            const int32_t j = idx[size_t(start[i] + k * list.stride())];
            twice += !pairs.insert({std::min(int32_t(i), j), std::max(int32_t(i), j)}).second;
        }
    return pairs;
}

double largest(const std::vector<double> &v) {
    double m = 0.0;
    for (double x : v)
        m = std::max(m, std::abs(x));
    return m;
}

// Each pair once in the half lists and the full lists' pairs; forces, per-particle energies and
// virials equal to 1e-12 of the largest, periodic and with walls (particles past them).
// 3100 particles: three chunks.
TEST(Md2dNewton, HalfListsGiveTheFullListForces) {
    SerialCpu serial;
    for (bool periodic : {true, false}) {
        SCOPED_TRACE(periodic ? "periodic" : "walls");
        const Md2dConfig ch = md2d_config(lattice_config(62, 50, periodic, "true"));
        const Md2dConfig cf = md2d_config(lattice_config(62, 50, periodic, "false"));
        ASSERT_EQ(NewtonBuffers::chunks_for(ch.n()), 3);
        const auto [x, y] = jittered_sites(ch, periodic ? 3 : 4);
        const std::vector<double> v(x.size(), 0.0);
        Simulation half(ch, md2d_physics()), full(cf, md2d_physics());
        half.set_state(x, y, v, v);
        full.set_state(x, y, v, v);
        ASSERT_TRUE(half.neighbors().spec().half);
        ASSERT_FALSE(full.neighbors().spec().half);
        size_t twice_half = 0, twice_full = 0;
        const auto hp = listed_pairs(half.neighbors(), twice_half);
        const auto fp = listed_pairs(full.neighbors(), twice_full);
        EXPECT_EQ(twice_half, 0u) << "a pair in two half lists";
        EXPECT_EQ(twice_full, fp.size()) << "the full lists hold every pair twice";
        EXPECT_EQ(hp, fp);
        EXPECT_EQ(2 * half.neighbors().total(), full.neighbors().total());
        EXPECT_GT(hp.size(), size_t(8 * ch.n()));

        for (auto get : {&Simulation::fx, &Simulation::fy, &Simulation::pe, &Simulation::vir}) {
            const auto vh = half.host((half.*get)()), vf = full.host((full.*get)());
            const double tol = 1e-12 * largest(vf);
            ASSERT_GT(tol, 0.0);
            for (size_t i = 0; i < vf.size(); ++i)
                ASSERT_NEAR(vh[i], vf[i], tol) << "particle " << i;
        }
        const Observables oh = half.observables(), of = full.observables();
        EXPECT_NEAR(oh.pe, of.pe, 1e-12 * std::abs(of.pe));
        EXPECT_NEAR(oh.virial, of.virial, 1e-12 * std::abs(of.virial));
    }
}

// configs/md2d_lj.yaml's fluid, smaller: 48 x 48 = 2304 particles (two chunks).
std::string liquid(const std::string &newton) {
    return lattice_config(48, 48, true, newton);
}

std::unique_ptr<Simulation> run(const std::string &yaml, int steps) {
    auto s = std::make_unique<Simulation>(md2d_config(yaml), md2d_physics());
    s->set_initial_state();
    for (int k = 0; k < steps; ++k)
        s->step();
    return s;
}

std::vector<std::vector<double>> state_of(const Simulation &s) {
    return {s.host(s.x()), s.host(s.y()), s.host(s.vx()), s.host(s.vy())};
}

// 100 NVE steps of the melting lattice, with list rebuilds: positions and velocities follow the
// full lists' to round-off and the total energy is conserved alike.
TEST(Md2dNewton, TrajectoryFollowsTheFullLists) {
    SerialCpu serial;
    auto half = run(liquid("true"), 100);
    auto full = run(liquid("false"), 100);
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
TEST(Md2dNewton, SameBitsOnOneAndTwoThreads) {
    auto &cpu = dynamic_cast<smelt::cpu::CpuBackend &>(smelt::get_backend("cpu"));
    const int saved = cpu.num_threads();
    cpu.set_num_threads(1);
    auto one = run(liquid("true"), 30);
    cpu.set_num_threads(2);
    auto two = run(liquid("true"), 30);
    cpu.set_num_threads(saved);
    ASSERT_TRUE(one->neighbors().spec().half);
    EXPECT_EQ(state_of(*one), state_of(*two));
    EXPECT_EQ(one->host(one->fx()), two->host(two->fx()));
    EXPECT_EQ(one->host(one->fy()), two->host(two->fy()));
    EXPECT_EQ(one->host(one->pe()), two->host(two->pe()));
    EXPECT_EQ(one->host(one->vir()), two->host(two->vir()));
}

// Which particle holds a pair of a half list depends on the cells at the build, and so does the
// order of the force sums: a restart builds the list at the checkpoint's build positions again
// and has the uninterrupted run's forces bit for bit, and continues it bit for bit; without them
// (a fresh build) the bits differ, which shows that the comparison can fail.
TEST(Md2dNewton, RestartRebuildsTheListOfTheRun) {
    SerialCpu serial;
    const std::string yaml = liquid("true");
    auto a = run(yaml, 30);
    bool fresh_differs = false;
    // Checkpoints at several steps between list builds.
    for (int round = 0; round < 4; ++round) {
        for (int k = 0; k < 7; ++k)
            a->step();
        Checkpoint ck = a->save();
        ck.step = a->step_index(); // as the run loop stamps it
        ck.time = a->time();
        ASSERT_TRUE(ck.has("x_list") && ck.has("y_list"));
        Checkpoint fresh;
        fresh.app = ck.app;
        fresh.step = ck.step;
        fresh.time = ck.time;
        for (const auto &[name, values] : ck.entries())
            if (name.find("_list") == std::string::npos) fresh.put(name, values);
        Simulation b(md2d_config(yaml), md2d_physics()), c(md2d_config(yaml), md2d_physics());
        b.restore(ck);
        c.restore(fresh);
        ASSERT_EQ(b.host(b.fx()), a->host(a->fx())) << "step " << ck.step;
        ASSERT_EQ(b.host(b.fy()), a->host(a->fy())) << "step " << ck.step;
        ASSERT_EQ(b.host(b.pe()), a->host(a->pe())) << "step " << ck.step;
        fresh_differs = fresh_differs || c.host(c.fx()) != a->host(a->fx());
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

// advance(k) on half lists without walls joins each step's chunk sums and closing half-kick
// with the next step's opening kick and drift and the list's displacement test
// (newton_sum_kick_kick_drift): k calls of step() are the oracle, for the bits of positions,
// velocities, forces, energies and virials, the list builds and the energy, on 2 threads over 2
// chunks, in double and single precision, through list rebuilds (a small skin) and a stop request.
TEST(Md2dJoinedKicks, CpuNewtonAdvanceEqualsSingleSteps) {
    auto &cpu = dynamic_cast<smelt::cpu::CpuBackend &>(smelt::get_backend("cpu"));
    const int saved = cpu.num_threads();
    cpu.set_num_threads(2);
    for (const char *precision : {"double", "single"}) {
        SCOPED_TRACE(precision);
        std::string yaml = liquid("true") + "precision: " + precision + "\n";
        const std::string keep = "neighbor: {newton: true}";
        // Reordered by cell every 7 steps: inside advance()'s joined steps too.
        yaml.replace(yaml.find(keep), keep.size(),
                     "neighbor: {newton: true, skin: 0.1, sort_interval: 7}");
        const Md2dConfig c = md2d_config(yaml);
        ASSERT_EQ(NewtonBuffers::chunks_for(c.n()), 2);
        Simulation joined(c, md2d_physics()), single(c, md2d_physics());
        EXPECT_TRUE(joined.neighbors().spec().half);
        EXPECT_TRUE(joined.joins_steps());
        joined.set_initial_state();
        single.set_initial_state();
        joined.compile_kernels(); // runs the joined launch with dt = 0: the state stays
        // A stop request after 5 steps ends advance() with the 5th step completed.
        int asked = 0;
        joined.advance(13, [&] { return ++asked == 5; });
        for (int k = 0; k < 5; ++k)
            single.step();
        EXPECT_EQ(joined.step_index(), 5);
        EXPECT_EQ(state_of(joined), state_of(single));
        EXPECT_EQ(joined.host(joined.fx()), single.host(single.fx()));
        // advance() skipped the energies; ensure_energies() gives those of single steps.
        joined.ensure_energies();
        EXPECT_EQ(joined.host(joined.pe()), single.host(single.pe()));
        EXPECT_EQ(joined.host(joined.fx()), single.host(single.fx()));
        for (int k = 0; k < 5; ++k)
            joined.advance(13);
        for (int k = 5; k < 70; ++k)
            single.step();
        EXPECT_EQ(joined.step_index(), 70);
        EXPECT_GT(single.neighbors().builds(), 5);
        EXPECT_EQ(joined.neighbors().builds(), single.neighbors().builds());
        EXPECT_EQ(state_of(joined), state_of(single));
        EXPECT_EQ(joined.host(joined.fx()), single.host(single.fx()));
        EXPECT_EQ(joined.thermo().etotal, single.thermo().etotal); // computes the energies
        for (auto get : {&Simulation::fx, &Simulation::fy, &Simulation::pe, &Simulation::vir})
            EXPECT_EQ(joined.host((joined.*get)()), single.host((single.*get)()));
    }
    cpu.set_num_threads(saved);
}

// With walls (forces added between the sums and the kick) and with full lists the steps do not
// join (advance() runs step() as the Stepper does).
TEST(Md2dJoinedKicks, NotWithWallsOrFullLists) {
    EXPECT_FALSE(Simulation(md2d_config(lattice_config(10, 10, false, "true")), md2d_physics())
                     .joins_steps());
    EXPECT_FALSE(Simulation(md2d_config(liquid("false")), md2d_physics()).joins_steps());
}

TEST(Md2dNewton, AutoIsOnForBinnedListsOnTheCpu) {
    Md2dConfig c = md2d_config(liquid("auto"));
    EXPECT_FALSE(c.neighbor.newton.has_value());
    EXPECT_TRUE(c.neighbor.newton_on(true));
    EXPECT_FALSE(c.neighbor.newton_on(false));
    EXPECT_TRUE(neighbor_spec(c).half);
    EXPECT_NE(describe(c).find("half lists"), std::string::npos) << describe(c);
    c.neighbor.mode = NeighborMode::AllPairs;
    EXPECT_FALSE(c.neighbor.newton_on(true));
    EXPECT_FALSE(neighbor_spec(c).half);
    const Md2dConfig off = md2d_config(liquid("false"));
    EXPECT_FALSE(off.neighbor.newton_on(true));
    EXPECT_FALSE(neighbor_spec(off).half);
    EXPECT_EQ(describe(off).find("half lists"), std::string::npos);
}

} // namespace
} // namespace smelt::apps
