// md3d's host-side numbers against tests/apps/md3d_host_reference.py (CPython): the counter RNG,
// chi-square draws, Bussi's factor, the tail corrections and the degrees of freedom, bit for bit.
#include "common/counter_rng.h"
#include "md3d/host_physics.h"
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

using namespace smelt::apps;
using namespace smelt::apps::md3d;
using smelt::apps::test_util::run_process;
using smelt::apps::test_util::shell_quote;

namespace {

// Runs `body` after importing the reference (as H) and rng.py (as R); each printed line is
// "name value" with the value as float.hex() (exact) or an integer.
std::vector<std::pair<std::string, std::string>> python_lines(const std::string &body) {
    const std::string script = "import sys\n"
                               "sys.path.insert(0, '" SMELT_TEST_DATA_DIR "/apps')\n"
                               "import md3d_host_reference as H\n"
                               "import rng as R\n" +
                               body;
    auto r = run_process(smelt::testing_util::test_python() + " -c " + shell_quote(script));
    EXPECT_EQ(r.status, 0) << r.output;
    std::vector<std::pair<std::string, std::string>> out;
    std::istringstream in(r.output);
    std::string name, value;
    while (in >> name >> value)
        out.emplace_back(name, value);
    return out;
}

double hex_value(const std::string &s) {
    return std::strtod(s.c_str(), nullptr); // C++ reads Python's float.hex() spelling
}

TEST(Md3dHost, CounterRngEqualsRngPy) {
    auto lines =
        python_lines("for seed in (0, 1, 2**40 + 5, 2**64 - 1):\n"
                     "    for step in (0, 1, 12345, 2**33 + 7):\n"
                     "        for pid in (0, 3, 99999):\n"
                     "            for stream in (0, 4, 5):\n"
                     "                print('bits', R.random_bits(seed, step, pid, stream))\n"
                     "                print('u', R.rng_uniform(seed, step, pid, stream).hex())\n"
                     "                print('z', R.rng_normal(seed, step, pid, stream).hex())\n");
    size_t k = 0;
    for (uint64_t seed : {uint64_t(0), uint64_t(1), (uint64_t(1) << 40) + 5, ~uint64_t(0)})
        for (int64_t step : {int64_t(0), int64_t(1), int64_t(12345), (int64_t(1) << 33) + 7})
            for (int32_t pid : {0, 3, 99999})
                for (int32_t stream : {0, 4, 5}) {
                    ASSERT_LT(k + 2, lines.size());
                    EXPECT_EQ(std::to_string(counter_rng::random_bits(seed, step, pid, stream)),
                              lines[k].second);
                    EXPECT_EQ(counter_rng::uniform(seed, step, pid, stream),
                              hex_value(lines[k + 1].second));
                    EXPECT_EQ(counter_rng::normal(seed, step, pid, stream),
                              hex_value(lines[k + 2].second));
                    k += 3;
                }
    EXPECT_EQ(k, lines.size());
}

TEST(Md3dHost, ChiSquareEqualsTheReference) {
    const std::vector<int64_t> nus{0, 1, 2, 3, 5, 17, 299, 11999};
    const std::vector<int64_t> steps{0, 1, 7, 123456789012};
    const std::vector<uint64_t> seeds{1, 987654321987654321ull};
    std::string body = "for seed in (1, 987654321987654321):\n"
                       "    for step in (0, 1, 7, 123456789012):\n"
                       "        for nu in (0, 1, 2, 3, 5, 17, 299, 11999):\n"
                       "            print('chi2', H.chi_square(nu, seed, step).hex())\n";
    auto lines = python_lines(body);
    ASSERT_EQ(lines.size(), seeds.size() * steps.size() * nus.size());
    size_t k = 0;
    for (uint64_t seed : seeds)
        for (int64_t step : steps)
            for (int64_t nu : nus)
                EXPECT_EQ(chi_square(nu, seed, step), hex_value(lines[k++].second))
                    << "nu " << nu << " step " << step << " seed " << seed;
}

TEST(Md3dHost, BussiAlphaEqualsTheReference) {
    struct Case {
        double ke, kT;
        int64_t nf;
        double dt, tau;
        uint64_t seed;
        int64_t step;
    };
    // Hot and cold systems, small and large Nf, tau near dt (large steps) and long, no kinetic
    // energy, no bath temperature, and a 2-dof system where the negative root occurs.
    std::vector<Case> cases;
    for (int64_t step = 0; step < 40; ++step)
        cases.push_back({0.3 + 0.01 * double(step), 1.0, 2, 0.005, 0.006, 3, step});
    for (int64_t nf : {3, 29, 1497, 11997})
        for (double ke : {0.25 * double(nf), 0.5 * double(nf), 2.0 * double(nf)})
            for (double tau : {0.01, 0.5, 100.0})
                cases.push_back({ke, 1.2, nf, 0.005, tau, 77, 123 + nf});
    cases.push_back({0.0, 1.0, 30, 0.005, 0.5, 1, 0});
    cases.push_back({5.0, 0.0, 30, 0.005, 0.5, 1, 0});
    std::ostringstream body;
    body.precision(17);
    body << "cases = [";
    for (const Case &c : cases)
        body << "(" << std::hexfloat << "float.fromhex('" << c.ke << "'), float.fromhex('" << c.kT
             << "'), " << std::dec << c.nf << ", " << std::hexfloat << "float.fromhex('" << c.dt
             << "'), float.fromhex('" << c.tau << "'), " << std::dec << c.seed << ", " << c.step
             << "),\n";
    body << "]\nfor c in cases:\n    print('alpha', H.bussi_alpha(*c).hex())\n";
    auto lines = python_lines(body.str());
    ASSERT_EQ(lines.size(), cases.size());
    int negative = 0;
    for (size_t k = 0; k < cases.size(); ++k) {
        const Case &c = cases[k];
        const double alpha = bussi_alpha(c.ke, c.kT, c.nf, c.dt, c.tau, c.seed, c.step);
        EXPECT_EQ(alpha, hex_value(lines[k].second)) << "case " << k;
        negative += alpha < 0;
    }
    EXPECT_EQ(bussi_alpha(0.0, 1.0, 30, 0.005, 0.5, 1, 0), 1.0);
    EXPECT_EQ(bussi_alpha(5.0, 0.0, 30, 0.005, 0.5, 1, 0), 1.0);
    EXPECT_GT(negative, 0) << "the sign rule is not exercised";
}

TEST(Md3dHost, TailCorrectionsEqualTheReference) {
    // One type (the LAMMPS in.lj state) and the Kob-Andersen mixture.
    auto lines =
        python_lines("u, p = H.lj_tail([32000], 20**3 * 4 / 0.8442, [[1.0]], [[1.0]], [[2.5]])\n"
                     "print('u1', u.hex()); print('p1', p.hex())\n"
                     "eps = [[1.0, 1.5], [1.5, 0.5]]; sig = [[1.0, 0.8], [0.8, 0.88]]\n"
                     "rc = [[2.5, 2.0], [2.0, 2.2]]\n"
                     "u, p = H.lj_tail([3200, 800], 4000 / 1.2, eps, sig, rc)\n"
                     "print('u2', u.hex()); print('p2', p.hex())\n");
    ASSERT_EQ(lines.size(), 4u);
    TailCorrection one = lj_tail({32000}, 20.0 * 20.0 * 20.0 * 4.0 / 0.8442, {1.0}, {1.0}, {2.5});
    EXPECT_EQ(one.energy, hex_value(lines[0].second));
    EXPECT_EQ(one.pressure, hex_value(lines[1].second));
    TailCorrection ka = lj_tail({3200, 800}, 4000 / 1.2, {1.0, 1.5, 1.5, 0.5},
                                {1.0, 0.8, 0.8, 0.88}, {2.5, 2.0, 2.0, 2.2});
    EXPECT_EQ(ka.energy, hex_value(lines[2].second));
    EXPECT_EQ(ka.pressure, hex_value(lines[3].second));
    // The one-type closed form of the README: U/N = (8/3) pi rho [x^9/3 - x^3], x = 1/rc.
    const double rho = 0.8442, x3 = 1.0 / (2.5 * 2.5 * 2.5);
    EXPECT_NEAR(one.energy / 32000, 8.0 / 3.0 * M_PI * rho * (x3 * x3 * x3 / 3 - x3), 1e-14);
    EXPECT_NEAR(one.pressure, 16.0 / 3.0 * M_PI * rho * rho * (2 * x3 * x3 * x3 / 3 - x3), 1e-14);
}

TEST(Md3dHost, DegreesOfFreedomEqualTheReference) {
    auto lines = python_lines("for kind in ('nve', 'langevin', 'bussi'):\n"
                              "    for mask in range(8):\n"
                              "        print('nf', H.degrees_of_freedom(500, mask, kind))\n");
    ASSERT_EQ(lines.size(), 24u);
    size_t k = 0;
    for (IntegratorKind kind :
         {IntegratorKind::Nve, IntegratorKind::Langevin, IntegratorKind::Bussi})
        for (int32_t mask = 0; mask < 8; ++mask)
            EXPECT_EQ(std::to_string(degrees_of_freedom(500, mask, kind)), lines[k++].second);
    EXPECT_EQ(degrees_of_freedom(500, 7, IntegratorKind::Nve), 1497);
    EXPECT_EQ(degrees_of_freedom(500, 3, IntegratorKind::Bussi), 1498);
    EXPECT_EQ(degrees_of_freedom(500, 7, IntegratorKind::Langevin), 1500);
}

} // namespace
