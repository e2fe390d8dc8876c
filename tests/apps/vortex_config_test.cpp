// vortex configuration: every tests/apps/bad_configs/vortex_*.yaml is rejected with the location,
// key and message its first line announces; the shipped configs parse into the values they spell
// out; defaults, the resolved vortex count, the evaluation path and file states.
#include "vortex/config.h"
#include "vortex_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using namespace smelt::apps;
using namespace smelt::apps::vortex;
using namespace smelt::apps::vortex_test;

namespace {

std::vector<std::string> bad_config_files() {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(fs::path(SMELT_TEST_DATA_DIR) / "apps/bad_configs"))
        if (e.path().extension() == ".yaml" && e.path().stem().string().rfind("vortex_", 0) == 0)
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// "# expect: LINE:COL: KEY: FRAGMENT" (KEY is "-" for errors about the whole file).
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
    e.key = m[3] == "-" ? "" : std::string(m[3]);
    e.fragment = m[4];
    return e;
}

class VortexBadConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(VortexBadConfig, IsRejectedWithLocationKeyAndMessage) {
    const std::string path = GetParam();
    Expectation want = read_expectation(path);
    try {
        load_vortex_config(path);
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

INSTANTIATE_TEST_SUITE_P(Files, VortexBadConfig, ::testing::ValuesIn(bad_config_files()),
                         [](const auto &info) { return fs::path(info.param).stem().string(); });

TEST(VortexBadConfigs, AtLeastEightFiles) {
    EXPECT_GE(bad_config_files().size(), 8u);
}

TEST(VortexConfig, DefaultsOfAMinimalConfig) {
    VortexConfig c =
        vortex_config("integrator: {dt: 0.1, steps: 3}\ninitial: {kind: patch, n: 10}\n");
    EXPECT_EQ(c.physics.regularisation, Regularisation::Point);
    EXPECT_EQ(c.physics.delta, 0.0);
    EXPECT_FALSE(c.physics.periodic_x);
    EXPECT_EQ(c.kernel_period(), 1.0);
    EXPECT_EQ(c.integrator.kind, Integrator::Rk4);
    EXPECT_EQ(c.evaluation.method, Method::Auto);
    EXPECT_FALSE(c.evaluation.tiled); // auto on cpu
    EXPECT_EQ(c.evaluation.tile, 128);
    EXPECT_EQ(c.initial.shape, Shape::Disc);
    EXPECT_EQ(c.initial.radius, 1.0);
    EXPECT_EQ(c.initial.total_circulation, 1.0);
    EXPECT_EQ(c.initial.circulation_spread, 0.0);
    EXPECT_EQ(c.initial.seed, 1u);
    EXPECT_EQ(c.n(), 10);
    EXPECT_EQ(c.output.directory, "out/vortex");
    EXPECT_EQ(c.output.prefix, "vortex");
    EXPECT_EQ(c.output.thermo_interval, 100); // the kit's default
}

TEST(VortexConfig, AutoIsTiledOnGpuBackends) {
    const std::string rest = "integrator: {dt: 0.1, steps: 3}\ninitial: {kind: pair}\n";
    EXPECT_TRUE(vortex_config("backend: opencl\n" + rest).evaluation.tiled);
    EXPECT_TRUE(vortex_config("backend: cuda\n" + rest).evaluation.tiled);
    EXPECT_FALSE(vortex_config("backend: opencl\nevaluation: {method: elementwise}\n" + rest)
                     .evaluation.tiled);
    VortexConfig t =
        vortex_config("backend: opencl\nevaluation: {method: tiled, tile: 32}\n" + rest);
    EXPECT_TRUE(t.evaluation.tiled);
    EXPECT_EQ(t.evaluation.tile, 32);
}

// N of every kind, as the README's definitions count it.
TEST(VortexConfig, VortexCounts) {
    auto n = [](const std::string &initial, const std::string &physics = "") {
        return vortex_config(physics + "integrator: {dt: 0.1, steps: 1}\ninitial: " + initial +
                             "\n")
            .n();
    };
    EXPECT_EQ(n("{kind: lattice, n_side: 7}"), 49);
    // disc: the points of the 10 x 10 grid over [-1, 1]^2 inside the unit circle
    int inside = 0;
    for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 10; ++i) {
            const double px = -1.0 + (i + 0.5) * 0.2, py = -1.0 + (j + 0.5) * 0.2;
            inside += px * px + py * py < 1.0;
        }
    EXPECT_EQ(n("{kind: lattice, n_side: 10, shape: disc}"), inside);
    EXPECT_EQ(n("{kind: lamb_oseen, rings: 20}"), 1 + 3 * 20 * 21);
    EXPECT_EQ(n("{kind: pair}"), 2);
    EXPECT_EQ(n("{kind: opposite_pair}"), 2);
    EXPECT_EQ(n("{kind: ring, n: 6}"), 6);
    EXPECT_EQ(n("{kind: sheet, n: 400}", "physics: {periodic_x: true, period: 1}\n"), 400);
}

TEST(VortexConfig, ShippedConfigsParse) {
    const fs::path configs = fs::path(SMELT_SOURCE_DIR) / "configs";
    VortexConfig patch = load_vortex_config((configs / "vortex_patch.yaml").string());
    EXPECT_EQ(patch.n(), 4096);
    EXPECT_EQ(patch.physics.regularisation, Regularisation::Krasny);
    EXPECT_EQ(patch.physics.delta, 0.02);
    EXPECT_EQ(patch.initial.seed, 2024u);
    EXPECT_EQ(patch.integrator.steps, 100);
    VortexConfig ring = load_vortex_config((configs / "vortex_ring.yaml").string());
    EXPECT_EQ(ring.n(), 6);
    EXPECT_EQ(ring.integrator.steps, 316);
    VortexConfig pair = load_vortex_config((configs / "vortex_pair.yaml").string());
    EXPECT_EQ(pair.initial.kind, InitialKind::Pair);
    VortexConfig lo = load_vortex_config((configs / "vortex_lamb_oseen.yaml").string());
    EXPECT_EQ(lo.n(), 1261);
    EXPECT_EQ(lo.physics.regularisation, Regularisation::Gaussian);
    VortexConfig sheet = load_vortex_config((configs / "vortex_sheet.yaml").string());
    EXPECT_TRUE(sheet.physics.periodic_x);
    EXPECT_EQ(sheet.physics.period, 1.0);
    EXPECT_EQ(sheet.n(), 400);
    VortexConfig tiny = load_vortex_config((configs / "ci/vortex_tiny.yaml").string());
    EXPECT_EQ(tiny.n(), 64);
    EXPECT_EQ(tiny.integrator.steps, 20);
    EXPECT_FALSE(tiny.output.progress);
}

TEST(VortexConfig, DescribeNamesTheResolvedRun) {
    VortexConfig c = vortex_config("physics: {regularisation: gaussian, delta: 0.2}\n"
                                   "integrator: {kind: heun, dt: 0.1, steps: 40}\n"
                                   "initial: {kind: lamb_oseen, rings: 3}\n");
    const std::string d = describe(c);
    EXPECT_NE(d.find("vortices     37, Lamb-Oseen vortex on 3 rings"), std::string::npos) << d;
    EXPECT_NE(d.find("gaussian blobs, delta 0.2, unbounded"), std::string::npos) << d;
    EXPECT_NE(d.find("heun (order 2), dt 0.1, 40 steps (t = 4), 2 velocity evaluations"),
              std::string::npos)
        << d;
    EXPECT_NE(d.find("evaluation   elementwise (auto)"), std::string::npos) << d;
    EXPECT_NE(d.find("engine       cpu"), std::string::npos) << d;
}

// A CSV state: columns in any order, comments and blank lines skipped; errors name the line.
TEST(VortexConfig, CsvFiles) {
    const fs::path dir = vortex_temp_dir("csv");
    std::ofstream(dir / "good.csv") << "# comment\n\ny, gamma,x\n1,2,3\n  4 , 5 ,6e-1 \n";
    const std::string cfg = (dir / "run.yaml").string();
    VortexConfig c = vortex_config(
        "integrator: {dt: 0.1, steps: 1}\ninitial: {kind: file, path: good.csv}\n", cfg);
    EXPECT_EQ(c.n(), 2);
    InitialState s = make_initial_state(c);
    EXPECT_EQ(s.x, (std::vector<double>{3.0, 0.6}));
    EXPECT_EQ(s.y, (std::vector<double>{1.0, 4.0}));
    EXPECT_EQ(s.gamma, (std::vector<double>{2.0, 5.0}));

    auto error_of = [&](const std::string &name, const std::string &text) {
        std::ofstream(dir / name) << text;
        try {
            vortex_config("integrator: {dt: 0.1, steps: 1}\ninitial: {kind: file, path: " + name +
                              "}\n",
                          cfg);
        } catch (const ConfigError &e) {
            EXPECT_EQ(e.key(), "initial.path");
            EXPECT_EQ(e.line(), 2);
            return e.message();
        }
        return std::string("accepted");
    };
    EXPECT_NE(error_of("empty.csv", "x,y,gamma\n# none\n").find("holds no vortex"),
              std::string::npos);
    EXPECT_NE(error_of("nohead.csv", "x,y,g\n1,2,3\n").find("nohead.csv:1: the header"),
              std::string::npos);
    EXPECT_NE(error_of("bad.csv", "x,y,gamma\n1,2,3\n1,2,abc\n").find("bad.csv:3: 'abc' is not"),
              std::string::npos);
    EXPECT_NE(error_of("long.csv", "x,y,gamma\n1,2,3,4\n").find("expected 3 numbers"),
              std::string::npos);
    // the format comes from the extension
    std::ofstream(dir / "v.txt") << "x,y,gamma\n1,2,3\n";
    try {
        vortex_config("integrator: {dt: 0.1, steps: 1}\ninitial: {kind: file, path: v.txt}\n", cfg);
        ADD_FAILURE() << "v.txt accepted";
    } catch (const ConfigError &e) {
        EXPECT_NE(e.message().find("cannot tell the format"), std::string::npos) << e.what();
    }
    EXPECT_EQ(vortex_config("integrator: {dt: 0.1, steps: 1}\ninitial: {kind: file, path: v.txt, "
                            "format: csv}\n",
                            cfg)
                  .n(),
              1);
    fs::remove_all(dir);
}

// --set and --steps land in the schema like file values (the kit's overrides).
TEST(VortexConfig, CommandLineOverrides) {
    const std::string text = "integrator: {dt: 0.1, steps: 3}\ninitial: {kind: patch, n: 10}\n";
    VortexConfig c = parse_vortex_config(ConfigNode::load_string(
        text, "o.yaml",
        {{"integrator.steps", "7", "--steps 7"},
         {"physics.regularisation", "krasny", "--set physics.regularisation=krasny"},
         {"physics.delta", "0.3", "--set physics.delta=0.3"}}));
    EXPECT_EQ(c.integrator.steps, 7);
    EXPECT_EQ(c.physics.regularisation, Regularisation::Krasny);
    EXPECT_EQ(c.physics.delta, 0.3);
    try {
        parse_vortex_config(ConfigNode::load_string(
            text, "o.yaml", {{"initial.radius", "-1", "--set initial.radius=-1"}}));
        ADD_FAILURE() << "accepted";
    } catch (const ConfigError &e) {
        EXPECT_EQ(e.key(), "initial.radius");
        EXPECT_NE(std::string(e.what()).find("--set initial.radius=-1"), std::string::npos)
            << e.what();
    }
}

} // namespace
