// md2d configuration: every file in tests/apps/bad_configs is rejected with the location, key and
// message its first line announces; the shipped configs parse into the values they spell out.
#include "md2d/config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using namespace smelt::apps;
using namespace smelt::apps::md2d;

namespace {

// md2d's bad configs (md3d_*.yaml are md3d's: tests/apps/md3d_config_test.cpp).
std::vector<std::string> bad_config_files() {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(fs::path(SMELT_TEST_DATA_DIR) / "apps/bad_configs"))
        // md3d_*.yaml and vortex_*.yaml belong to md3d and vortex (their own config tests)
        if (e.path().extension() == ".yaml" && e.path().stem().string().rfind("md3d_", 0) != 0 &&
            e.path().stem().string().rfind("vortex_", 0) != 0)
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
    if (!std::regex_match(first, m, re))
        ADD_FAILURE() << path << ": first line must be '# expect: LINE:COL: KEY: FRAGMENT'";
    Expectation e;
    if (m.size() == 5) {
        e.line = std::stoi(m[1]);
        e.column = std::stoi(m[2]);
        e.key = m[3] == "-" ? "" : std::string(m[3]);
        e.fragment = m[4];
    }
    return e;
}

class BadConfig : public ::testing::TestWithParam<std::string> {};

TEST_P(BadConfig, IsRejectedWithLocationKeyAndMessage) {
    const std::string path = GetParam();
    Expectation want = read_expectation(path);
    try {
        load_md2d_config(path);
        FAIL() << path << " was accepted";
    } catch (const ConfigError &e) {
        EXPECT_EQ(e.file(), path);
        EXPECT_EQ(e.line(), want.line) << e.what();
        EXPECT_EQ(e.column(), want.column) << e.what();
        EXPECT_EQ(e.key(), want.key) << e.what();
        EXPECT_NE(e.message().find(want.fragment), std::string::npos)
            << "message: " << e.message() << "\nexpected fragment: " << want.fragment;
        std::string prefix = path + ":" + std::to_string(want.line) + ":" +
                             std::to_string(want.column) + ": error: ";
        EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(Files, BadConfig, ::testing::ValuesIn(bad_config_files()),
                         [](const auto &info) { return fs::path(info.param).stem().string(); });

TEST(BadConfigs, AtLeastTenFiles) {
    EXPECT_GE(bad_config_files().size(), 10u);
}

const char *kMinimal = R"(system:
  lattice: square
  cells: [10, 10]
  density: 0.64
  temperature: 1.5
integrator:
  dt: 0.004
  steps: 50
)";

TEST(Md2dConfig, DefaultsOfAMinimalConfig) {
    Md2dConfig c = load_md2d_config_string(kMinimal, "minimal.yaml");
    EXPECT_EQ(c.n(), 100);
    EXPECT_DOUBLE_EQ(c.system.plan.spacing, 1.25); // 1 / sqrt(0.64)
    EXPECT_DOUBLE_EQ(c.box()[0], 12.5);
    EXPECT_DOUBLE_EQ(c.box()[1], 12.5);
    EXPECT_TRUE(c.periodic());
    EXPECT_EQ(c.system.lattice.kind, LatticeKind::Square);
    EXPECT_DOUBLE_EQ(c.system.temperature, 1.5);
    EXPECT_DOUBLE_EQ(c.system.mass, 1.0);
    EXPECT_EQ(c.system.seed, 1u);
    EXPECT_DOUBLE_EQ(c.potential.epsilon, 1.0);
    EXPECT_DOUBLE_EQ(c.potential.sigma, 1.0);
    EXPECT_DOUBLE_EQ(c.potential.r_cut, 2.5);
    EXPECT_FALSE(c.potential.shift);
    EXPECT_DOUBLE_EQ(c.integrator.dt, 0.004);
    EXPECT_EQ(c.integrator.steps, 50);
    EXPECT_EQ(c.neighbor.mode, NeighborMode::Binned);
    EXPECT_DOUBLE_EQ(c.neighbor.skin, 0.3);
    EXPECT_EQ(c.neighbor.rebuild, Rebuild::Displacement);
    EXPECT_EQ(c.output.directory, "out/md2d");
    EXPECT_EQ(c.output.frame_interval, 100);
    EXPECT_EQ(c.output.thermo_interval, 100);
    EXPECT_EQ(c.output.h5md, SMELT_APPS_HAVE_HDF5 != 0);
    EXPECT_FALSE(c.output.vtk);
    EXPECT_TRUE(c.output.csv);
    EXPECT_EQ(c.backend, "cpu");
    EXPECT_EQ(c.precision, Precision::Double);
    EXPECT_EQ(c.threads, 0);
    EXPECT_EQ(c.source.file, "minimal.yaml");
    EXPECT_EQ(c.source.text, kMinimal);
    // The cpu backend's half lists: cells of r_list / 2 (neighbor.cells_per_r_list: auto).
    CellGrid g = cell_grid(c);
    EXPECT_EQ(g.per_r_list, 2);
    EXPECT_EQ(g.ncx, 8); // floor(12.5 * 2 / 2.8)
    EXPECT_DOUBLE_EQ(g.cell_w, 12.5 / 8);
    c.neighbor.newton = false;
    g = cell_grid(c);
    EXPECT_EQ(g.per_r_list, 1);
    EXPECT_EQ(g.ncx, 4); // floor(12.5 / 2.8)
    EXPECT_DOUBLE_EQ(g.cell_w, 12.5 / 4);
    c.neighbor.newton.reset();
    c.backend = "opencl";
    EXPECT_EQ(cell_grid(c).per_r_list, 1);
    c.neighbor.cells_per_r_list = 2;
    EXPECT_EQ(cell_grid(c).ncx, 8);
    // Particles reordered by cell every 100 steps; lists sorted unless they are half lists.
    EXPECT_EQ(c.neighbor.sort_interval, 100);
    EXPECT_FALSE(c.neighbor.sorted_lists.has_value());
    EXPECT_FALSE(c.neighbor.lists_sorted(true));
    EXPECT_TRUE(c.neighbor.lists_sorted(false));
}

TEST(Md2dConfig, EveryKeyIsRead) {
    std::string text = R"(backend: cuda
precision: single
threads: 3
system:
  lattice: triangular
  n: 200
  spacing: 1.1
  box: [40.0, 50.0]
  boundary: walls
  walls: {stiffness: 20.0, range: 0.75}
  mass: 2.5
  temperature: 0.25
  seed: 12345678901
potential: {kind: lj, epsilon: 1.5, sigma: 0.9, r_cut: 3.0, shift: true}
integrator: {kind: velocity_verlet, dt: 0.01, steps: 1000}
neighbor: {mode: all_pairs, skin: 0.5, rebuild: every_step, sort_interval: 0, sorted_lists: true}
output:
  directory: results/x
  prefix: run1
  frame_interval: 7
  thermo_interval: 3
  h5md: false
  csv: false
  progress: false
)";
    Md2dConfig c = load_md2d_config_string(text, "all.yaml");
    EXPECT_EQ(c.backend, "cuda");
    EXPECT_EQ(c.precision, Precision::Single);
    EXPECT_EQ(c.threads, 3);
    EXPECT_EQ(c.system.lattice.kind, LatticeKind::Triangular);
    EXPECT_EQ(c.n(), 200);
    EXPECT_DOUBLE_EQ(c.system.plan.spacing, 1.1);
    EXPECT_DOUBLE_EQ(c.box()[0], 40.0);
    EXPECT_DOUBLE_EQ(c.box()[1], 50.0);
    EXPECT_EQ(c.system.boundary, Boundary::Walls);
    EXPECT_FALSE(c.periodic());
    EXPECT_DOUBLE_EQ(c.system.wall_stiffness, 20.0);
    EXPECT_DOUBLE_EQ(c.system.wall_range, 0.75);
    EXPECT_DOUBLE_EQ(c.system.mass, 2.5);
    EXPECT_DOUBLE_EQ(c.system.temperature, 0.25);
    EXPECT_EQ(c.system.seed, 12345678901u);
    EXPECT_DOUBLE_EQ(c.potential.epsilon, 1.5);
    EXPECT_DOUBLE_EQ(c.potential.sigma, 0.9);
    EXPECT_DOUBLE_EQ(c.potential.r_cut, 3.0);
    EXPECT_TRUE(c.potential.shift);
    EXPECT_DOUBLE_EQ(c.integrator.dt, 0.01);
    EXPECT_EQ(c.integrator.steps, 1000);
    EXPECT_EQ(c.neighbor.mode, NeighborMode::AllPairs);
    EXPECT_DOUBLE_EQ(c.neighbor.skin, 0.5);
    EXPECT_DOUBLE_EQ(c.r_list(), 3.5);
    EXPECT_EQ(c.neighbor.rebuild, Rebuild::EveryStep);
    EXPECT_EQ(c.neighbor.sort_interval, 0);
    EXPECT_EQ(c.neighbor.sorted_lists, std::optional<bool>(true));
    EXPECT_TRUE(c.neighbor.lists_sorted(true));
    EXPECT_EQ(c.output.directory, "results/x");
    EXPECT_EQ(c.output.prefix, "run1");
    EXPECT_EQ(c.output.frame_interval, 7);
    EXPECT_EQ(c.output.thermo_interval, 3);
    EXPECT_FALSE(c.output.h5md);
    EXPECT_FALSE(c.output.csv);
    EXPECT_FALSE(c.output.progress);
    // The triangular lattice is centred in the explicit box.
    Positions p = make_initial_positions(c);
    ASSERT_EQ(p.x.size(), 200u);
    double xmin = *std::min_element(p.x.begin(), p.x.end());
    double xmax = *std::max_element(p.x.begin(), p.x.end());
    EXPECT_NEAR(xmin + xmax, 40.0, 0.5 * 1.1 + 1e-9); // rows alternate by a/2
}

