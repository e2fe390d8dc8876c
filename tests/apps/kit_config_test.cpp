// The kit's configuration pieces: command-line overrides applied to the YAML before the schema
// checks (values, new sections, located errors that name their origin), the run-config section
// every app shares, and the lattice keys in 2D and 3D.
#include "common/config_yaml.h"
#include "common/lattice_config.h"
#include "common/run_config.h"

#include <gtest/gtest.h>

using namespace smelt::apps;

namespace {

const char *kFile = R"(system:
  n: 10
  density: 0.5
integrator:
  dt: 0.01
  steps: 100
)";

ConfigNode with(std::vector<ConfigOverride> overrides) {
    return ConfigNode::load_string(kFile, "f.yaml", std::move(overrides));
}

ConfigOverride set(const std::string &text) {
    return parse_set_option(text);
}

// The error an action throws (fails the test when it throws none).
template <class F> ConfigError error_of(F f) {
    try {
        f();
    } catch (const ConfigError &e) {
        return e;
    }
    ADD_FAILURE() << "no ConfigError";
    return ConfigError("", 0, 0, "", "");
}

TEST(ConfigOverride, ParsesKeyPathAndValue) {
    ConfigOverride o = set("output.vtk=true");
    EXPECT_EQ(o.path, "output.vtk");
    EXPECT_EQ(o.value, "true");
    EXPECT_EQ(o.origin, "--set output.vtk=true");
    EXPECT_EQ(set("a=b=c").value, "b=c"); // the first '=' splits
    EXPECT_EQ(set("a.b=").value, "");
    for (const char *bad : {"novalue", "=3", ".a=1", "a.=1", "a..b=1", "a b=1", "a-b=1"})
        EXPECT_THROW(set(bad), std::invalid_argument) << bad;
}

TEST(ConfigOverride, ValuesAreYamlAndReplaceTheFiles) {
    ConfigNode root =
        with({set("integrator.steps=250"), set("integrator.dt=2.5e-3"), set("system.cells=[4, 6]"),
              set("output.vtk=true"), set("output.prefix='007'")});
    EXPECT_EQ(require<int64_t>(root.section("integrator"), "steps"), 250);
    EXPECT_EQ(require<double>(root.section("integrator"), "dt"), 2.5e-3);
    EXPECT_EQ(require<std::vector<int>>(root.section("system"), "cells"), (std::vector<int>{4, 6}));
    EXPECT_EQ(require<int>(root.section("system"), "n"), 10); // untouched keys stay
    // A section the file does not have is created.
    EXPECT_TRUE(require<bool>(root.section("output"), "vtk"));
    // A quoted value is a string, as in the file.
    EXPECT_EQ(require<std::string>(root.section("output"), "prefix"), "007");
    EXPECT_THROW(require<int>(root.section("output"), "prefix"), ConfigError);
    // The last override of a key wins.
    EXPECT_EQ(require<int>(with({set("system.n=1"), set("system.n=2")}).section("system"), "n"), 2);
}

TEST(ConfigOverride, StoredTextNamesTheOverrides) {
    ConfigNode root = with({set("integrator.steps=250"), {"threads", "1", "--threads 1"}});
    EXPECT_EQ(root.source().text, std::string(kFile) + "\n# command-line overrides: --set "
                                                       "integrator.steps=250 --threads 1\n");
    EXPECT_EQ(with({}).source().text, kFile);
}

TEST(ConfigOverride, ErrorsSayTheValueCameFromTheCommandLine) {
    ConfigNode root = with({set("integrator.steps=-5")});
    ConfigError e = error_of([&] {
        require<int64_t>(root.section("integrator"), "steps", Range<int64_t>::non_negative());
    });
    EXPECT_EQ(e.key(), "integrator.steps");
    EXPECT_EQ(e.line(), 0); // not a place in the file
    EXPECT_EQ(std::string(e.what()), "f.yaml: error: integrator.steps: must be >= 0 (got -5) "
                                     "(set on the command line: --set integrator.steps=-5)");
    // A key the schema does not know: the usual unknown-key error, with its origin.
    root = with({set("system.densty=0.5")});
    e = error_of([&] { root.section("system").expect_keys({"n", "density"}); });
    EXPECT_EQ(e.key(), "system.densty");
    EXPECT_NE(e.message().find("unknown key (did you mean 'density'?)"), std::string::npos);
    EXPECT_NE(e.message().find("--set system.densty=0.5"), std::string::npos) << e.what();
    // A new section the schema does not know.
    root = with({set("thermostat.tau=1")});
    e = error_of([&] { root.expect_keys({"system", "integrator"}); });
    EXPECT_EQ(e.key(), "thermostat");
    EXPECT_NE(e.message().find("--set thermostat.tau=1"), std::string::npos) << e.what();
    // Items of an overridden list.
    root = with({set("system.cells=[4, 2.5]")});
    e = error_of([&] { require<std::vector<int64_t>>(root.section("system"), "cells"); });
    EXPECT_EQ(e.key(), "system.cells[1]");
    EXPECT_NE(e.message().find("--set system.cells=[4, 2.5]"), std::string::npos);
    // Errors about the file's own values stay located in the file.
    e = error_of([&] { root.section("system").fail_at("n", "too few"); });
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.message(), "too few");
}

