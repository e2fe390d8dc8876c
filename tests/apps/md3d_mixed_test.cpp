// md3d in mixed precision (precision: mixed, compute_forces_mixed): float64 positions, outputs
// and sums, float32 pair arithmetic. Its forces, energies and virials against float64 within
// the float32 rounding bound of their pair terms (a hand-written loop gives the bound), and
// closer to float64 than single precision's in the accumulated sums; the CPU form has the GPU
// form's bits; a short NVE run conserves energy as float64's does; the same on OpenCL (PoCL in
// CI). Restarts: md3d_restart_test.cpp.
#include "md3d/simulation.h"
#include "md3d_test_util.h"
#include "test_process.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace smelt::apps;
using namespace smelt::apps::md3d;
using namespace smelt::apps::test_util;

namespace {

const char *kQuiet = "output: {h5md: false, csv: false, progress: false, checkpoint: false}\n";

// The Kob-Andersen mixture (two types, masses 1 and 1.7) in a cube of `edge`, periodic on the
// axes of `mask`, walls on the others.
std::string ka_yaml(int64_t n, double edge, int32_t mask, const std::string &extra) {
    std::ostringstream s;
    s << "system:\n  lattice: sc\n  n: " << n << "\n  lattice_constant: 0.5\n  box: [" << edge
      << ", " << edge << ", " << edge << "]\n  boundary: [";
    for (int a = 0; a < 3; ++a)
        s << (a ? ", " : "") << (((mask >> a) & 1) ? "periodic" : "walls");
    s << "]\n  types: [A, B]\n  counts: [" << n - n / 2 << ", " << n / 2
      << "]\n  masses: [1.0, 1.7]\n  temperature: 0\n";
    if (mask != 7) s << "  walls: {stiffness: 50.0, range: 0.5}\n";
    s << "potential:\n  shift: true\n"
      << kKobAndersenPairs << "integrator: {dt: 0.005, steps: 10}\n"
      << extra << kQuiet;
    return s.str();
}

// Per particle: fx, fy, fz, pe, vir (host copies, id order).
using Outputs = std::array<std::vector<double>, 5>;

Outputs outputs_of(const std::string &yaml, const HostState &s) {
    Simulation sim(md3d_config(yaml), md3d_physics());
    sim.set_state(s);
    Outputs o;
    for (int a = 0; a < 3; ++a)
        o[size_t(a)] = sim.host(sim.force(a));
    o[3] = sim.host(sim.pe());
    o[4] = sim.host(sim.vir());
    return o;
}

// What float32 rounding may change in each output of each particle: K u sum_j |term_ij|, with
// u = 2^-24 and each pair's term taken as the sum of the magnitudes of its parts (so a sum that
// cancels is not given a small bound): 24 eps (2 s^12 + s^6) / r^2 |d_a| for a force component,
// 2 eps (s^12 + s^6) for pe (half the pair energy), 12 eps (2 s^12 + s^6) for vir. K = 64: the
// rounded difference carries u into d_a and up to 5u into r^2, s^2 = sigma^2 / r^2 up to 8u,
// s^6 up to 26u, s^12 up to 53u, and the last products a few u more. A hand-written loop over
// every pair (minimum image on periodic axes), independent of the kernels.
Outputs rounding_bounds(const HostState &s, double edge, int32_t mask) {
    const double u = std::ldexp(1.0, -24), K = 64.0;
    // Kob-Andersen: (epsilon, sigma, r_cut) of AA, AB, BB.
    const double eps[3] = {1.0, 1.5, 0.5}, sig[3] = {1.0, 0.8, 0.88}, rc[3] = {2.5, 2.0, 2.2};
    const size_t n = s.species.size();
    Outputs b;
    for (auto &v : b)
        v.assign(n, 0.0);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            if (i == j) continue;
            double d[3], r2 = 0.0;
            for (int a = 0; a < 3; ++a) {
                d[a] = s.position[size_t(a)][i] - s.position[size_t(a)][j];
                if ((mask >> a) & 1) d[a] -= edge * std::round(d[a] / edge);
                r2 += d[a] * d[a];
            }
            const int k = s.species[i] + s.species[j];
            if (r2 >= rc[k] * rc[k]) continue;
            const double s6 = std::pow(sig[k] * sig[k] / r2, 3);
            const double g = 24.0 * eps[k] * (2.0 * s6 * s6 + s6) / r2;
            for (size_t a = 0; a < 3; ++a)
                b[a][i] += K * u * g * std::abs(d[a]);
            b[3][i] += K * u * 2.0 * eps[k] * (s6 * s6 + s6);
            b[4][i] += K * u * 0.5 * g * r2;
        }
    return b;
}

