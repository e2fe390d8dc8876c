// md3d configuration: every tests/apps/bad_configs/md3d_*.yaml is rejected with the location, key
// and message its first line announces; the shipped configs parse into the values they spell
// out; the type assignment and the initial state follow the README.
#include "md3d/config.h"
#include "md3d/initial_state.h"
#include "md3d_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>

namespace fs = std::filesystem;
using namespace smelt::apps;
using namespace smelt::apps::md3d;
using smelt::apps::test_util::md3d_config;

namespace {

std::vector<std::string> bad_config_files() {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(fs::path(SMELT_TEST_DATA_DIR) / "apps/bad_configs"))
        if (e.path().extension() == ".yaml" && e.path().stem().string().rfind("md3d_", 0) == 0)
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// "# expect: LINE:COL: KEY: FRAGMENT".
struct Expectation {
    int line = 0, column = 0;
    std::string key, fragment;
};

Expectation read_expectation(const std::string &path) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    static const std::regex re(R"(# expect: (\d+):(\d+): (\S+): (.+))");
    std::smatch m;
    Expectation e;
    if (!std::regex_match(first, m, re)) {
        ADD_FAILURE() << path << ": first line must be '# expect: LINE:COL: KEY: FRAGMENT'";
        return e;
    }
    e.line = std::stoi(m[1]);
    e.column = std::stoi(m[2]);
    e.key = m[3];
    e.fragment = m[4];
    return e;
}

