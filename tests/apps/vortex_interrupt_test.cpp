// vortex stopped from outside (the binary, as a child process): Ctrl-C (SIGINT) in the middle of a
// run finishes the step, writes the last state to every output and the checkpoint, and exits 130
// with every file complete and readable; SIGKILL cannot be caught, so the H5MD file holds the
// frames written before it, the checkpoint the last state it stored, and a restart continues.
#include "common/checkpoint.h"
#include "h5_read.h"
#include "vortex_test_util.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <regex>
#include <sys/types.h>
#include <sys/wait.h>

#if SMELT_APPS_HAVE_VTK
#include "common/vtk_writer.h"

#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>
#endif

using namespace smelt::apps;
using namespace smelt::apps::vortex_test;
using namespace smelt::apps::test_util;
namespace fs = std::filesystem;

namespace {

#if defined(SMELT_VORTEX) && SMELT_APPS_HAVE_HDF5

const std::string kTiny = std::string(SMELT_SOURCE_DIR) + "/configs/ci/vortex_tiny.yaml";
const std::regex kSummary(R"((done|stopped) after (\d+) steps in ([0-9.eE+-]+) s: )");

// `vortex run` on the tiny config with a step count it never reaches, one CPU thread, `extra`
// arguments; its output goes to the returned pipe.
pid_t start_vortex(const fs::path &dir, const std::vector<std::string> &extra, int &out_fd) {
    std::vector<std::string> args{"vortex",   "run",        kTiny,       "--steps", "100000000",
                                  "--output", dir.string(), "--threads", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return start_child(SMELT_VORTEX, args, out_fd);
}

// Reads the child's output to its end and waits for it; returns the wait status.
int finish(pid_t pid, int fd, std::string &out) {
    read_child_output(fd, out, 60.0, [](const std::string &) { return false; });
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

std::vector<std::vector<double>> csv_rows(const fs::path &p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line); // header
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

// The H5MD file's frame steps, with its positions [frames, N, 2] (every one finite) and its
// observable steps (every series as long as its steps); -1 steps when the file does not open.
struct H5mdContent {
    std::vector<long long> frame_steps, observable_steps;
    std::vector<double> position;
    std::vector<hsize_t> shape;
};

H5mdContent read_h5md(const fs::path &h5) {
    H5mdContent c;
    hid_t f = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    EXPECT_GE(f, 0) << h5 << " must open";
    if (f < 0) return c;
    c.position = h5_doubles(f, "particles/all/position/value", &c.shape);
    c.frame_steps = h5_steps(f, "particles/all/position/step");
    EXPECT_EQ(c.shape.size(), 3u);
    if (c.shape.size() == 3) EXPECT_EQ(c.frame_steps.size(), c.shape[0]);
    for (double v : c.position)
        EXPECT_TRUE(std::isfinite(v));
    for (const char *series : {"particles/all/velocity", "particles/all/circulation"})
        EXPECT_EQ(h5_steps(f, std::string(series) + "/step"), c.frame_steps) << series;
    c.observable_steps = h5_steps(f, "observables/circulation/step");
    for (const char *name :
         {"circulation", "impulse_x", "impulse_y", "angular_impulse", "hamiltonian"}) {
        const std::string o = std::string("observables/") + name;
        EXPECT_EQ(h5_steps(f, o + "/step"), c.observable_steps) << name;
        EXPECT_EQ(h5_doubles(f, o + "/value").size(), c.observable_steps.size()) << name;
    }
    H5Fclose(f);
    return c;
}

// Frame k's positions as (x, y) arrays.
std::pair<std::vector<double>, std::vector<double>> frame_xy(const H5mdContent &c, size_t k) {
    const size_t n = c.shape.size() == 3 ? size_t(c.shape[1]) : 0;
    std::vector<double> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
        x[i] = c.position[(k * n + i) * 2];
        y[i] = c.position[(k * n + i) * 2 + 1];
    }
    return {x, y};
}

// Ctrl-C once the console line of step 40 is out: the step in progress ends, the last state goes
// to the H5MD file, the CSV, the VTK frames and the checkpoint, and the exit status is 130.
TEST(VortexBinary, SigintFinishesTheStepAndLeavesCompleteFiles) {
    const fs::path dir = vortex_temp_dir("sigint");
    std::vector<std::string> extra{"--set", "output.checkpoint_interval=10"};
#if SMELT_APPS_HAVE_VTK
    extra.insert(extra.end(), {"--set", "output.vtk=true"});
#endif
    int fd = -1;
    const pid_t pid = start_vortex(dir, extra, fd);
    ASSERT_GT(pid, 0);
    std::string out;
    const std::regex step40(R"((^|\n) +40 )");
    const bool seen = read_child_output(
        fd, out, 120.0, [&](const std::string &s) { return std::regex_search(s, step40); });
    kill(pid, seen ? SIGINT : SIGKILL);
    const int status = finish(pid, fd, out);
    ASSERT_TRUE(seen) << out;
    ASSERT_TRUE(WIFEXITED(status)) << out;
    EXPECT_EQ(WEXITSTATUS(status), 130) << out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, kSummary)) << out;
    EXPECT_EQ(m[1], "stopped");
    const long long stopped = std::stoll(m[2]);
    EXPECT_GE(stopped, 40);