// Mixed against double on `backend`: every output within its bound, and most of them not
// double's bits (the pairs are float32). Returns the worst error as a fraction of its bound.
double expect_mixed_within_rounding(const std::string &backend, int32_t mask) {
    const double edge = 9.0;
    const HostState s = random_state(500, {edge, edge, edge}, mask, 2, 0.85, 21 + uint64_t(mask));
    const std::string run = "backend: " + backend + "\n";
    const Outputs d = outputs_of(ka_yaml(500, edge, mask, "precision: double\n"), s);
    const Outputs m = outputs_of(ka_yaml(500, edge, mask, run + "precision: mixed\n"), s);
    const Outputs bound = rounding_bounds(s, edge, mask);
    double worst = 0.0;
    size_t differ = 0, total = 0;
    for (size_t q = 0; q < 5; ++q)
        for (size_t i = 0; i < d[q].size(); ++i) {
            const double err = std::abs(m[q][i] - d[q][i]);
            EXPECT_LE(err, bound[q][i])
                << backend << " mask " << mask << " output " << q << " particle " << i << ": "
                << m[q][i] << " vs " << d[q][i];
            if (bound[q][i] > 0) worst = std::max(worst, err / bound[q][i]);
            differ += m[q][i] != d[q][i];
            ++total;
        }
    EXPECT_GT(differ, total * 9 / 10) << "mixed gave float64's bits: no float32 pair arithmetic";
    return worst;
}

TEST(Md3dMixed, ForcesEnergiesAndVirialsMatchDoubleToFloat32Rounding) {
    SerialCpu serial;
    for (int32_t mask : {7, 3}) {
        const double worst = expect_mixed_within_rounding("cpu", mask);
        // float32's errors (the worst is 0.14 of its bound here), not float64's (~1e-9 of it).
        EXPECT_GT(worst, 1e-3) << "mask " << mask;
    }
}

// Kob-Andersen tables as the driver passes them (AA, AB, BA, BB; the shift is filled on the
// device by pair_shift_table).
const double kEps[4] = {1.0, 1.5, 1.5, 0.5}, kSig[4] = {1.0, 0.8, 0.8, 0.88},
             kRc2[4] = {6.25, 4.0, 4.0, 4.84};