TEST(Md2dConfig, ShippedConfigsParse) {
    const fs::path root = SMELT_SOURCE_DIR;
    Md2dConfig lj = load_md2d_config((root / "configs/md2d_lj.yaml").string());
    EXPECT_EQ(lj.n(), 4096);
    EXPECT_TRUE(lj.periodic());
    EXPECT_DOUBLE_EQ(lj.system.temperature, 1.0);
    EXPECT_GE(lj.integrator.steps, 1000);

    Md2dConfig paper = load_md2d_config((root / "configs/md2d_paper.yaml").string());
    EXPECT_EQ(paper.n(), 5120000);
    EXPECT_EQ(paper.system.lattice.kind, LatticeKind::Square);
    EXPECT_DOUBLE_EQ(paper.system.plan.spacing, 1.5);
    EXPECT_DOUBLE_EQ(paper.potential.r_cut, 3.0);
    EXPECT_DOUBLE_EQ(paper.integrator.dt, 0.02);
    EXPECT_EQ(paper.neighbor.rebuild, Rebuild::EveryStep);
    EXPECT_EQ(paper.system.boundary, Boundary::Walls);
    EXPECT_DOUBLE_EQ(paper.system.wall_stiffness, 50.0);
    EXPECT_DOUBLE_EQ(paper.system.wall_range, 0.5);
    // As in the paper's code: box = 3 x the lattice's side, lattice in the middle.
    EXPECT_DOUBLE_EQ(paper.box()[0], 3 * 2263 * 1.5);

    Md2dConfig tiny = load_md2d_config((root / "configs/ci/md2d_tiny.yaml").string());
    EXPECT_LE(tiny.n(), 200);
    EXPECT_LE(tiny.integrator.steps, 100);
}