    // H5MD: frames every 5 steps and the last state; the same steps for the observables.
    const H5mdContent h5 = read_h5md(dir / "vortex_tiny.h5");
    ASSERT_FALSE(h5.frame_steps.empty());
    EXPECT_EQ(h5.frame_steps.back(), stopped);
    EXPECT_EQ(h5.frame_steps.size(), size_t(stopped / 5 + 1 + (stopped % 5 != 0)));
    EXPECT_EQ(h5.observable_steps, h5.frame_steps); // thermo_interval = frame_interval = 5
    // CSV: one row per sample, the last at the stop.
    const auto rows = csv_rows(dir / "vortex_tiny_thermo.csv");
    ASSERT_EQ(rows.size(), h5.observable_steps.size());
    EXPECT_EQ(rows.back()[0], double(stopped));
    // The checkpoint holds the state of the last frame, bit for bit.
    const Checkpoint ck = read_checkpoint((dir / "vortex_tiny_checkpoint.h5").string());
    EXPECT_EQ(ck.step, stopped);
    const auto [x, y] = frame_xy(h5, h5.frame_steps.size() - 1);
    EXPECT_EQ(ck.get<double>("x"), x);
    EXPECT_EQ(ck.get<double>("y"), y);
#if SMELT_APPS_HAVE_VTK
    // VTK: the .pvd index lists every frame, the last one at the stop, and that file reads back
    // with the circulation as point data.
    const auto entries = VtkWriter::pvd_entries(read_text(dir / "vortex_tiny.pvd"));
    ASSERT_EQ(entries.size(), h5.frame_steps.size());
    EXPECT_DOUBLE_EQ(entries.back().first, double(stopped) * 0.05);
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / entries.back().second).c_str());
    reader->Update();
    vtkPolyData *poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), vtkIdType(x.size()));
    EXPECT_EQ(poly->GetPoint(0)[0], x[0]);
    vtkDataArray *gamma = poly->GetPointData()->GetArray("circulation");
    ASSERT_NE(gamma, nullptr);
    EXPECT_EQ(gamma->GetNumberOfTuples(), vtkIdType(x.size()));
#endif
    fs::remove_all(dir);
}

// SIGKILL between two writes: frames and samples every 200 steps of 1000 vortices (about a second
// here), checkpoints at the same steps, written after the step's frame. The kill comes as soon as
// the checkpoint of step 200 exists, long before step 400's writes: the H5MD file opens and
// holds the frames of steps 0 and 200, the second equal to the checkpoint; a restart from the
// checkpoint appends to it.
TEST(VortexBinary, SigkillLeavesTheFramesWrittenBeforeIt) {
    const fs::path dir = vortex_temp_dir("sigkill");
    const std::vector<std::string> every200{"--set", "initial.n=1000",
                                            "--set", "output.frame_interval=200",
                                            "--set", "output.thermo_interval=200",
                                            "--set", "output.checkpoint_interval=200"};
    int fd = -1;
    const pid_t pid = start_vortex(dir, every200, fd);
    ASSERT_GT(pid, 0);
    const fs::path ck_path = dir / "vortex_tiny_checkpoint.h5";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!fs::exists(ck_path) && std::chrono::steady_clock::now() < give_up)
        usleep(2000);
    const bool written = fs::exists(ck_path);
    kill(pid, SIGKILL);
    std::string out;
    const int status = finish(pid, fd, out);
    ASSERT_TRUE(written) << out;
    ASSERT_TRUE(WIFSIGNALED(status)) << out;
    EXPECT_EQ(WTERMSIG(status), SIGKILL);

    const H5mdContent h5 = read_h5md(dir / "vortex_tiny.h5");
    EXPECT_EQ(h5.frame_steps, (std::vector<long long>{0, 200}));
    EXPECT_EQ(h5.observable_steps, (std::vector<long long>{0, 200}));
    const Checkpoint ck = read_checkpoint(ck_path.string());
    ASSERT_EQ(ck.step, 200);
    if (h5.frame_steps.size() == 2) {
        const auto [x, y] = frame_xy(h5, 1);
        EXPECT_EQ(ck.get<double>("x"), x);
        EXPECT_EQ(ck.get<double>("y"), y);
    }

    std::string args;
    for (const std::string &a : every200)
        args += " " + shell_quote(a);
    auto r = run_process(shell_quote(SMELT_VORTEX) + " run " + shell_quote(kTiny) +
                         " --steps 203 --threads 1 --output " + shell_quote(dir.string()) + args +
                         " --restart " + shell_quote(ck_path.string()));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("done after 203 steps"), std::string::npos) << r.output;
    EXPECT_EQ(read_h5md(dir / "vortex_tiny.h5").frame_steps, (std::vector<long long>{0, 200, 203}));
    fs::remove_all(dir);
}

#endif

} // namespace