TEST(ConfigOverride, BadOverridesAreConfigErrors) {
    ConfigError e = error_of([] { with({set("integrator.dt.x=1")}); });
    EXPECT_EQ(e.key(), "integrator.dt");
    EXPECT_NE(e.message().find("is not a section"), std::string::npos);
    e = error_of([] { with({set("system.cells=[1,")}); });
    EXPECT_EQ(e.key(), "system.cells");
    EXPECT_NE(e.message().find("invalid YAML value"), std::string::npos);
}

TEST(ConfigOverride, ErrorsAfterParsingAboutAnOverriddenKey) {
    ConfigNode root = with({set("system.density=9")});
    ConfigError e = error_of([&] { fail_at_path(root.source(), "system.density", "too dense"); });
    EXPECT_EQ(std::string(e.what()), "f.yaml: error: system.density: too dense (set on the "
                                     "command line: --set system.density=9)");
    e = error_of([&] { fail_at_path(root.source(), "system.n", "too many"); });
    EXPECT_EQ(e.line(), 2); // the file's value
}

TEST(RunConfig, DefaultsAndEveryKey) {
    RunConfig d = parse_run_config(ConfigNode::load_string("a: 1\n", "d.yaml"), {"out/x", "x"});
    EXPECT_EQ(d.backend, "cpu");
    EXPECT_EQ(d.precision, Precision::Double);
    EXPECT_EQ(d.threads, 0);
    EXPECT_EQ(d.output.directory, "out/x");
    EXPECT_EQ(d.output.prefix, "x");
    EXPECT_EQ(d.output.frame_interval, 100);
    EXPECT_EQ(d.output.thermo_interval, 100);
    EXPECT_EQ(d.output.h5md, SMELT_APPS_HAVE_HDF5 != 0);
    EXPECT_EQ(d.output.checkpoint, SMELT_APPS_HAVE_HDF5 != 0);
    EXPECT_EQ(d.output.checkpoint_interval, 0);
    EXPECT_FALSE(d.output.vtk);
    EXPECT_TRUE(d.output.csv);
    EXPECT_TRUE(d.output.progress);
    EXPECT_EQ(d.source.file, "d.yaml");
    EXPECT_EQ(h5md_path(d.output), "out/x/x.h5");
    EXPECT_EQ(csv_path(d.output), "out/x/x_thermo.csv");
    EXPECT_EQ(checkpoint_path(d.output), "out/x/x_checkpoint.h5");

    RunConfig c = parse_run_config(
        ConfigNode::load_string("backend: opencl\nprecision: single\nthreads: 3\n"
                                "output: {directory: r, prefix: p, frame_interval: 7, "
                                "thermo_interval: 3, csv: false, progress: false, "
                                "checkpoint: false}\n",
                                "c.yaml"),
        {"out/x", "x"});
    EXPECT_EQ(c.backend, "opencl");
    EXPECT_EQ(c.precision, Precision::Single);
    EXPECT_EQ(c.threads, 3);
    EXPECT_EQ(c.output.directory, "r");
    EXPECT_EQ(c.output.prefix, "p");
    EXPECT_EQ(c.output.frame_interval, 7);
    EXPECT_EQ(c.output.thermo_interval, 3);
    EXPECT_FALSE(c.output.csv);
    EXPECT_FALSE(c.output.progress);
    EXPECT_FALSE(c.output.checkpoint);
    smelt::Options o = engine_options(c);
    EXPECT_EQ(o.backend, "opencl");
    EXPECT_EQ(o.precision, smelt::Precision::Single);
    EXPECT_STREQ(to_string(Precision::Double), "double");
}