TEST(Md2dConfig, OutputFormatsNeedTheirLibraries) {
    for (const char *key : {"h5md", "vtk"}) {
        bool built = std::string(key) == "h5md" ? SMELT_APPS_HAVE_HDF5 : SMELT_APPS_HAVE_VTK;
        std::string text = std::string(kMinimal) + "output:\n  " + key + ": true\n";
        if (built) {
            EXPECT_NO_THROW(load_md2d_config_string(text, "fmt.yaml"));
            continue;
        }
        try {
            load_md2d_config_string(text, "fmt.yaml");
            ADD_FAILURE() << key << ": true accepted without the library";
        } catch (const ConfigError &e) {
            EXPECT_EQ(e.key(), std::string("output.") + key);
            EXPECT_EQ(e.line(), 10);
        }
    }
}

TEST(Md2dConfig, ErrorsAfterParsingPointAtTheKey) {
    Md2dConfig c = load_md2d_config_string(kMinimal, "minimal.yaml");
    try {
        fail_at_path(c.source, "system.density", "too dense");
        FAIL();
    } catch (const ConfigError &e) {
        EXPECT_STREQ(e.what(), "minimal.yaml:4:12: error: system.density: too dense");
    }
    try { // absent key: located at the enclosing section
        fail_at_path(c.source, "system.min_spacing", "lower it");
        FAIL();
    } catch (const ConfigError &e) {
        EXPECT_EQ(e.line(), 1); // "system:"
        EXPECT_EQ(e.column(), 1);
        EXPECT_EQ(e.key(), "system.min_spacing");
    }
}

