// vortex through the engine against independent oracles: the velocities against a hand-written
// direct sum (complex cot rows when periodic), the exact identities of the pair sums, the engine's
// reduction maps against hand-written sums, the tiled Kernel against the Elementwise (PoCL), and
// initial states, trajectories and observables against validation/vortex_common.py's CPython
// reference (physics.py run by CPython, the README's std::mt19937_64 draws).
#include "vortex/simulation.h"
#include "vortex_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numeric>

using namespace smelt::apps;
using namespace smelt::apps::vortex;
using namespace smelt::apps::vortex_test;
namespace fs = std::filesystem;

namespace {

constexpr double kPi = 3.14159265358979323846;

// ---- hand-written oracle: the pair velocities by direct sums (README "Equations") ------------

struct Oracle {
    std::vector<double> u, v, scale; // scale_k = sum_j |U_kj| + |V_kj| (the terms that cancel)
};

Oracle direct_sum(const std::vector<double> &x, const std::vector<double> &y,
                  const std::vector<double> &g, const PhysicsConfig &ph) {
    const size_t n = x.size();
    const double d2 = ph.delta * ph.delta, L = ph.period;
    Oracle o{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
    for (size_t k = 0; k < n; ++k) {
        long double su = 0, sv = 0, ss = 0;
        for (size_t j = 0; j < n; ++j) {
            if (j == k) continue;
            const double dx = x[k] - x[j], dy = y[k] - y[j];
            double uu = 0, vv = 0;
            if (!ph.periodic_x) {
                const double r2 = dx * dx + dy * dy;
                const double K = ph.regularisation == Regularisation::Point ? 1.0 / r2
                                 : ph.regularisation == Regularisation::Krasny
                                     ? 1.0 / (r2 + d2)
                                     : -std::expm1(-r2 / d2) / r2;
                uu = -g[j] * dy * K / (2 * kPi);
                vv = g[j] * dx * K / (2 * kPi);
            } else if (ph.regularisation == Regularisation::Krasny) {
                // Krasny (1986): delta^2 added to cosh b - cos a.
                const double a = 2 * kPi * dx / L, b = 2 * kPi * dy / L;
                const double w = g[j] / (2 * L * (std::cosh(b) - std::cos(a) + d2));
                uu = -std::sinh(b) * w;
                vv = std::sin(a) * w;
            } else {
                // The row of point vortices: u - i v = G / (2 i L) cot(pi z / L).
                const std::complex<double> z(dx, dy);
                const std::complex<double> w =
                    g[j] / (std::complex<double>(0, 2 * L) * std::tan(kPi * z / L));
                uu = w.real();
                vv = -w.imag();
                if (ph.regularisation == Regularisation::Gaussian) // minus the images' tails
                    for (int m = -3; m <= 3; ++m) {
                        const double ddx = dx - L * std::round(dx / L) + m * L;
                        const double r2 = ddx * ddx + dy * dy;
                        const double e = std::exp(-r2 / d2) / r2;
                        uu += e * dy * g[j] / (2 * kPi);
                        vv -= e * ddx * g[j] / (2 * kPi);
                    }
            }
            su += uu;
            sv += vv;
            ss += std::abs(uu) + std::abs(vv);
        }
        o.u[k] = double(su);
        o.v[k] = double(sv);
        o.scale[k] = double(ss);
    }
    return o;
}

// (1/4pi) sum_{j != k} G_j G_k r^2 K(r^2): what sum G (x v - y u) equals (unbounded).
double rotation_exact(const std::vector<double> &x, const std::vector<double> &y,
                      const std::vector<double> &g, const PhysicsConfig &ph) {
    long double s = 0;
    if (ph.regularisation == Regularisation::Point) {
        long double sum = 0, sum2 = 0;
        for (double gk : g) {
            sum += gk;
            sum2 += (long double)gk * gk;
        }
        return double((sum * sum - sum2) / (4 * kPi));
    }
    const double d2 = ph.delta * ph.delta;
    for (size_t k = 0; k < x.size(); ++k)
        for (size_t j = 0; j < x.size(); ++j) {
            if (j == k) continue;
            const double dx = x[k] - x[j], dy = y[k] - y[j], r2 = dx * dx + dy * dy;
            const double f = ph.regularisation == Regularisation::Krasny ? r2 / (r2 + d2)
                                                                         : -std::expm1(-r2 / d2);
            s += (long double)g[k] * g[j] * f;
        }
    return double(s / (4 * kPi));
}

long double sum_of(const std::vector<double> &a) {
    return std::accumulate(a.begin(), a.end(), 0.0L);
}

// ---- identities ---------------------------------------------------------------------------

struct PhysicsCase {
    const char *name;
    const char *physics; // the YAML physics section
};

class VortexIdentities : public ::testing::TestWithParam<PhysicsCase> {};

TEST_P(VortexIdentities, VelocitiesAndExactIdentities) {
    // 80 random vortices of both signs (circulation_spread > 1), one close encounter included
    // by the random draws of a small patch.
    VortexConfig c = vortex_config(std::string("physics: ") + GetParam().physics +
                                   "\nintegrator: {dt: 0.01, steps: 0}\n"
                                   "initial: {kind: patch, n: 80, radius: 0.4, "
                                   "circulation_spread: 1.5, seed: 5}\n");
    Simulation sim(c, vortex_physics());
    sim.initialize();
    sim.evaluate_at_positions();
    const auto x = sim.host(sim.x()), y = sim.host(sim.y()), g = sim.host(sim.gamma());
    const auto u = sim.host(sim.u()), v = sim.host(sim.v());
    const PhysicsConfig &ph = c.physics;
    const Oracle o = direct_sum(x, y, g, ph);
    for (size_t k = 0; k < x.size(); ++k) {
        EXPECT_NEAR(u[k], o.u[k], 1e-13 * o.scale[k]) << "u of vortex " << k;
        EXPECT_NEAR(v[k], o.v[k], 1e-13 * o.scale[k]) << "v of vortex " << k;
    }
    // The scales of the cancelling terms.
    long double lin = 0, mom = 0;
    std::vector<double> gu(x.size()), gv(x.size()), expansion(x.size()), rotation(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
        lin += std::abs(g[k]) * o.scale[k];
        mom += std::abs(g[k]) * (std::abs(x[k]) + std::abs(y[k])) * o.scale[k];
        gu[k] = g[k] * u[k];
        gv[k] = g[k] * v[k];
        expansion[k] = g[k] * (x[k] * u[k] + y[k] * v[k]);
        rotation[k] = g[k] * (x[k] * v[k] - y[k] * u[k]);
    }
    const double tol_lin = 1e-13 * double(lin), tol_mom = 1e-13 * double(mom);
    EXPECT_NEAR(double(sum_of(gu)), 0.0, tol_lin) << "sum G u";
    EXPECT_NEAR(double(sum_of(gv)), 0.0, tol_lin) << "sum G v";

    // The same sums by the engine's reduction maps.
    const smelt::Program &P = vortex_physics();
    const smelt::Options opt = engine_options(c);
    auto reduce = [&](const char *map, const std::vector<smelt::Arg> &args) {
        return smelt::Reduction(&P, "a+b", map, smelt::DType::Float64, "0", opt)(args).as<double>();
    };
    const std::vector<smelt::Arg> xyguv{sim.x(), sim.y(), sim.gamma(), sim.u(), sim.v()};
    EXPECT_NEAR(reduce("gamma_u_map", xyguv), double(sum_of(gu)), tol_lin);
    EXPECT_NEAR(reduce("gamma_v_map", xyguv), double(sum_of(gv)), tol_lin);
    EXPECT_NEAR(reduce("expansion_map", xyguv), double(sum_of(expansion)), tol_mom);
    EXPECT_NEAR(reduce("rotation_map", xyguv), double(sum_of(rotation)), tol_mom);
    if (ph.periodic_x) return; // the moment identities are those of the unbounded plane

    EXPECT_NEAR(double(sum_of(expansion)), 0.0, tol_mom) << "sum G (x u + y v)";
    const double exact = rotation_exact(x, y, g, ph);
    EXPECT_NEAR(double(sum_of(rotation)), exact, tol_mom) << "sum G (x v - y u)";
    EXPECT_NEAR(reduce("rotation_exact_map", {sim.x(), sim.y(), sim.gamma(), int32_t(x.size()),
                                              int32_t(ph.regularisation), ph.delta}),
                exact, 1e-13 * std::abs(exact) + 1e-15);
    if (ph.regularisation == Regularisation::Point) { // [(sum G)^2 - sum G^2] / (4 pi)
        long double s = 0, s2 = 0;
        for (double gk : g) {
            s += gk;
            s2 += (long double)gk * gk;
        }
        EXPECT_NEAR(double(sum_of(rotation)), double((s * s - s2) / (4 * kPi)), tol_mom);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Physics, VortexIdentities,
    ::testing::Values(PhysicsCase{"Point", "{regularisation: point}"},
                      PhysicsCase{"Krasny", "{regularisation: krasny, delta: 0.05}"},
                      PhysicsCase{"Gaussian", "{regularisation: gaussian, delta: 0.05}"},
                      PhysicsCase{"PeriodicPoint", "{periodic_x: true, period: 1.0}"},
                      PhysicsCase{"PeriodicKrasny",
                                  "{regularisation: krasny, delta: 0.1, periodic_x: true, "
                                  "period: 1.0}"},
                      PhysicsCase{"PeriodicGaussian",
                                  "{regularisation: gaussian, delta: 0.05, periodic_x: true, "
                                  "period: 0.9}"}),
    [](const auto &info) { return std::string(info.param.name); });

// ---- the tiled Kernel (OpenCL / PoCL) ------------------------------------------------------

struct TiledCase {
    const char *name;
    int n, tile;
    const char *physics;
};

class OpenCLVortexTiled : public ::testing::TestWithParam<TiledCase> {};

// Both paths sum over j = 0..N-1 in the same order, per target: equal up to the OpenCL compiler's
// contraction choices (README "The two velocity paths"), so within a few ulps of the terms.
TEST_P(OpenCLVortexTiled, EqualsElementwise) {
    VORTEX_OPENCL_OR_SKIP();
    const TiledCase p = GetParam();
    const std::string yaml = std::string("backend: opencl\nphysics: ") + p.physics +
                             "\nintegrator: {dt: 0.01, steps: 0}\n"
                             "initial: {kind: patch, n: " +
                             std::to_string(p.n) +
                             ", radius: 0.3, circulation_spread: 1.5, seed: 9}\n";
    VortexConfig ew = vortex_config(yaml + "evaluation: {method: elementwise}\n");
    VortexConfig tiled =
        vortex_config(yaml + "evaluation: {method: tiled, tile: " + std::to_string(p.tile) + "}\n");
    ASSERT_TRUE(tiled.evaluation.tiled);
    Simulation a(ew, vortex_physics()), b(tiled, vortex_physics());
    ASSERT_FALSE(a.tiled());
    ASSERT_TRUE(b.tiled());
    a.initialize();
    b.initialize();
    a.evaluate_at_positions();
    b.evaluate_at_positions();
    const auto ua = a.host(a.u()), va = a.host(a.v()), ub = b.host(b.u()), vb = b.host(b.v());
    const Oracle o = direct_sum(a.host(a.x()), a.host(a.y()), a.host(a.gamma()), ew.physics);
    int bitwise = 0;
    for (size_t k = 0; k < ua.size(); ++k) {
        EXPECT_NEAR(ub[k], ua[k], 4e-16 * o.scale[k]) << "u of vortex " << k;
        EXPECT_NEAR(vb[k], va[k], 4e-16 * o.scale[k]) << "v of vortex " << k;
        EXPECT_NEAR(ub[k], o.u[k], 1e-13 * o.scale[k]) << "u of vortex " << k;
        bitwise += ua[k] == ub[k] && va[k] == vb[k];
    }
    RecordProperty("bitwise_equal", bitwise);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, OpenCLVortexTiled,
    ::testing::Values(
        TiledCase{"NotAMultipleOfT", 300, 64, "{regularisation: krasny, delta: 0.02}"},
        TiledCase{"FewerThanT", 20, 64, "{regularisation: point}"},
        TiledCase{"TileOfOne", 37, 1, "{regularisation: gaussian, delta: 0.03}"},
        TiledCase{"PeriodicGaussian", 130, 32,
                  "{regularisation: gaussian, delta: 0.04, periodic_x: true, period: 1.0}"},
        TiledCase{"PeriodicKrasny", 70, 16,
                  "{regularisation: krasny, delta: 0.1, periodic_x: true, period: 2.0}"}),
    [](const auto &info) { return std::string(info.param.name); });

// ---- against CPython -----------------------------------------------------------------------

const std::vector<ReferenceJob> &initial_jobs() {
    static const std::vector<ReferenceJob> jobs = {
        {"patch_disc",
         "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: patch, n: 300, radius: 0.7, center: "
         "[1, 2], total_circulation: 3.0, seed: 11}\n"},
        {"patch_square",
         "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: patch, n: 200, shape: square, side: "
         "1.5, circulation_spread: 2.0, seed: 12345678901234}\n"},
        {"lattice_square",
         "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: lattice, n_side: 7, side: 3.0, "
         "center: [0.5, -0.25], total_circulation: -2}\n"},
        {"lattice_disc",
         "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: lattice, n_side: 10, shape: disc, "
         "radius: 1.3}\n"},
        {"lamb_oseen",
         "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: lamb_oseen, rings: 12, core_radius: "
         "0.5, extent: 4.0, total_circulation: 2.0, center: [0.1, 0.2]}\n"},
        {"pair", "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: pair, separation: 0.7, "
                 "circulations: [1.5, -0.25], center: [3, 4]}\n"},
        {"opposite_pair", "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: opposite_pair, "
                          "separation: 2.5, circulation: -3}\n"},
        {"ring", "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: ring, n: 9, radius: 2.0, "
                 "circulation: 0.5, phase: 0.3, perturbation: 0.2, seed: 4}\n"},
        {"sheet", "physics: {periodic_x: true, period: 2.0}\nintegrator: {dt: 0.1, steps: 1}\n"
                  "initial: {kind: sheet, n: 50, amplitude: 0.05}\n"},
        {"csv", "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: file, path: v.csv}\n"},
    };
    return jobs;
}

const char *kCsv = "# three vortices\ngamma, x ,y,extra\n1.5,0.1,0.2,9\n-2,3,4,9\n\n"
                   "0.25,-1e-3,5e2,9\n";

// Trajectories: every integrator, unbounded and periodic, three steps.
const std::vector<ReferenceJob> &run_jobs() {
    static const std::vector<ReferenceJob> jobs = [] {
        std::vector<ReferenceJob> j;
        for (const char *integ : {"euler", "rk2", "heun", "rk4"})
            j.push_back({std::string("krasny_") + integ,
                         std::string("physics: {regularisation: krasny, delta: 0.1}\n"
                                     "integrator: {kind: ") +
                             integ +
                             ", dt: 0.05, steps: 3}\ninitial: {kind: patch, n: 12, radius: 0.5, "
                             "circulation_spread: 1.5, seed: 3}\n",
                         3});
        j.push_back({"point_ring_rk4",
                     "integrator: {kind: rk4, dt: 0.1, steps: 3}\ninitial: {kind: ring, n: 7, "
                     "perturbation: 0.1, seed: 2}\n",
                     3});
        j.push_back({"gaussian_lamb_oseen_heun",
                     "physics: {regularisation: gaussian, delta: 0.3}\n"
                     "integrator: {kind: heun, dt: 0.2, steps: 3}\n"
                     "initial: {kind: lamb_oseen, rings: 2}\n",
                     3});
        j.push_back({"periodic_gaussian_sheet_rk4",
                     "physics: {regularisation: gaussian, delta: 0.05, periodic_x: true, period: "
                     "1.0}\nintegrator: {kind: rk4, dt: 0.05, steps: 3}\n"
                     "initial: {kind: sheet, n: 16, amplitude: 0.05}\n",
                     3});
        j.push_back({"periodic_krasny_sheet_rk2",
                     "physics: {regularisation: krasny, delta: 0.2, periodic_x: true, period: "
                     "1.0}\nintegrator: {kind: rk2, dt: 0.05, steps: 3}\n"
                     "initial: {kind: sheet, n: 16, amplitude: 0.05}\n",
                     3});
        return j;
    }();
    return jobs;
}

class VortexCPython : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new fs::path(vortex_temp_dir("cpython"));
        std::ofstream(*dir_ / "v.csv") << kCsv;
        std::vector<ReferenceJob> jobs = initial_jobs();
        for (const ReferenceJob &j : run_jobs())
            jobs.push_back(j);
        ref_ =
            new std::map<std::string, std::vector<double>>(cpython_reference(jobs, *dir_, *error_));
    }
    static void TearDownTestSuite() {
        fs::remove_all(*dir_);
        delete dir_;
        delete ref_;
    }
    void SetUp() override {
        if (ref_->empty() && error_->find("No module named") != std::string::npos)
            GTEST_SKIP() << "CPython lacks a module: " << *error_;
        ASSERT_FALSE(ref_->empty()) << "vortex_reference.py failed:\n" << *error_;
    }
    static VortexConfig config(const ReferenceJob &j) {
        return vortex_config(j.config, (*dir_ / "test.yaml").string());
    }
    static const std::vector<double> &ref(const std::string &name) {
        static const std::vector<double> none;
        auto it = ref_->find(name);
        EXPECT_NE(it, ref_->end()) << "no reference line " << name;
        return it == ref_->end() ? none : it->second;
    }

    static fs::path *dir_;
    static std::map<std::string, std::vector<double>> *ref_;
    static std::string *error_;
};

fs::path *VortexCPython::dir_ = nullptr;
std::map<std::string, std::vector<double>> *VortexCPython::ref_ = nullptr;
std::string *VortexCPython::error_ = new std::string;

// Same definitions, same draws, same order of operations: the same bits.
TEST_F(VortexCPython, InitialStatesAreBitIdentical) {
    for (const ReferenceJob &j : initial_jobs()) {
        SCOPED_TRACE(j.name);
        const VortexConfig c = config(j);
        const InitialState s = make_initial_state(c);
        EXPECT_EQ(s.size(), c.n());
        EXPECT_EQ(s.x, ref(j.name + ".initial.x"));
        EXPECT_EQ(s.y, ref(j.name + ".initial.y"));
        EXPECT_EQ(s.gamma, ref(j.name + ".initial.gamma"));
    }
}

// Each integrator's stage sequence through the engine = PySim.step in CPython, step by step. The
// compiled kernels may contract a*b+c into FMAs, so the match is to round-off, not bits.
TEST_F(VortexCPython, TrajectoriesAndObservablesMatchEveryIntegrator) {
    OneCpuThread serial;
    for (const ReferenceJob &j : run_jobs()) {
        SCOPED_TRACE(j.name);
        const VortexConfig c = config(j);
        Simulation sim(c, vortex_physics());
        sim.initialize();
        sim.compile_kernels();
        auto check_obs = [&](int s) {
            const std::vector<double> got = sim.sample(),
                                      want = ref(j.name + ".obs" + std::to_string(s));
            ASSERT_EQ(got.size(), want.size());
            for (size_t k = 0; k < got.size(); ++k)
                EXPECT_NEAR(got[k], want[k], 1e-12 * std::max(1.0, std::abs(want[k])))
                    << observable_columns()[k].name << " at step " << s;
        };
        check_obs(0);
        for (int s = 1; s <= j.steps; ++s) {
            sim.step();
            const auto x = sim.host(sim.x()), y = sim.host(sim.y());
            const auto &rx = ref(j.name + ".step" + std::to_string(s) + ".x");
            const auto &ry = ref(j.name + ".step" + std::to_string(s) + ".y");
            ASSERT_EQ(x.size(), rx.size());
            for (size_t k = 0; k < x.size(); ++k) {
                EXPECT_NEAR(x[k], rx[k], 1e-13 * (1.0 + std::abs(rx[k]))) << "x at step " << s;
                EXPECT_NEAR(y[k], ry[k], 1e-13 * (1.0 + std::abs(ry[k]))) << "y at step " << s;
            }
            check_obs(s);
        }
        EXPECT_EQ(sim.evaluations(), j.steps * evaluations_per_step(c.integrator.kind));
    }
}

// ---- single precision ---------------------------------------------------------------------

// The same run in single precision stays within float round-off of the double one.
TEST(VortexEngine, SinglePrecisionFollowsDouble) {
    OneCpuThread serial;
    const std::string yaml = "physics: {regularisation: krasny, delta: 0.05}\n"
                             "integrator: {dt: 0.02, steps: 5}\n"
                             "initial: {kind: patch, n: 50, seed: 4}\n";
    Simulation d(vortex_config(yaml), vortex_physics());
    Simulation s(vortex_config("precision: single\n" + yaml), vortex_physics());
    d.initialize();
    s.initialize();
    for (int k = 0; k < 5; ++k) {
        d.step();
        s.step();
    }
    EXPECT_EQ(s.x().dtype(), smelt::DType::Float32);
    const auto xd = d.host(d.x()), xs = s.host(s.x());
    for (size_t k = 0; k < xd.size(); ++k)
        EXPECT_NEAR(xs[k], xd[k], 1e-5);
    const auto od = d.sample(), os = s.sample();
    EXPECT_NEAR(os[0], od[0], 1e-6);                          // circulation
    EXPECT_NEAR(os[4], od[4], 1e-5 * std::abs(od[4]) + 1e-6); // H
}

} // namespace
