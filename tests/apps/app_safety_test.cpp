// What the apps' command line (the kit's cli) does with input that cannot run and output that
// must not be lost, through the md2d, md3d and vortex binaries: an earlier run's files are
// refused without --overwrite and left intact, a run's files cannot be taken over while it runs,
// `check` finds what would fail at run time (an output path that is a file, a system too large
// for the memory, a directory given as the config, a second YAML document, an absurd time step),
// and an HDF5 failure is one line of our own.
#include "test_process.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <poll.h>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#if SMELT_APPS_HAVE_HDF5
#include <hdf5.h>
#endif

using namespace smelt::apps::test_util;
namespace fs = std::filesystem;

namespace {

struct AppBinary {
    const char *name;
    std::string path; // empty: not built
    std::string tiny; // its CI config
    std::string prefix;
};

std::vector<AppBinary> app_binaries() {
    const std::string ci = std::string(SMELT_SOURCE_DIR) + "/configs/ci/";
    std::vector<AppBinary> apps;
#ifdef SMELT_MD2D
    apps.push_back({"md2d", SMELT_MD2D, ci + "md2d_tiny.yaml", "md2d_tiny"});
#endif
#ifdef SMELT_MD3D
    apps.push_back({"md3d", SMELT_MD3D, ci + "md3d_tiny.yaml", "md3d_tiny"});
#endif
#ifdef SMELT_VORTEX
    apps.push_back({"vortex", SMELT_VORTEX, ci + "vortex_tiny.yaml", "vortex_tiny"});
#endif
    return apps;
}

fs::path fresh_dir(const std::string &name) {
    auto dir =
        fs::temp_directory_path() / ("smelt_safety_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string read_text(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string run_in(const AppBinary &app, const fs::path &dir, const std::string &extra = "") {
    return shell_quote(app.path) + " run " + shell_quote(app.tiny) + " --threads 1 --output " +
           shell_quote(dir.string()) + extra;
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// A second run into the same output is refused (exit 1, naming the file and the ways out) and
// leaves the first run's files byte for byte; --overwrite replaces them.
TEST(AppSafety, ASecondRunIsRefusedUnlessOverwrite) {
    for (const AppBinary &app : app_binaries()) {
        SCOPED_TRACE(app.name);
        const fs::path dir = fresh_dir(std::string("rerun_") + app.name);
        auto r = run_process(run_in(app, dir));
        ASSERT_EQ(r.status, 0) << r.output;
        std::map<std::string, std::string> before;
        for (const auto &e : fs::directory_iterator(dir))
            before[e.path().string()] = read_text(e.path());
        r = run_process(run_in(app, dir));
        EXPECT_EQ(r.status, 1) << r.output;
        const std::string first =
            (dir / (app.prefix + (SMELT_APPS_HAVE_HDF5 ? ".h5" : "_thermo.csv"))).string();
        EXPECT_TRUE(contains(r.output, std::string(app.name) + ": error: " + first)) << r.output;
        EXPECT_TRUE(contains(r.output, "exists from an earlier run")) << r.output;
        EXPECT_TRUE(contains(r.output, "--overwrite")) << r.output;
        for (const auto &[path, text] : before)
            EXPECT_EQ(read_text(path), text) << path;
        r = run_process(run_in(app, dir, " --overwrite"));
        EXPECT_EQ(r.status, 0) << r.output;
        // --overwrite and --restart contradict each other: a usage error.
        r = run_process(
            run_in(app, dir, " --overwrite --restart " + shell_quote((dir / "x.h5").string())));
        EXPECT_EQ(r.status, 2) << r.output;
        fs::remove_all(dir);
    }
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

#if defined(SMELT_MD2D) && SMELT_APPS_HAVE_HDF5
// While md2d runs, a second md2d into its output is refused even with --overwrite; the first
// run goes on, and its H5MD file reads back whole after Ctrl-C.
TEST(AppSafety, ARunningRunsOutputCannotBeTakenOver) {
    const AppBinary app = app_binaries().front();
    const fs::path dir = fresh_dir("concurrent");
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        const std::string out = dir.string();
        execl(SMELT_MD2D, "md2d", "run", app.tiny.c_str(), "--steps", "100000000", "--threads", "1",
              "--output", out.c_str(), static_cast<char *>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    const std::regex step20(R"((^|\n) +20 )"); // a thermo line: frames 0..20 are written
    const bool seen = read_until(
        fds[0], out, 120.0, [&](const std::string &s) { return std::regex_search(s, step20); });
    ProcessResult second;
    if (seen) second = run_process(run_in(app, dir, " --overwrite"));
    kill(pid, seen ? SIGINT : SIGKILL);
    read_until(fds[0], out, 60.0, [](const std::string &) { return false; }); // to EOF
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(seen) << out;
    EXPECT_EQ(second.status, 1) << second.output;
    EXPECT_TRUE(contains(second.output, "md2d: error: another run is writing " +
                                            (dir / app.prefix).string() + ".*"))
        << second.output;
    ASSERT_TRUE(WIFEXITED(status)) << out;
    EXPECT_EQ(WEXITSTATUS(status), 130) << out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(stopped after (\d+) steps)"))) << out;
    hid_t f = H5Fopen((dir / "md2d_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << "the first run's H5MD file must open";
    hid_t d = H5Dopen2(f, "particles/all/position/step", H5P_DEFAULT);
    ASSERT_GE(d, 0);
    hid_t space = H5Dget_space(d);
    std::vector<long long> steps(size_t(H5Sget_simple_extent_npoints(space)));
    H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, steps.data());
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
    ASSERT_GE(steps.size(), 3u);
    for (size_t k = 0; k + 1 < steps.size(); ++k) // frames every 10 steps, the last at the stop
        EXPECT_EQ(steps[k], 10 * (long long)k);
    EXPECT_EQ(steps.back(), std::stoll(m[1]));
    fs::remove_all(dir);
}

// An HDF5 failure is one line of our own, without HDF5's internal error stack.
TEST(AppSafety, AnHdf5FailureIsOneLine) {
    const AppBinary app = app_binaries().front();
    const fs::path dir = fresh_dir("h5fail");
    fs::create_directories(dir / "md2d_tiny.h5.tmp" / "blocked"); // the file cannot be created
    auto r = run_process(run_in(app, dir));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_TRUE(contains(r.output, "md2d: error: " + (dir / "md2d_tiny.h5").string() +
                                       ": HDF5 error: cannot create the file"))
        << r.output;
    EXPECT_FALSE(contains(r.output, "HDF5-DIAG")) << r.output;
    EXPECT_FALSE(contains(r.output, "#000")) << r.output;
    fs::remove_all(dir);
}
#endif

// `check` reports what would fail at run time, with the key, the file and the line.
TEST(AppSafety, CheckFindsWhatWouldFailAtRunTime) {
    for (const AppBinary &app : app_binaries()) {
        SCOPED_TRACE(app.name);
        const std::string check = shell_quote(app.path) + " check ";
        const fs::path dir = fresh_dir(std::string("check_") + app.name);
        // The output directory is a file, or lies below one.
        const fs::path file = dir / "a_file";
        { std::ofstream(file) << "x"; }
        auto r = run_process(check + shell_quote(app.tiny) +
                             " --set output.directory=" + shell_quote(file.string()));
        EXPECT_EQ(r.status, 1) << r.output;
        EXPECT_TRUE(contains(r.output, "error: output.directory: '" + file.string() +
                                           "' is a file, not a directory"))
            << r.output;
        r = run_process(check + shell_quote(app.tiny) +
                        " --set output.directory=" + shell_quote((file / "sub").string()));
        EXPECT_EQ(r.status, 1) << r.output;
        EXPECT_TRUE(contains(r.output, "output.directory: cannot create")) << r.output;
        // The same in the file: located at its line.
        const std::string text = read_text(app.tiny);
        const int lines = int(std::count(text.begin(), text.end(), '\n'));
        const size_t key = text.find("\n  directory: ");
        ASSERT_NE(key, std::string::npos);
        const size_t value = key + 14, end = text.find('\n', value);
        const int key_line = int(std::count(text.begin(), text.begin() + long(key), '\n')) + 2;
        const fs::path in_file = dir / "to_a_file.yaml";
        { std::ofstream(in_file) << text.substr(0, value) << file.string() << text.substr(end); }
        r = run_process(check + shell_quote(in_file.string()));
        EXPECT_EQ(r.status, 1) << r.output;
        EXPECT_TRUE(contains(r.output, in_file.string() + ":" + std::to_string(key_line) +
                                           ":14: error: output.directory: '" + file.string() +
                                           "' is a file, not a directory"))
            << r.output;
        // A directory given as the config.
        r = run_process(check + shell_quote(dir.string()));
        EXPECT_EQ(r.status, 1) << r.output;
        EXPECT_TRUE(contains(r.output, dir.string() + ": error: is a directory, not a "
                                                      "configuration file"))
            << r.output;
        // A second YAML document: located at its '---'.
        const fs::path two = dir / "two_documents.yaml";
        { std::ofstream(two) << text << "---\noutput:\n  vtk: true\n"; }
        r = run_process(check + shell_quote(two.string()));
        EXPECT_EQ(r.status, 1) << r.output;
        EXPECT_TRUE(contains(r.output, two.string() + ":" + std::to_string(lines + 1) +
                                           ":1: error: a second YAML document"))
            << r.output;
        fs::remove_all(dir);
    }
}

// A system larger than the memory is a config error at the key that sets the particle count
// (the machine's memory set to 1 MB for the test).
TEST(AppSafety, CheckRejectsASystemThatCannotFitTheMemory) {
    for (const AppBinary &app : app_binaries()) {
        SCOPED_TRACE(app.name);
        const std::string name = app.name;
        const std::string larger = name == "md2d"   ? "system.cells=[100,100]"
                                   : name == "md3d" ? "system.cells=[10,10,10]"
                                                    : "initial.n=100000";
        auto r = run_process("SMELT_APPS_MEMORY_BYTES=1000000 " + shell_quote(app.path) +
                             " check " + shell_quote(app.tiny) + " --set '" + larger + "'");
        EXPECT_EQ(r.status, 1) << r.output;
        const std::string key = larger.substr(0, larger.find('='));
        EXPECT_TRUE(
            std::regex_search(r.output, std::regex("error: " + key +
                                                   ": \\d+ (particles|vortices) need at least "
                                                   "[0-9.e+-]+ GiB of memory \\(\\d+ bytes "
                                                   "each\\), more than this machine's 0.000931 "
                                                   "GiB")))
            << r.output;
        // The machine's own memory holds the tiny system.
        r = run_process(shell_quote(app.path) + " check " + shell_quote(app.tiny));
        EXPECT_EQ(r.status, 0) << r.output;
    }
}

#if defined(SMELT_VORTEX) && SMELT_APPS_HAVE_HDF5
// vortex has no config-time bound on dt: dt = 1e300 blows up in the first steps, and the run
// stops with exit 1 at the first sample that is not finite, its files readable up to there.
TEST(AppSafety, ARunThatBlowsUpStopsWithAnError) {
    AppBinary app;
    for (const AppBinary &a : app_binaries())
        if (std::string(a.name) == "vortex") app = a;
    const fs::path dir = fresh_dir("blowup");
    auto r = run_process(run_in(app, dir, " --set integrator.dt=1e300"));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_TRUE(contains(r.output, "vortex: error: step 5: the simulation blew up: ")) << r.output;
    EXPECT_TRUE(contains(r.output, "(the last finite sample: step 0)")) << r.output;
    EXPECT_FALSE(contains(r.output, "done after")) << r.output;
    hid_t f = H5Fopen((dir / "vortex_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << "the H5MD file of a run that blew up must open";
    hid_t d = H5Dopen2(f, "observables/circulation/step", H5P_DEFAULT);
    ASSERT_GE(d, 0);
    long long steps[4] = {-1, -1, -1, -1};
    hid_t space = H5Dget_space(d);
    EXPECT_EQ(H5Sget_simple_extent_npoints(space), 2);
    H5Dread(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, steps);
    EXPECT_EQ(steps[1], 5);
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
    EXPECT_FALSE(fs::exists(dir / "vortex_tiny_checkpoint.h5"));
    fs::remove_all(dir);
}
#endif

#ifdef SMELT_MD2D
// dt: 10 (the issue's blow-up) is refused at config time with its key and origin.
TEST(AppSafety, AnAbsurdTimeStepIsAConfigError) {
    const AppBinary app = app_binaries().front();
    auto r = run_process(shell_quote(app.path) + " check " + shell_quote(app.tiny) +
                         " --set integrator.dt=10");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_TRUE(contains(r.output, "error: integrator.dt: a time step of 10 tau")) << r.output;
    EXPECT_TRUE(contains(r.output, "(set on the command line: --set integrator.dt=10)"))
        << r.output;
    r = run_process(shell_quote(app.path) + " check " + shell_quote(app.tiny) +
                    " --set integrator.dt=1e300");
    EXPECT_EQ(r.status, 1) << r.output;
    r = run_process(shell_quote(app.path) + " check " + shell_quote(app.tiny) +
                    " --set system.temperature=1e6");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_TRUE(contains(r.output, "error: system.temperature: at this temperature")) << r.output;
}
#endif

} // namespace
