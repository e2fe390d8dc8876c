// The md2d run loop and the md2d binary: output files read back (HDF5 API, VTK reader, CSV),
// `md2d check` on good and bad configs, a run end to end, an unavailable backend, and Ctrl-C
// in the middle of a run leaving a valid H5MD file.
#include "backends/registry.h"
#include "common/run_loop.h"
#include "h5_read.h"
#include "md2d/simulation.h"
#include "md2d_test_util.h"
#include "test_process.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <fstream>
#include <poll.h>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#if SMELT_APPS_HAVE_VTK
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>
#endif

using namespace smelt::apps;
using namespace smelt::apps::md2d;
using namespace smelt::apps::test_util;
namespace fs = std::filesystem;

namespace {

const std::string kTiny = std::string(SMELT_SOURCE_DIR) + "/configs/ci/md2d_tiny.yaml";

std::string read_text(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::vector<double>> read_csv(const fs::path &p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "step,time,pe,ke,etotal,temperature,pressure");
    std::vector<std::vector<double>> rows;
    while (std::getline(in, line)) {
        std::vector<double> row;
        std::stringstream s(line);
        for (std::string cell; std::getline(s, cell, ',');)
            row.push_back(std::stod(cell));
        rows.push_back(row);
    }
    return rows;
}

#if SMELT_APPS_HAVE_HDF5

// The tiny config's run in-process with VTK on: the H5MD frames equal an independent Simulation
// bit for bit, the observables equal the CSV, the VTK frames equal the H5MD ones.
TEST(Md2dRun, OutputFilesReadBack) {
    const fs::path dir = fresh_temp_dir("outputs");
    Md2dConfig c = md2d_config(read_text(kTiny) + (SMELT_APPS_HAVE_VTK ? "  vtk: true\n" : ""));
    c.output.directory = dir.string();
    Simulation run(c, md2d_physics());
    RunOptions options;
    options.app = "md2d";
    RunReport r = run_simulation(c, run, c.integrator.steps, options);
    EXPECT_EQ(r.steps_done, 50);
    EXPECT_FALSE(r.interrupted);
    const int64_t n = c.n();

    // The same steps without any output.
    Simulation sim(c, md2d_physics());
    sim.set_initial_state();
    for (int k = 0; k < 50; ++k)
        sim.step();

    hid_t f = H5Fopen((dir / "md2d_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> shape;
    auto pos = h5_doubles(f, "particles/all/position/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, hsize_t(n), 2}));
    EXPECT_EQ(h5_steps(f, "particles/all/position/step"),
              (std::vector<long long>{0, 10, 20, 30, 40, 50}));
    auto vel = h5_doubles(f, "particles/all/velocity/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, hsize_t(n), 2}));
    const auto x = sim.host(sim.x()), y = sim.host(sim.y()), vx = sim.host(sim.vx());
    const size_t last = size_t(5 * n * 2);
    for (size_t i = 0; i < size_t(n); ++i) {
        ASSERT_EQ(pos[last + 2 * i], x[i]) << i;
        ASSERT_EQ(pos[last + 2 * i + 1], y[i]) << i;
        ASSERT_EQ(vel[last + 2 * i], vx[i]) << i;
    }
    auto edges = h5_box_edges(f);
    EXPECT_EQ(edges, (std::vector<double>{c.box()[0], c.box()[1]}));

    const auto rows = read_csv(dir / "md2d_tiny_thermo.csv");
    ASSERT_EQ(rows.size(), 11u); // steps 0, 5, ..., 50
    const char *names[] = {"potential_energy", "kinetic_energy", "total_energy", "temperature",
                           "pressure"};
    for (int k = 0; k < 5; ++k) {
        auto v = h5_doubles(f, std::string("observables/") + names[k] + "/value");
        ASSERT_EQ(v.size(), rows.size()) << names[k];
        for (size_t i = 0; i < rows.size(); ++i)
            EXPECT_EQ(v[i], rows[i][size_t(2 + k)]) << names[k] << " sample " << i;
    }
    EXPECT_EQ(h5_steps(f, "observables/total_energy/step").back(), 50);
    ThermoSample end = sim.thermo();
    EXPECT_EQ(rows.back()[4], end.etotal);
    EXPECT_NEAR(rows[0][5], 1.0, 1e-12); // the initial temperature the config asks for
    H5Fclose(f);

#if SMELT_APPS_HAVE_VTK
    const std::string pvd = read_text(dir / "md2d_tiny.pvd");
    std::regex entry(R"re(file="([^"]+)")re");
    std::vector<std::string> files;
    for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), entry);
         it != std::sregex_iterator(); ++it)
        files.push_back((*it)[1]);
    ASSERT_EQ(files.size(), 6u);
    EXPECT_EQ(files.back(), "md2d_tiny_000000050.vtp");
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / files.back()).c_str());
    reader->Update();
    vtkPolyData *poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), n);
    for (vtkIdType i = 0; i < n; ++i) {
        double p[3];
        poly->GetPoint(i, p);
        ASSERT_EQ(p[0], x[size_t(i)]);
        ASSERT_EQ(p[1], y[size_t(i)]);
    }
#endif
    fs::remove_all(dir);
}

