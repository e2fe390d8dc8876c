// The validation scripts on H5MD files from H5mdWriter with known contents: a conserved energy
// passes, a drifting one fails; identical runs agree, perturbed or different runs do not.
#include "common/h5md_writer.h"
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <unistd.h>

using namespace smelt::apps;
using smelt::apps::test_util::run_process;
using smelt::apps::test_util::shell_quote;
namespace fs = std::filesystem;

namespace {

#if SMELT_APPS_HAVE_HDF5

fs::path temp_file(const std::string &name) {
    return fs::temp_directory_path() / ("smelt_" + std::to_string(getpid()) + "_" + name);
}

// 4 particles, frames every 10 steps up to 40, energies every 5 steps up to 100 (dt = 0.01).
// E_total(t) = -10 - drift * 10 t / t_end + 1e-6 sin(t); positions shifted by `dx` after step 0.
// Particle 0 sits on the periodic seam at step 20: at 0 or (with `seam`) at 10 - 1e-8, which
// are 1e-8 apart through the boundary.
void write_run(const fs::path &path, double drift, double dx, int64_t n = 4, bool seam = false) {
    H5mdOptions o;
    o.n = n;
    o.box_edges = {10.0, 10.0};
    o.config_yaml = "synthetic: true\n";
    H5mdWriter w(path.string(), o);
    const auto count = static_cast<size_t>(n);
    std::vector<double> x(count), y(count), v(count, 0.0);
    for (int64_t step = 0; step <= 40; step += 10) {
        for (int64_t i = 0; i < n; ++i) {
            x[size_t(i)] = i == 0 ? (seam && step == 20 ? 9.99999999 : 0.0)
                                  : 1.0 + double(i) + 0.01 * double(step);
            y[size_t(i)] = 2.0 + (step > 0 ? dx : 0.0);
        }
        w.write_frame({step,
                       0.01 * double(step),
                       {Field::vector("position", {x, y}), Field::vector("velocity", {v, v})}});
    }
    const std::vector<ObservableColumn> columns = {{"pe", "potential_energy"},
                                                   {"ke", "kinetic_energy"},
                                                   {"etotal", "total_energy"},
                                                   {"temperature", "temperature"},
                                                   {"pressure", "pressure"}};
    for (int64_t step = 0; step <= 100; step += 5) {
        double t = 0.01 * double(step);
        double e = -10.0 - drift * 10.0 * t / 1.0 + 1e-6 * std::sin(t);
        w.write_observables(columns, {step, t, {e - 1.0, 1.0, e, 1.0, 0.5}});
    }
}

class ValidationScripts : public ::testing::Test {
protected:
    void SetUp() override {
        auto r = run_process(smelt::testing_util::test_python() +
                             " -c 'import h5py, matplotlib, numpy'");
        if (r.status != 0) GTEST_SKIP() << "needs h5py, matplotlib and numpy: " << r.output;
    }
    static test_util::ProcessResult script(const std::string &name, const std::string &args) {
        return run_process(smelt::testing_util::test_python() + " " +
                           shell_quote(std::string(SMELT_SOURCE_DIR) + "/validation/" + name) +
                           " " + args);
    }
};

TEST_F(ValidationScripts, EnergyPassesWhenConservedAndFailsWhenDrifting) {
    fs::path good = temp_file("good.h5"), bad = temp_file("bad.h5"), png = temp_file("good.png");
    write_run(good, 0.0, 0.0);
    write_run(bad, 0.01, 0.0); // drift = 0.1 / 10 = 1e-2
    auto r = script("md2d_energy.py",
                    shell_quote(good.string()) + " --plot " + shell_quote(png.string()));
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_TRUE(fs::exists(png) && fs::file_size(png) > 1000) << r.output;
    r = script("md2d_energy.py", shell_quote(bad.string()) + " --plot none");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("drift:       1.000e-02"), std::string::npos) << r.output;
    // A looser bound accepts it.
    r = script("md2d_energy.py",
               shell_quote(bad.string()) + " --plot none --max-drift 0.02 --max-fluctuation 0.01");
    EXPECT_EQ(r.status, 0) << r.output;
    r = script("md2d_energy.py", "/nonexistent.h5 --plot none");
    EXPECT_EQ(r.status, 2) << r.output;
    for (const auto &p : {good, bad, png})
        fs::remove(p);
}

TEST_F(ValidationScripts, CompareBackendsAgreesOnlyOnMatchingRuns) {
    fs::path a = temp_file("a.h5"), b = temp_file("b.h5"), c = temp_file("c.h5"),
             d = temp_file("d.h5");
    write_run(a, 0.0, 0.0);
    write_run(b, 0.0, 0.0, 4, true);
    write_run(c, 0.0, 1e-3);   // positions differ after step 0
    write_run(d, 0.0, 0.0, 5); // another system
    auto r =
        script("md2d_compare_backends.py", shell_quote(a.string()) + " " + shell_quote(b.string()));
    EXPECT_EQ(r.status, 0) << r.output; // includes the seam crossing of particle 0
    r = script("md2d_compare_backends.py", shell_quote(a.string()) + " " + shell_quote(c.string()));
    EXPECT_EQ(r.status, 1) << r.output;
    r = script("md2d_compare_backends.py",
               shell_quote(a.string()) + " " + shell_quote(c.string()) + " --pos-tol 2e-3");
    EXPECT_EQ(r.status, 0) << r.output;
    r = script("md2d_compare_backends.py", shell_quote(a.string()) + " " + shell_quote(d.string()));
    EXPECT_EQ(r.status, 2) << r.output;
    for (const auto &p : {a, b, c, d})
        fs::remove(p);
}

#endif

} // namespace