TEST(ConfigYaml, RangesDescribeThemselves) {
    EXPECT_EQ(Range<double>::positive().describe(), "> 0");
    EXPECT_EQ(Range<int64_t>::at_least(1).describe(), ">= 1");
    EXPECT_EQ(Range<int>::between(0, 4096).describe(), "in [0, 4096]");
    EXPECT_EQ(Range<double>::positive().and_below(1.0).describe(), "in (0, 1)");
    EXPECT_TRUE(Range<double>::positive().contains(1e-300));
    EXPECT_FALSE(Range<double>::positive().contains(0.0));
    EXPECT_FALSE(Range<double>::positive().contains(std::nan("")));
    EXPECT_EQ(format_number(0.1), "0.1");
    EXPECT_EQ(format_number(-1.0), "-1");
}

TEST(ConfigYaml, StrictScalars) {
    ConfigNode n = ConfigNode::load_string("a: 3\nb: 3.0\nc: '3'\nd: yes\ne: .inf\nf: [1, 2]\n"
                                           "g: -12\nh: 0x10\n",
                                           "s.yaml");
    EXPECT_EQ(require<int64_t>(n, "a"), 3);
    EXPECT_DOUBLE_EQ(require<double>(n, "a"), 3.0);
    EXPECT_THROW(require<int64_t>(n, "b"), ConfigError);
    EXPECT_THROW(require<double>(n, "c"), ConfigError);
    EXPECT_EQ(require<std::string>(n, "c"), "3");
    EXPECT_THROW(require<bool>(n, "d"), ConfigError);
    EXPECT_THROW(require<double>(n, "e"), ConfigError);
    EXPECT_THROW(require<double>(n, "f"), ConfigError);
    EXPECT_EQ(require<std::vector<int>>(n, "f"), (std::vector<int>{1, 2}));
    EXPECT_EQ(require<int>(n, "g"), -12);
    EXPECT_THROW(require<uint64_t>(n, "g"), ConfigError);
    EXPECT_THROW(require<int>(n, "h"), ConfigError);
    EXPECT_EQ(optional<double>(n, "zz", 4.5), 4.5);
}

TEST(ConfigYaml, AssignmentDoesNotModifyTheDocument) {
    ConfigNode root = ConfigNode::load_string("a: {x: 1}\nb: {x: 2}\n", "s.yaml");
    ConfigNode a = root.section("a");
    a = root.section("b"); // YAML::Node's operator= would copy b over a in the document
    EXPECT_EQ(require<int>(root.section("a"), "x"), 1);
    EXPECT_EQ(require<int>(a, "x"), 2);
    EXPECT_EQ(a.path(), "b");
}

} // namespace