// The specification of precision: mixed, written out by hand for particle i over every j in
// index order (the order of the cpu backend's sorted lists; pairs beyond the cutoff add
// nothing): the difference and its minimum image in double, rounded to float; r^2, 1/r^2 and
// the LJ terms in float (C++ float arithmetic: float operands stay float on x86-64, and the
// engine compiles with -ffp-contract=off, as this file is compiled without FMA); the sums and
// the energy shift in double. Returns fx, fy, fz, pe, vir of i.
std::array<double, 5> float32_pairs_oracle(size_t i, const std::array<std::vector<double>, 3> &x,
                                           const std::vector<int32_t> &typ, double edge,
                                           int32_t mask, const std::vector<double> &eshift) {
    std::array<double, 5> out{};
    double ei = 0.0, wi = 0.0;
    for (size_t j = 0; j < typ.size(); ++j) {
        if (j == i) continue;
        float d[3];
        for (int a = 0; a < 3; ++a) {
            const double half = ((mask >> a) & 1) ? 0.5 * edge : INFINITY;
            double e = x[size_t(a)][i] - x[size_t(a)][j];
            e = e >= half ? e - edge : e;
            e = e < -half ? e + edge : e;
            d[a] = float(e);
        }
        const float r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        const int k = typ[i] * 2 + typ[j];
        if (!(r2 < kRc2[k])) continue;
        const float inv = 1.0f / r2, eps = float(kEps[k]), sig = float(kSig[k]);
        const float s2 = sig * sig * inv, s6 = s2 * s2 * s2;
        const float ff = 24.0f * eps * (2.0f * s6 * s6 - s6) * inv;
        const float u = 4.0f * eps * (s6 * s6 - s6);
        for (int a = 0; a < 3; ++a)
            out[size_t(a)] += ff * d[a];
        ei += u - eshift[size_t(k)];
        wi += ff * r2;
    }
    out[3] = 0.5 * ei;
    out[4] = 0.5 * wi;
    return out;
}

// The GPU form with one lane (compute_forces_mixed) and the CPU form
// (compute_forces_chunked_mixed, lists spanning three chunks) on the cpu backend's full sorted
// list: both equal the hand-written specification bit for bit, periodic and walled; energy = 0
// gives the same forces and leaves pe and vir alone.
TEST(Md3dMixed, BothFormsAreFloat32PairsSummedInFloat64) {
    const double edge = 9.0;
    for (int32_t mask : {7, 3}) {
        const HostState s =
            random_state(600, {edge, edge, edge}, mask, 2, 0.85, 3 + uint64_t(mask), -0.3);
        Simulation sim(md3d_config(ka_yaml(600, edge, mask, "precision: mixed\n")), md3d_physics());
        sim.set_state(s);
        const NeighborList &nl = sim.neighbors();
        ASSERT_FALSE(nl.spec().half);
        int32_t longest = 0;
        for (int32_t k : nl.count().to_vector<int32_t>())
            longest = std::max(longest, k);
        EXPECT_GT(longest, 64) << "no list spans three chunks";
        auto eps_t = smelt::Array::from_vector(std::vector<double>(kEps, kEps + 4)),
             sig_t = smelt::Array::from_vector(std::vector<double>(kSig, kSig + 4)),
             rc2_t = smelt::Array::from_vector(std::vector<double>(kRc2, kRc2 + 4)),
             eshift_t = smelt::zeros(4);
        smelt::Elementwise table(md3d_physics(), "pair_shift_table");
        table({eps_t, sig_t, rc2_t, eshift_t, int32_t(1)});
        auto run = [&](const char *kernel, int32_t energy) {
            std::vector<smelt::Array> r;
            for (int k = 0; k < 5; ++k)
                r.push_back(smelt::zeros(600));
            std::vector<smelt::Arg> args =
                pair_force_args(sim, nl, r, edge, mask, {eps_t, sig_t, rc2_t, eshift_t});
            const bool gpu_form = std::string(kernel) == "compute_forces_mixed";
            if (gpu_form) args.push_back(int32_t(1));
            args.push_back(energy);
            if (gpu_form) { // no displacement test to skip for
                args.push_back(smelt::zeros(1, smelt::DType::Int32));
            }
            smelt::Elementwise forces(md3d_physics(), kernel);
            forces(args);
            std::vector<std::vector<double>> out;
            for (const auto &a : r)
                out.push_back(a.to_vector<double>());
            return out;
        };
        const auto pair_loop = run("compute_forces_mixed", 1),
                   chunked = run("compute_forces_chunked_mixed", 1),
                   forces_only = run("compute_forces_chunked_mixed", 0);
        const std::array<std::vector<double>, 3> x = {sim.position(0).to_vector<double>(),
                                                      sim.position(1).to_vector<double>(),
                                                      sim.position(2).to_vector<double>()};
        const std::vector<int32_t> typ = sim.species().to_vector<int32_t>();
        const std::vector<double> eshift = eshift_t.to_vector<double>();
        int mismatches = 0;
        for (size_t i = 0; i < 600; ++i) {
            const auto want = float32_pairs_oracle(i, x, typ, edge, mask, eshift);
            for (size_t k = 0; k < 5; ++k)
                if (pair_loop[k][i] != want[k] && ++mismatches <= 5)
                    ADD_FAILURE() << "mask " << mask << " particle " << i << " output " << k << ": "
                                  << pair_loop[k][i] << " vs the specification " << want[k];
        }
        EXPECT_EQ(mismatches, 0);
        for (size_t k = 0; k < 5; ++k)
            EXPECT_EQ(chunked[k], pair_loop[k]) << "mask " << mask << " output " << k;
        for (size_t k = 0; k < 3; ++k)
            EXPECT_EQ(forces_only[k], pair_loop[k]) << "mask " << mask << " output " << k;
        for (size_t k = 3; k < 5; ++k)
            EXPECT_EQ(forces_only[k], std::vector<double>(600, 0.0)) << "energy 0 wrote " << k;
    }
}