// precision: mixed is a choice of the apps whose force loop has a mixed form
// (RunDefaults::mixed_precision, md3d); it compiles in double. Elsewhere: a located error.
TEST(RunConfig, MixedPrecisionOnlyWhereTheAppHasIt) {
    const auto root = ConfigNode::load_string("threads: 1\nprecision: mixed\n", "m.yaml");
    const RunConfig c = parse_run_config(root, {"out/x", "x", {}, true});
    EXPECT_EQ(c.precision, Precision::Mixed);
    EXPECT_EQ(engine_options(c).precision, smelt::Precision::Double);
    EXPECT_STREQ(to_string(Precision::Mixed), "mixed");
    EXPECT_NE(describe_run(c).find("cpu, mixed precision"), std::string::npos) << describe_run(c);
    const ConfigError e = error_of([&] { parse_run_config(root, {"out/x", "x"}); });
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 12);
    EXPECT_EQ(e.key(), "precision");
    EXPECT_NE(e.message().find("mixed precision is md3d's only"), std::string::npos) << e.what();
}

TEST(RunConfig, CheckpointKeys) {
    auto parse = [](const std::string &output) {
        return parse_run_config(ConfigNode::load_string("output: " + output + "\n", "k.yaml"),
                                {"o", "p"});
    };
    if (SMELT_APPS_HAVE_HDF5) {
        EXPECT_EQ(parse("{checkpoint_interval: 500}").output.checkpoint_interval, 500);
        EXPECT_NE(describe_run(parse("{checkpoint_interval: 500}"))
                      .find("p_checkpoint.h5 (every 500 steps and at the end)"),
                  std::string::npos);
    }
    ConfigError e = error_of([&] { parse("{checkpoint_interval: -1}"); });
    EXPECT_EQ(e.key(), "output.checkpoint_interval");
    e = error_of([&] { parse("{checkpoint: false, checkpoint_interval: 10}"); });
    EXPECT_EQ(e.key(), "output.checkpoint_interval");
    EXPECT_NE(e.message().find("needs output.checkpoint: true"), std::string::npos);
    e = error_of([&] { parse("{checkpoints: true}"); });
    EXPECT_EQ(e.key(), "output.checkpoints");
    EXPECT_NE(e.message().find("did you mean 'checkpoint'"), std::string::npos);
}

TEST(RunConfig, SharedKeysComeFirstAndOutputLast) {
    auto keys = with_run_config_keys({"system", "vortices"});
    EXPECT_EQ(keys, (std::vector<std::string_view>{"backend", "precision", "threads", "system",
                                                   "vortices", "output"}));
}

TEST(LatticeConfig, ThreeDimensionalKeys) {
    auto parse = [](const std::string &system) {
        ConfigNode root = ConfigNode::load_string("system: " + system + "\n", "l.yaml");
        LatticeSpec spec;
        parse_lattice_keys(root.section("system"), 3, spec);
        return spec;
    };
    LatticeSpec s = parse("{lattice: fcc, cells: [2, 3, 4], density: 0.8}");
    EXPECT_EQ(s.dim, 3);
    EXPECT_EQ(s.kind, LatticeKind::FaceCentredCubic);
    EXPECT_EQ(s.nx, 2);
    EXPECT_EQ(s.ny, 3);
    EXPECT_EQ(s.nz, 4);
    EXPECT_EQ(s.density, 0.8);
    s = parse("{lattice: random, n: 50, density: 0.5, min_spacing: 0.7, box: [9, 9, 9]}");
    EXPECT_EQ(s.kind, LatticeKind::Random);
    EXPECT_EQ(s.n, 50);
    EXPECT_EQ(s.min_spacing, 0.7);
    EXPECT_EQ(*s.box, (std::vector<double>{9, 9, 9}));
    EXPECT_EQ(parse("{lattice: bcc, n: 16, spacing: 1.5}").kind, LatticeKind::BodyCentredCubic);
    EXPECT_EQ(parse("{lattice: sc, n: 8, spacing: 1}").kind, LatticeKind::SimpleCubic);

    ConfigError e = error_of([&] { parse("{lattice: fcc, cells: [2, 3], density: 1}"); });
    EXPECT_EQ(e.key(), "system.cells");
    EXPECT_NE(e.message().find("expected three integers [nx, ny, nz]"), std::string::npos);
    e = error_of([&] { parse("{lattice: square, n: 4, density: 1}"); });
    EXPECT_NE(e.message().find("must be one of sc | bcc | fcc | random"), std::string::npos);
    e = error_of([&] { parse("{lattice: fcc, cells: [1000, 1000, 1000], density: 1}"); });
    EXPECT_NE(e.message().find("too many particles"), std::string::npos); // 4e9 sites
    e = error_of([&] { parse("{lattice: sc, n: 8, density: 1, box: [1, 2]}"); });
    EXPECT_EQ(e.key(), "system.box");
}

} // namespace