class Md3dBadConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(Md3dBadConfig, IsRejectedWithLocationKeyAndMessage) {
    const std::string path = GetParam();
    Expectation want = read_expectation(path);
    try {
        load_md3d_config(path);
        FAIL() << path << " was accepted";
    } catch (const ConfigError &e) {
        EXPECT_EQ(e.file(), path);
        EXPECT_EQ(e.line(), want.line) << e.what();
        EXPECT_EQ(e.column(), want.column) << e.what();
        EXPECT_EQ(e.key(), want.key) << e.what();
        EXPECT_NE(e.message().find(want.fragment), std::string::npos)
            << "message: " << e.message() << "\nexpected fragment: " << want.fragment;
        const std::string prefix = path + ":" + std::to_string(want.line) + ":" +
                                   std::to_string(want.column) + ": error: ";
        EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(Files, Md3dBadConfig, ::testing::ValuesIn(bad_config_files()),
                         [](const auto &info) { return fs::path(info.param).stem().string(); });

TEST(Md3dBadConfigs, AtLeastFifteenFiles) {
    EXPECT_GE(bad_config_files().size(), 15u);
}

std::string config_path(const std::string &name) {
    return std::string(SMELT_SOURCE_DIR) + "/configs/" + name;
}

TEST(Md3dConfig, ShippedConfigsParse) {
    std::vector<std::string> files;
    for (const char *dir : {"", "ci/"})
        for (const auto &e : fs::directory_iterator(config_path(dir)))
            if (e.path().filename().string().rfind("md3d_", 0) == 0 &&
                e.path().extension() == ".yaml")
                files.push_back(e.path().string());
    EXPECT_GE(files.size(), 7u);
    for (const std::string &f : files)
        EXPECT_NO_THROW(load_md3d_config(f)) << f;
}

TEST(Md3dConfig, DefaultConfigIsTheLiquidOfTheReadme) {
    Md3dConfig c = load_md3d_config(config_path("md3d_lj.yaml"));
    EXPECT_EQ(c.n(), 4000);
    const double a = std::cbrt(4.0 / 0.8442);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(c.system.box[size_t(k)], 10 * a, 1e-12);
        EXPECT_TRUE(c.axis_periodic(k));
    }
    EXPECT_EQ(c.periodic_mask(), 7);
    EXPECT_EQ(c.integrator.kind, IntegratorKind::Nve);
    EXPECT_EQ(c.ntypes(), 1);
    EXPECT_EQ(c.pair(0, 0).r_cut, 2.5);
    EXPECT_TRUE(c.potential.shift);
    EXPECT_EQ(c.system.counts, (std::vector<int64_t>{4000}));
    EXPECT_EQ(c.integrator.seed, c.system.seed); // defaults to system.seed
    EXPECT_EQ(c.output.prefix, "md3d_lj");
}

TEST(Md3dConfig, KobAndersenTablesAndCounts) {
    Md3dConfig c = load_md3d_config(config_path("md3d_kob_andersen.yaml"));
    ASSERT_EQ(c.ntypes(), 2);
    EXPECT_EQ(c.system.counts, (std::vector<int64_t>{3200, 800}));
    EXPECT_EQ(c.pair(0, 1).epsilon, 1.5);
    EXPECT_EQ(c.pair(1, 0).epsilon, 1.5); // symmetric
    EXPECT_EQ(c.pair(1, 0).sigma, 0.8);
    EXPECT_EQ(c.pair(1, 1).r_cut, 2.2);
    EXPECT_EQ(c.potential.max_r_cut(), 2.5);
    EXPECT_EQ(c.integrator.kind, IntegratorKind::Langevin);
}

TEST(Md3dConfig, MixedBoundariesScaleTheWallAxis) {
    Md3dConfig c = load_md3d_config(config_path("ci/md3d_tiny_langevin.yaml"));
    EXPECT_EQ(c.periodic_mask(), 3); // x and y periodic, walls along z
    const double a = std::cbrt(4.0 / 0.8);
    EXPECT_NEAR(c.system.box[0], 5 * a, 1e-12);
    EXPECT_NEAR(c.system.box[1], 5 * a, 1e-12);
    EXPECT_NEAR(c.system.box[2], 15 * a, 1e-12); // box_scale 3 on a wall axis
    EXPECT_EQ(c.system.counts, (std::vector<int64_t>{400, 100}));
    EXPECT_EQ(c.system.masses, (std::vector<double>{1.0, 2.0}));
    EXPECT_EQ(c.system.wall_stiffness, 50.0);
    // The region is centred: its sites along z lie in the middle third.
    HostState s = make_initial_state(c);
    auto [lo, hi] = std::minmax_element(s.position[2].begin(), s.position[2].end());
    EXPECT_GT(*lo, 5 * a);
    EXPECT_LT(*hi, 10 * a);
}

const char *kBase = "system:\n  lattice: fcc\n  cells: [5, 5, 5]\n  density: 0.8\n"
                    "  temperature: 1.0\n";
const char *kTail = "integrator: {dt: 0.005, steps: 10}\n";

TEST(Md3dConfig, FractionsRoundAndTheLastTypeTakesTheRest) {
    Md3dConfig c = md3d_config(std::string(kBase) +
                               "  types: [A, B, C]\n  fractions: [0.3333, 0.3333, 0.3334]\n"
                               "potential:\n  pairs:\n"
                               "    - {types: [A, A], epsilon: 1, sigma: 1}\n"
                               "    - {types: [A, B], epsilon: 1, sigma: 1}\n"
                               "    - {types: [A, C], epsilon: 1, sigma: 1}\n"
                               "    - {types: [B, B], epsilon: 1, sigma: 1}\n"
                               "    - {types: [B, C], epsilon: 1, sigma: 1}\n"
                               "    - {types: [C, C], epsilon: 1, sigma: 1}\n" +
                               kTail);
    // round(0.3333 * 500) = round(166.65) = 167 twice, the rest 166.
    EXPECT_EQ(c.system.counts, (std::vector<int64_t>{167, 167, 166}));
}

TEST(Md3dConfig, BoxScalePerAxisAndExplicitBox) {
    Md3dConfig c = md3d_config(std::string(kBase) + "  box_scale: [1, 1.5, 2]\n" + kTail);
    const double a = std::cbrt(4.0 / 0.8);
    EXPECT_NEAR(c.system.box[0], 5 * a, 1e-12);
    EXPECT_NEAR(c.system.box[1], 7.5 * a, 1e-12);
    EXPECT_NEAR(c.system.box[2], 10 * a, 1e-12);
    c = md3d_config(std::string(kBase) + "  box: [9, 10, 11]\n" + kTail);
    EXPECT_EQ(c.system.box, (std::array<double, 3>{9, 10, 11}));
}

TEST(Md3dConfig, LatticeConstantAndParticleCountSetTheRegion) {
    // n = 60 on sc: nx = ny = ceil(60^(1/3)) = 4 cells, nz = ceil(60 / 16) = 4 layers.
    Md3dConfig c = md3d_config("system: {lattice: sc, n: 60, lattice_constant: 2.0, "
                               "temperature: 0}\nneighbor: {mode: all_pairs}\n" +
                               std::string(kTail));
    EXPECT_EQ(c.n(), 60);
    EXPECT_EQ(c.system.box, (std::array<double, 3>{8.0, 8.0, 8.0}));
    // n = 30: two layers (the second partial), centred in an explicit box.
    c = md3d_config("system: {lattice: sc, n: 30, lattice_constant: 2.0, box: [8, 8, 8], "
                    "temperature: 0}\nneighbor: {mode: all_pairs}\n" +
                    std::string(kTail));
    EXPECT_EQ(c.system.plan.nz, 2);
    HostState s = make_initial_state(c);
    ASSERT_EQ(s.position[2].size(), 30u);
    for (double z : s.position[2])
        EXPECT_TRUE(z == 3.0 || z == 5.0) << z; // region [2, 6): sites at 2 + (k + 1/2) 2
}

// Types: counts[a] sites of type a, shuffled by the seed; the same seed gives the same order.
TEST(Md3dConfig, TypeAssignmentIsASeededShuffleOfTheCounts) {
    const std::vector<int64_t> counts{300, 150, 50};
    auto t = assign_types(counts, 42);
    ASSERT_EQ(t.size(), 500u);
    for (int a = 0; a < 3; ++a)
        EXPECT_EQ(std::count(t.begin(), t.end(), a), counts[size_t(a)]);
    EXPECT_EQ(assign_types(counts, 42), t);
    EXPECT_NE(assign_types(counts, 43), t);
    EXPECT_FALSE(std::is_sorted(t.begin(), t.end())); // mixed, not in blocks
    // Roughly uniform: the first half of the sites holds about half of each type.
    for (int a = 0; a < 3; ++a) {
        const auto first_half = std::count(t.begin(), t.begin() + 250, a);
        EXPECT_NEAR(double(first_half), 0.5 * double(counts[size_t(a)]),
                    5 * std::sqrt(double(counts[size_t(a)])));
    }
    EXPECT_EQ(assign_types({500}, 42), std::vector<int32_t>(500, 0));
}

// Velocities: 2 KE / Nf is the configured temperature, the total momentum is 0, with masses
// per type.
TEST(Md3dConfig, InitialVelocitiesHaveTheTemperatureAndNoMomentum) {
    Md3dConfig c = load_md3d_config(config_path("ci/md3d_tiny_langevin.yaml"));
    HostState s = make_initial_state(c);
    const auto m = particle_masses(c, s.species);
    double p[3] = {0, 0, 0}, mv2 = 0, scale = 0;
    for (size_t i = 0; i < m.size(); ++i)
        for (size_t a = 0; a < 3; ++a) {
            p[a] += m[i] * s.velocity[a][i];
            mv2 += m[i] * s.velocity[a][i] * s.velocity[a][i];
            scale += std::abs(m[i] * s.velocity[a][i]);
        }
    for (double pa : p)
        EXPECT_LT(std::abs(pa), 1e-13 * scale);
    // Langevin: Nf = 3N.
    EXPECT_NEAR(mv2 / double(3 * c.n()), 1.0, 1e-13);
    // Heavier particles move slower: <m v^2> is the same for both types.
    double mv2_type[2] = {0, 0};
    for (size_t i = 0; i < m.size(); ++i)
        for (size_t a = 0; a < 3; ++a)
            mv2_type[s.species[i]] += m[i] * s.velocity[a][i] * s.velocity[a][i];
    EXPECT_NEAR(mv2_type[0] / 1200.0, mv2_type[1] / 300.0, 0.25);
}

} // namespace