// The sums over particles (total pe, virial) and the forces: mixed's errors against float64 are
// those of the float32 pair terms, single's also those of float32 positions and float32 sums.
TEST(Md3dMixed, CloserToDoubleThanSingleInTheSums) {
    SerialCpu serial;
    const double edge = 9.0;
    const HostState s = random_state(500, {edge, edge, edge}, 7, 2, 0.85, 33);
    auto sums = [&](const char *precision) {
        Simulation sim(
            md3d_config(ka_yaml(500, edge, 7, std::string("precision: ") + precision + "\n")),
            md3d_physics());
        sim.set_state(s);
        std::array<std::vector<double>, 3> f;
        for (int a = 0; a < 3; ++a)
            f[size_t(a)] = sim.host(sim.force(a));
        const Observables o = sim.observables();
        return std::make_tuple(o.pe, o.virial, f);
    };
    const auto [pe_d, vir_d, f_d] = sums("double");
    const auto [pe_m, vir_m, f_m] = sums("mixed");
    const auto [pe_s, vir_s, f_s] = sums("single");
    auto rms = [&](const std::array<std::vector<double>, 3> &f) {
        double e = 0.0;
        for (size_t a = 0; a < 3; ++a)
            for (size_t i = 0; i < f[a].size(); ++i)
                e += (f[a][i] - f_d[a][i]) * (f[a][i] - f_d[a][i]);
        return std::sqrt(e);
    };
    // Measured: pe 4.1e-5 against 3.6e-4, virial 8.1e-4 against 4.6e-3, force rms 1.1e-3
    // against 9.6e-3.
    EXPECT_LT(std::abs(pe_m - pe_d), std::abs(pe_s - pe_d) / 3);
    EXPECT_LT(std::abs(vir_m - vir_d), std::abs(vir_s - vir_d) / 3);
    EXPECT_LT(rms(f_m), rms(f_s) / 3);
}