#endif

// ---- the binary ------------------------------------------------------------------------------

#ifdef SMELT_MD2D

std::string md2d() {
    return shell_quote(SMELT_MD2D);
}

TEST(Md2dBinary, HelpVersionAndUsageErrors) {
    auto r = run_process(md2d() + " --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find("run"), std::string::npos);
    EXPECT_NE(r.output.find("check"), std::string::npos);
    // The --backend choices are the engine's backend families (support/backend_table.h).
    r = run_process(md2d() + " run --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find("--backend TEXT:{cpu,opencl,cuda}"), std::string::npos) << r.output;
    r = run_process(md2d() + " --version");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find(SMELT_VERSION), std::string::npos);
    // Usage errors: exit status 2.
    r = run_process(md2d() + " run " + shell_quote(kTiny) + " --precision half");
    EXPECT_EQ(r.status, 2) << r.output;
    r = run_process(md2d());
    EXPECT_EQ(r.status, 2) << r.output;
    r = run_process(md2d() + " run " + shell_quote(kTiny) + " --set no_equals_sign");
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("key.path=value"), std::string::npos) << r.output;
    r = run_process(md2d() + " run " + shell_quote(kTiny) + " --frobnicate");
    EXPECT_EQ(r.status, 2) << r.output;
}

TEST(Md2dBinary, CheckPrintsTheResolvedConfig) {
    auto r = run_process(md2d() + " check " + shell_quote(kTiny));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("particles    100, square lattice 10 x 10"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("binned"), std::string::npos);
    EXPECT_NE(r.output.find("particles reordered by cell every 100 steps"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(": ok"), std::string::npos);
}

// Every bad config of the config tests: exit 1, the located message first.
TEST(Md2dBinary, CheckRejectsBadConfigsWithTheirLocation) {
    int files = 0;
    for (const auto &e :
         fs::directory_iterator(fs::path(SMELT_TEST_DATA_DIR) / "apps/bad_configs")) {
        if (e.path().extension() != ".yaml") continue;
        if (e.path().stem().string().rfind("md3d_", 0) == 0) continue;   // md3d's
        if (e.path().stem().string().rfind("vortex_", 0) == 0) continue; // vortex's bad configs
        std::ifstream in(e.path());
        std::string first;
        std::getline(in, first);
        std::smatch m;
        ASSERT_TRUE(std::regex_match(first, m, std::regex(R"(# expect: (\d+):(\d+): .*)")));
        auto r = run_process(md2d() + " check " + shell_quote(e.path().string()));
        EXPECT_EQ(r.status, 1) << e.path() << "\n" << r.output;
        const std::string want =
            e.path().string() + ":" + std::string(m[1]) + ":" + std::string(m[2]) + ": error: ";
        EXPECT_EQ(r.output.rfind(want, 0), 0u) << r.output;
        ++files;
    }
    EXPECT_GE(files, 10);
    auto r = run_process(md2d() + " check /nonexistent/md2d.yaml");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.output.find("/nonexistent/md2d.yaml"), std::string::npos) << r.output;
}

TEST(Md2dBinary, RunsTheTinyConfigEndToEnd) {
    const fs::path dir = fresh_temp_dir("binary_run");
    auto r = run_process(md2d() + " run " + shell_quote(kTiny) + " --output " +
                         shell_quote(dir.string()) + " --threads 1");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("done after 50 steps"), std::string::npos) << r.output;
    const auto rows = read_csv(dir / "md2d_tiny_thermo.csv");
    ASSERT_EQ(rows.size(), 11u);
    EXPECT_EQ(rows.back()[0], 50.0);
    // The CPU thread count does not change the physics: an in-process run agrees exactly
    // (forces have one writer per particle; the energy sums are deterministic per thread count,
    // so allow for rounding there).
    Md2dConfig c = md2d_config(read_text(kTiny));
    Simulation sim(c, md2d_physics());
    sim.set_initial_state();
    for (int k = 0; k < 50; ++k)
        sim.step();
    EXPECT_NEAR(rows.back()[4], sim.thermo().etotal, 1e-12 * std::abs(rows.back()[4]));
#if SMELT_APPS_HAVE_HDF5
    hid_t f = H5Fopen((dir / "md2d_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> shape;
    auto pos = h5_doubles(f, "particles/all/position/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, 100, 2}));
    EXPECT_EQ(pos[5 * 200], sim.host(sim.x())[0]);
    H5Fclose(f);
#endif
    fs::remove_all(dir);
}

TEST(Md2dBinary, UnavailableBackendIsAClearError) {
    for (const auto &b : smelt::list_backends())
        if (b.name == "cuda" && b.available) GTEST_SKIP() << "a CUDA device is present";
    const fs::path dir = fresh_temp_dir("no_backend");
    auto r = run_process(md2d() + " run " + shell_quote(kTiny) + " --backend cuda --output " +
                         shell_quote(dir.string()));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("md2d: error: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cuda"), std::string::npos) << r.output;
    fs::remove_all(dir);
}

// Reads the child's output until `done` says stop or `seconds` pass; false on timeout/EOF.
template <class F> bool read_until(int fd, std::string &out, double seconds, F done) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    char buf[4096];
    while (!done(out)) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            end - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, int(left.count())) <= 0) return false;
        ssize_t k = read(fd, buf, sizeof buf);
        if (k <= 0) return done(out);
        out.append(buf, size_t(k));
    }
    return true;
}