// An fcc crystal at T = 1 melting in NVE: the total energy of mixed stays within velocity
// Verlet's fluctuation bound of the float64 test (Md3dEngine.NveConservesEnergyAndMomentum), and
// close to the float64 run's energy at each sample: float32 pair rounding is a random force
// error of ~1e-7 relative, far below the integrator's O(dt^2) fluctuation.
void expect_nve_like_double(const std::string &backend, int steps) {
    const std::string system =
        "system: {lattice: fcc, cells: [5, 5, 5], density: 0.8, temperature: 1.0, seed: 7}\n"
        "potential: {r_cut: 2.5, shift: true}\n"
        "integrator: {dt: 0.004, steps: " +
        std::to_string(steps) + "}\n" + kQuiet;
    Simulation d(md3d_config(system), md3d_physics());
    Simulation m(md3d_config("backend: " + backend + "\nprecision: mixed\n" + system),
                 md3d_physics());
    d.set_initial_state();
    m.set_initial_state();
    const ThermoSample t0 = m.thermo();
    const double scale = std::abs(t0.pe) + t0.ke;
    EXPECT_NEAR(t0.etotal, d.thermo().etotal, 1e-6 * scale);
    double worst = 0.0, apart = 0.0;
    for (int k = 0; k < steps; ++k) {
        d.step();
        m.step();
        if (k % 10 == 9) {
            const ThermoSample tm = m.thermo(), td = d.thermo();
            worst = std::max(worst, std::abs(tm.etotal - t0.etotal));
            apart = std::max(apart, std::abs(tm.etotal - td.etotal));
        }
    }
    EXPECT_LT(worst / scale, 2e-4) << backend << ": energy drift " << worst;
    // Measured on the cpu: worst |E - E0| 3.9e-5 of the scale, |E_mixed - E_double| 5e-8.
    EXPECT_LT(apart / scale, 1e-6) << backend;
    EXPECT_LT(m.thermo().temperature, 0.9) << backend << ": the crystal melts";
}

TEST(Md3dMixed, NveConservesEnergyAsDoubleDoes) {
    SerialCpu serial;
    expect_nve_like_double("cpu", 300);
}

TEST(Md3dMixed, ConfigResolvesToFullListsAndDescribesItself) {
    const std::string liquid =
        "system: {lattice: fcc, cells: [5, 5, 5], density: 0.8, temperature: 1.0}\n"
        "integrator: {dt: 0.005, steps: 10}\n";
    const Md3dConfig c = md3d_config("precision: mixed\n" + liquid + kQuiet);
    EXPECT_EQ(c.precision, Precision::Mixed);
    EXPECT_FALSE(c.neighbor.newton_on(true)) << "mixed runs full lists on the cpu backend";
    EXPECT_FALSE(neighbor_spec(c).half);
    EXPECT_EQ(engine_options(c).precision, smelt::Precision::Double);
    EXPECT_NE(describe_run(c).find("mixed precision"), std::string::npos) << describe_run(c);
    EXPECT_EQ(std::string(to_string(Precision::Mixed)), "mixed");
    // Double keeps Newton's half lists on the cpu backend.
    EXPECT_TRUE(md3d_config(liquid + kQuiet).neighbor.newton_on(true));
}

#if defined(SMELT_MD3D) && defined(SMELT_MD2D)
// The command line: md3d runs --precision mixed (and says so in its header); md2d, whose force
// loop has no mixed form, refuses it with status 1 and the key.
TEST(Md3dMixed, CommandLineTakesItAndMd2dRefusesIt) {
    const std::filesystem::path dir = fresh_temp_dir("md3d_mixed_cli");
    const std::string configs = std::string(SMELT_SOURCE_DIR) + "/configs/ci/";
    auto r =
        run_process(shell_quote(SMELT_MD3D) + " run " + shell_quote(configs + "md3d_tiny.yaml") +
                    " --precision mixed --steps 5 --threads 1 --output " +
                    shell_quote((dir / "md3d").string()));
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("cpu, mixed precision"), std::string::npos) << r.output;
    r = run_process(shell_quote(SMELT_MD2D) + " run " + shell_quote(configs + "md2d_tiny.yaml") +
                    " --precision mixed --output " + shell_quote((dir / "md2d").string()));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("precision: mixed precision is md3d's only"), std::string::npos)
        << r.output;
    std::filesystem::remove_all(dir);
}
#endif

// On OpenCL (PoCL in CI): compute_forces_mixed with the lanes the backend chooses at N = 500
// (8; sum_lanes adds them in float64), against the CPU's float64, and an NVE run.
TEST(OpenCLMd3dMixed, ForcesAndEnergyConservationAsOnTheCpu) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    expect_mixed_within_rounding("opencl", 7);
    expect_nve_like_double("opencl", 100);
}

} // namespace