#if SMELT_APPS_HAVE_HDF5
TEST(Md2dBinary, SigintFinishesTheStepAndLeavesAValidH5mdFile) {
    const fs::path dir = fresh_temp_dir("sigint");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        const std::string out = dir.string();
        execl(SMELT_MD2D, "md2d", "run", kTiny.c_str(), "--steps", "100000000", "--output",
              out.c_str(), static_cast<char *>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    // Thermo lines are "      step ...": wait for step 40 (frames 0..40 written).
    const std::regex step40(R"((^|\n) +40 )");
    bool seen = read_until(fds[0], out, 120.0,
                           [&](const std::string &s) { return std::regex_search(s, step40); });
    if (seen)
        kill(pid, SIGINT);
    else
        kill(pid, SIGKILL);
    read_until(fds[0], out, 60.0, [](const std::string &) { return false; }); // to EOF
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(seen) << out;
    ASSERT_TRUE(WIFEXITED(status)) << out;
    EXPECT_EQ(WEXITSTATUS(status), 130) << out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(stopped after (\d+) steps)"))) << out;
    const long long stopped = std::stoll(m[1]);
    EXPECT_GE(stopped, 40);

    hid_t f = H5Fopen((dir / "md2d_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << "the H5MD file of an interrupted run must open";
    std::vector<hsize_t> shape;
    auto pos = h5_doubles(f, "particles/all/position/value", &shape);
    ASSERT_EQ(shape.size(), 3u);
    auto steps = h5_steps(f, "particles/all/position/step");
    ASSERT_EQ(steps.size(), shape[0]);
    EXPECT_GE(steps.size(), 5u);
    EXPECT_EQ(steps.back(), stopped); // the last state is stored
    for (double v : pos)
        ASSERT_TRUE(std::isfinite(v));
    auto e = h5_doubles(f, "observables/total_energy/value");
    auto esteps = h5_steps(f, "observables/total_energy/step");
    ASSERT_EQ(e.size(), esteps.size());
    EXPECT_EQ(esteps.back(), stopped);
    H5Fclose(f);
    const auto rows = read_csv(dir / "md2d_tiny_thermo.csv");
    ASSERT_EQ(rows.size(), e.size());
    EXPECT_EQ(rows.back()[4], e.back());
    fs::remove_all(dir);
}

// Ctrl-C, then --restart from the checkpoint the stopped run wrote: the files equal those of a
// run that went through to the same step (one thread each, so the energy sums round alike).
TEST(Md2dBinary, SigintThenRestartEqualsAnUninterruptedRun) {
    const fs::path dir = fresh_temp_dir("sigint_restart"), ref = fresh_temp_dir("sigint_ref");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        const std::string out = dir.string();
        execl(SMELT_MD2D, "md2d", "run", kTiny.c_str(), "--steps", "100000000", "--output",
              out.c_str(), "--threads", "1", static_cast<char *>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    const std::regex step20(R"((^|\n) +20 )");
    bool seen = read_until(fds[0], out, 120.0,
                           [&](const std::string &s) { return std::regex_search(s, step20); });
    kill(pid, seen ? SIGINT : SIGKILL);
    read_until(fds[0], out, 60.0, [](const std::string &) { return false; });
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(seen) << out;
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(stopped after (\d+) steps)"))) << out;
    const long long end = std::stoll(m[1]) + 27;
    const std::string common = " --steps " + std::to_string(end) + " --threads 1 --output ";
    auto r =
        run_process(md2d() + " run " + shell_quote(kTiny) + common + shell_quote(dir.string()) +
                    " --restart " + shell_quote((dir / "md2d_tiny_checkpoint.h5").string()));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("done after " + std::to_string(end) + " steps"), std::string::npos)
        << r.output;
    r = run_process(md2d() + " run " + shell_quote(kTiny) + common + shell_quote(ref.string()));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(h5_series_difference((ref / "md2d_tiny.h5").string(), (dir / "md2d_tiny.h5").string(),
                                   {"particles/all/position", "particles/all/velocity",
                                    "observables/total_energy", "observables/pressure"}),
              "");
    EXPECT_EQ(read_text(dir / "md2d_tiny_thermo.csv"), read_text(ref / "md2d_tiny_thermo.csv"));
    fs::remove_all(dir);
    fs::remove_all(ref);
}

// Overrides reach the schema (errors say where the value came from) and the stored config text.
TEST(Md2dBinary, SetOverridesAnyKey) {
    auto r = run_process(md2d() + " check " + shell_quote(kTiny) + " --set integrator.steps=-1");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_EQ(r.output.rfind(kTiny + ": error: integrator.steps: must be >= 0 (got -1) (set on "
                                     "the command line: --set integrator.steps=-1)",
                             0),
              0u)
        << r.output;
    r = run_process(md2d() + " check " + shell_quote(kTiny) + " --set system.densty=0.5");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("system.densty: unknown key (did you mean 'density'?)"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("--set system.densty=0.5"), std::string::npos) << r.output;
    r = run_process(md2d() + " check " + shell_quote(kTiny) +
                    " --set 'system.cells=[12, 12]' --set output.frame_interval=7");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("particles    144, square lattice 12 x 12"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("frames every 7 steps"), std::string::npos) << r.output;
#if SMELT_APPS_HAVE_HDF5
    const fs::path dir = fresh_temp_dir("set_run");
    r = run_process(md2d() + " run " + shell_quote(kTiny) + " --steps 3 --output " +
                    shell_quote(dir.string()) + " --set output.thermo_interval=1");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(read_csv(dir / "md2d_tiny_thermo.csv").size(), 4u); // steps 0, 1, 2, 3
    hid_t f = H5Fopen((dir / "md2d_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    hid_t a = H5Aopen_by_name(f, "parameters", "config_yaml", H5P_DEFAULT, H5P_DEFAULT);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    char *text = nullptr;
    ASSERT_GE(H5Aread(a, t, &text), 0);
    const std::string stored = text;
    H5free_memory(text);
    H5Tclose(t);
    H5Aclose(a);
    H5Fclose(f);
    EXPECT_EQ(stored, read_text(kTiny) + "\n# command-line overrides: --steps 3 --output " +
                          dir.string() + " --set output.thermo_interval=1\n");
    fs::remove_all(dir);
#endif
}

#endif

#endif // SMELT_MD2D

} // namespace
