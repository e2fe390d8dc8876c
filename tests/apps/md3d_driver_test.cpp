// The md3d run loop and the md3d binary: output files read back (HDF5 API, VTK reader, CSV), a
// start from a stored frame (system.from_file), `md3d check` on good and bad configs, runs end
// to end on the CPU and OpenCL backends, and SIGINT / SIGKILL in the middle of a run leaving
// readable files.
#include "backends/registry.h"
#include "common/h5md_reader.h"
#include "common/run_loop.h"
#include "h5_read.h"
#include "md3d/simulation.h"
#include "md3d_test_util.h"
#include "test_process.h"

#include <gtest/gtest.h>

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
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>
#endif

using namespace smelt::apps;
using namespace smelt::apps::md3d;
using namespace smelt::apps::test_util;
namespace fs = std::filesystem;

namespace {

const std::string kTiny = std::string(SMELT_SOURCE_DIR) + "/configs/ci/md3d_tiny.yaml";
const std::string kTinyLangevin =
    std::string(SMELT_SOURCE_DIR) + "/configs/ci/md3d_tiny_langevin.yaml";
const char *kCsvHeader = "step,time,pe,ke,etotal,temperature,pressure,conserved,heat,px,py,pz";

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
    EXPECT_EQ(line, kCsvHeader);
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

std::vector<std::string> h5_strings_attr(hid_t f, const char *object, const char *name) {
    return h5_string_attr(f, object, name);
}

// The two-type CI config with walls along z, in-process with forces and VTK on: the H5MD frames
// equal an independent Simulation bit for bit, the observables equal the CSV, the VTK frames
// equal the H5MD ones, the box says which axes are periodic.
TEST(Md3dRun, OutputFilesReadBack) {
    SerialCpu serial;
    const fs::path dir = fresh_temp_dir("md3d_outputs");
    Md3dConfig c = md3d_config(read_text(kTinyLangevin) + "  force: true\n" +
                               (SMELT_APPS_HAVE_VTK ? "  vtk: true\n" : ""));
    c.output.directory = dir.string();
    ASSERT_TRUE(c.output_force);
    Simulation run(c, md3d_physics());
    RunOptions options;
    options.app = "md3d";
    RunReport r = run_simulation(c, run, c.integrator.steps, options);
    EXPECT_EQ(r.steps_done, 50);
    const int64_t n = c.n();
    const auto N = hsize_t(n);

    Simulation sim(c, md3d_physics()); // the same steps without any output
    sim.set_initial_state();
    for (int k = 0; k < 50; ++k)
        sim.step();

    hid_t f = H5Fopen((dir / "md3d_tiny_langevin.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> shape;
    auto pos = h5_doubles(f, "particles/all/position/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, N, 3}));
    EXPECT_EQ(h5_steps(f, "particles/all/position/step"),
              (std::vector<long long>{0, 10, 20, 30, 40, 50}));
    auto vel = h5_doubles(f, "particles/all/velocity/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, N, 3}));
    auto force = h5_doubles(f, "particles/all/force/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, N, 3}));
    auto image = h5_read<long long>(f, "particles/all/image/value", H5T_NATIVE_LLONG, &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, N, 3}));
    auto species = h5_read<long long>(f, "particles/all/species/value", H5T_NATIVE_LLONG, &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{6, N}));
    const size_t last = size_t(5 * n * 3);
    const auto sp = sim.host_int(sim.species());
    long long moved_images = 0;
    for (int a = 0; a < 3; ++a) {
        const auto x = sim.host(sim.position(a)), v = sim.host(sim.velocity(a)),
                   fa = sim.host(sim.force(a));
        const auto img = sim.host_int(sim.image(a));
        for (size_t i = 0; i < size_t(n); ++i) {
            ASSERT_EQ(pos[last + 3 * i + size_t(a)], x[i]) << i;
            ASSERT_EQ(vel[last + 3 * i + size_t(a)], v[i]) << i;
            ASSERT_EQ(force[last + 3 * i + size_t(a)], fa[i]) << i;
            ASSERT_EQ(image[last + 3 * i + size_t(a)], img[i]) << i;
            moved_images += img[i] != 0;
            if (a == 2) {
                EXPECT_EQ(img[i], 0); // walls along z: never wrapped
            }
        }
    }
    for (size_t i = 0; i < size_t(n); ++i)
        ASSERT_EQ(species[size_t(5 * n) + i], sp[i]);
    EXPECT_EQ(std::count(species.begin(), species.begin() + n, 1), 100);
    EXPECT_EQ(h5_box_edges(f),
              (std::vector<double>{c.system.box[0], c.system.box[1], c.system.box[2]}));
    EXPECT_EQ(h5_strings_attr(f, "particles/all/box", "boundary"),
              (std::vector<std::string>{"periodic", "periodic", "none"}));

    const auto rows = read_csv(dir / "md3d_tiny_langevin_thermo.csv");
    ASSERT_EQ(rows.size(), 11u); // steps 0, 5, ..., 50
    const char *names[] = {"potential_energy", "kinetic_energy",   "total_energy",    "temperature",
                           "pressure",         "conserved_energy", "thermostat_heat", "momentum_x",
                           "momentum_y",       "momentum_z"};
    for (size_t k = 0; k < 10; ++k) {
        auto v = h5_doubles(f, std::string("observables/") + names[k] + "/value");
        ASSERT_EQ(v.size(), rows.size()) << names[k];
        for (size_t i = 0; i < rows.size(); ++i)
            EXPECT_EQ(v[i], rows[i][2 + k]) << names[k] << " sample " << i;
    }
    H5Fclose(f);
    const ThermoSample end = sim.thermo();
    EXPECT_EQ(rows.back()[4], end.etotal);
    EXPECT_EQ(rows.back()[8], end.heat);
    EXPECT_EQ(rows.back()[7], end.etotal - end.heat);
    EXPECT_NEAR(rows[0][5], 1.0, 1e-12); // the initial temperature the config asks for
    EXPECT_EQ(rows[0][8], 0.0);
    EXPECT_TRUE(fs::exists(dir / "md3d_tiny_langevin_checkpoint.h5"));

#if SMELT_APPS_HAVE_VTK
    const std::string pvd = read_text(dir / "md3d_tiny_langevin.pvd");
    std::regex entry(R"re(file="([^"]+)")re");
    std::vector<std::string> files;
    for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), entry);
         it != std::sregex_iterator(); ++it)
        files.push_back((*it)[1]);
    ASSERT_EQ(files.size(), 6u);
    EXPECT_EQ(files.back(), "md3d_tiny_langevin_000000050.vtp");
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / files.back()).c_str());
    reader->Update();
    vtkPolyData *poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), n);
    const auto x = sim.host(sim.position(0)), z = sim.host(sim.position(2));
    for (vtkIdType i = 0; i < n; ++i) {
        double p[3];
        poly->GetPoint(i, p);
        ASSERT_EQ(p[0], x[size_t(i)]);
        ASSERT_EQ(p[2], z[size_t(i)]);
    }
    vtkDataArray *vtk_species = poly->GetPointData()->GetArray("type");
    ASSERT_NE(vtk_species, nullptr);
    for (vtkIdType i = 0; i < n; ++i)
        ASSERT_EQ(vtk_species->GetTuple1(i), double(sp[size_t(i)]));
    EXPECT_NE(poly->GetPointData()->GetArray("image"), nullptr);
    EXPECT_NE(poly->GetPointData()->GetArray("force"), nullptr);
#endif
    fs::remove_all(dir);
}

// read_h5md_frame: any frame by index (negative from the end), every per-particle series at its
// step, and a clear error for a frame that is not there.
TEST(Md3dRun, H5mdFramesReadBack) {
    SerialCpu serial;
    const fs::path dir = fresh_temp_dir("md3d_h5md_read");
    Md3dConfig c = md3d_config(read_text(kTinyLangevin));
    c.output.directory = dir.string();
    Simulation run(c, md3d_physics());
    RunOptions o;
    o.app = "md3d";
    run_simulation(c, run, 20, o);
    const std::string path = (dir / "md3d_tiny_langevin.h5").string();
    H5mdFrame last = read_h5md_frame(path, -1), first = read_h5md_frame(path, 0);
    EXPECT_EQ(last.frames, 3); // steps 0, 10, 20
    EXPECT_EQ(last.index, 2);
    EXPECT_EQ(last.data.step, 20);
    EXPECT_EQ(first.data.step, 0);
    EXPECT_EQ(last.n, 500);
    EXPECT_EQ(last.periodic_axes, (std::vector<bool>{true, true, false}));
    EXPECT_EQ(last.box_edges,
              (std::vector<double>{c.system.box[0], c.system.box[1], c.system.box[2]}));
    const Field *pos = last.data.find("position");
    ASSERT_NE(pos, nullptr);
    EXPECT_EQ(pos->real[1], run.host(run.position(1)));
    const Field *img = last.data.find("image");
    ASSERT_NE(img, nullptr);
    ASSERT_TRUE(img->is_integer());
    const auto ix = run.host_int(run.image(0));
    EXPECT_EQ(img->integer[0], std::vector<int64_t>(ix.begin(), ix.end()));
    ASSERT_NE(last.data.find("species"), nullptr);
    EXPECT_EQ(read_h5md_observable(path, "thermostat_heat", 20), run.heat());
    EXPECT_FALSE(read_h5md_observable(path, "thermostat_heat", 7).has_value());
    EXPECT_FALSE(read_h5md_observable(path, "no_such_thing", 0).has_value());
    try {
        read_h5md_frame(path, 3);
        FAIL();
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("frame 3 does not exist (the file has 3 frames)"),
                  std::string::npos)
            << e.what();
    }
    fs::remove_all(dir);
}

// system.from_file with continue: the run picks up the last frame of another run's H5MD file
// (positions, velocities, images, species, step, time, heat) and goes on exactly as that run
// would have: its files hold the continuation of the first run's. Bit for bit only without
// reordering by cell (sort_interval: 0): frames hold the particles in id order, not in the
// order the first run summed their forces in. (Checkpoints keep that order: --restart is exact
// either way, Md3dRestart.)
TEST(Md3dRun, FromFileContinuesAStoredFrame) {
    SerialCpu serial;
    const fs::path first = fresh_temp_dir("md3d_from_file_a"),
                   second = fresh_temp_dir("md3d_from_file_b"), ref = fresh_temp_dir("md3d_ff_ref");
    std::string yaml = read_text(kTinyLangevin);
    // A frame holds no list: bit-identical continuations need the particles in one order and
    // full lists (a half list's sums depend on the cells at its build).
    yaml.replace(yaml.find("  skin: 0.3\n"), 12,
                 "  skin: 0.3\n  sort_interval: 0\n  newton: false\n");
    auto run_to = [](Md3dConfig c, const fs::path &dir, int64_t steps) {
        c.output.directory = dir.string();
        c.integrator.steps = steps;
        Simulation sim(c, md3d_physics());
        RunOptions o;
        o.app = "md3d";
        return run_simulation(c, sim, steps, o);
    };
    Md3dConfig c = md3d_config(yaml);
    run_to(c, first, 20);
    run_to(c, ref, 40);
    // The same physics, started from the stored frame at step 20.
    std::string resumed = yaml;
    const std::string lattice_keys = "  lattice: fcc\n  cells: [5, 5, 5]\n  density: 0.8\n";
    resumed.replace(resumed.find(lattice_keys), lattice_keys.size(),
                    "  from_file: {path: " + (first / "md3d_tiny_langevin.h5").string() +
                        ", continue: true}\n");
    resumed.replace(resumed.find("  counts: [400, 100]\n"), 21, "");
    resumed.replace(resumed.find("  temperature: 1.0\n"), 19, "");
    Md3dConfig from = md3d_config(resumed);
    ASSERT_TRUE(from.system.from_file);
    EXPECT_EQ(from.system.from_file->step, 20);
    EXPECT_EQ(from.system.counts, (std::vector<int64_t>{400, 100}));
    EXPECT_EQ(from.system.box, c.system.box);
    run_to(from, second, 40);
    hid_t fr = H5Fopen((ref / "md3d_tiny_langevin.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t fs2 = H5Fopen((second / "md3d_tiny_langevin.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(fr, 0);
    ASSERT_GE(fs2, 0);
    // Frames at steps 20, 30, 40 of the continued run = the last three of the reference run.
    std::vector<hsize_t> shape;
    auto a = h5_doubles(fr, "particles/all/position/value", &shape);
    auto b = h5_doubles(fs2, "particles/all/position/value");
    EXPECT_EQ(h5_steps(fs2, "particles/all/position/step"), (std::vector<long long>{20, 30, 40}));
    ASSERT_EQ(b.size() * 5, a.size() * 3);
    for (size_t k = 0; k < b.size(); ++k)
        ASSERT_EQ(b[k], a[a.size() - b.size() + k]) << k;
    auto ha = h5_doubles(fr, "observables/thermostat_heat/value");
    auto hb = h5_doubles(fs2, "observables/thermostat_heat/value");
    ASSERT_FALSE(hb.empty());
    EXPECT_EQ(hb.back(), ha.back());
    auto ta = h5_doubles(fr, "observables/total_energy/value");
    auto tb = h5_doubles(fs2, "observables/total_energy/value");
    EXPECT_EQ(tb.back(), ta.back());
    H5Fclose(fr);
    H5Fclose(fs2);
    fs::remove_all(first);
    fs::remove_all(second);
    fs::remove_all(ref);
}

#endif

// ---- the binary ------------------------------------------------------------------------------

#ifdef SMELT_MD3D

std::string md3d() {
    return shell_quote(SMELT_MD3D);
}

TEST(Md3dBinary, HelpVersionAndUsageErrors) {
    auto r = run_process(md3d() + " --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find("3D Lennard-Jones"), std::string::npos) << r.output;
    r = run_process(md3d() + " --version");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find(SMELT_VERSION), std::string::npos);
    r = run_process(md3d() + " run " + shell_quote(kTiny) + " --backend metal");
    EXPECT_EQ(r.status, 2) << r.output;
    r = run_process(md3d());
    EXPECT_EQ(r.status, 2) << r.output;
}

TEST(Md3dBinary, CheckPrintsTheResolvedConfig) {
    auto r = run_process(md3d() + " check " + shell_quote(kTinyLangevin));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("particles    500, fcc lattice 5 x 5 x 5"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("periodic periodic walls"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("A: 400 (mass 1), B: 100 (mass 2)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("langevin"), std::string::npos);
    EXPECT_NE(r.output.find(": ok"), std::string::npos);
}

// Every md3d bad config: exit 1, the located message first.
TEST(Md3dBinary, CheckRejectsBadConfigsWithTheirLocation) {
    int files = 0;
    for (const auto &e :
         fs::directory_iterator(fs::path(SMELT_TEST_DATA_DIR) / "apps/bad_configs")) {
        if (e.path().extension() != ".yaml" || e.path().stem().string().rfind("md3d_", 0) != 0)
            continue;
        std::ifstream in(e.path());
        std::string first;
        std::getline(in, first);
        std::smatch m;
        ASSERT_TRUE(std::regex_match(first, m, std::regex(R"(# expect: (\d+):(\d+): .*)")));
        auto r = run_process(md3d() + " check " + shell_quote(e.path().string()));
        EXPECT_EQ(r.status, 1) << e.path() << "\n" << r.output;
        const std::string want =
            e.path().string() + ":" + std::string(m[1]) + ":" + std::string(m[2]) + ": error: ";
        EXPECT_EQ(r.output.rfind(want, 0), 0u) << r.output;
        ++files;
    }
    EXPECT_GE(files, 15);
}

// The final line the validation scripts parse (validation/md3d_common.py, SUMMARY).
const std::regex kSummary(R"((done|stopped) after (\d+) steps in ([0-9.eE+-]+) s: )"
                          R"(([0-9.eE+-]+) particle-steps/s, (\d+) neighbour builds, (\d+) CPU )"
                          R"(threads)");

// `md3d run` on a backend; the final total energy from its CSV.
double run_tiny(const std::string &backend, const fs::path &dir, const std::string &extra = "") {
    auto r = run_process(md3d() + " run " + shell_quote(kTiny) + " --backend=" + backend +
                         " --output " + shell_quote(dir.string()) + " --threads 1" + extra);
    EXPECT_EQ(r.status, 0) << r.output;
    std::smatch m;
    EXPECT_TRUE(std::regex_search(r.output, m, kSummary)) << r.output;
    if (m.size() > 2) {
        EXPECT_EQ(m[1], "done");
        EXPECT_EQ(m[2], "50");
    }
    const auto rows = read_csv(dir / "md3d_tiny_thermo.csv");
    EXPECT_EQ(rows.size(), 11u);
    return rows.empty() ? NAN : rows.back()[4];
}

TEST(Md3dBinary, RunsTheTinyConfigOnTheCpu) {
    const fs::path dir = fresh_temp_dir("md3d_binary_cpu");
    const double e = run_tiny("cpu", dir);
    // The CPU thread count does not change the physics: an in-process run agrees (the energy
    // sums round differently per thread count).
    Md3dConfig c = md3d_config(read_text(kTiny));
    Simulation sim(c, md3d_physics());
    sim.set_initial_state();
    for (int k = 0; k < 50; ++k)
        sim.step();
    EXPECT_NEAR(e, sim.thermo().etotal, 1e-12 * std::abs(e));
    EXPECT_TRUE(fs::exists(dir / "md3d_tiny.h5"));
    EXPECT_TRUE(fs::exists(dir / "md3d_tiny_checkpoint.h5"));
    fs::remove_all(dir);
}

// SMELT_PROFILE=1: the engine's per-primitive table at exit, with the integrator's kernel
// called once per NVE step and once in the dt = 0 warm-up that compiles every kernel before the
// run (Simulation::compile_kernels).
TEST(Md3dBinary, SmeltProfilePrintsThePrimitivesTable) {
    const fs::path dir = fresh_temp_dir("md3d_binary_profile");
    auto r = run_process("SMELT_PROFILE=1 " + md3d() + " run " + shell_quote(kTiny) +
                         " --backend=cpu --output " + shell_quote(dir.string()) + " --threads 1");
    EXPECT_EQ(r.status, 0) << r.output;
    // A step opens with kick_drift, or with newton_sum_kick_kick_drift where advance() joins it
    // to the previous step's end (apps/md3d/README.md, "Steps joined at their ends").
    auto calls = [&](const std::string &kernel) {
        std::smatch m;
        EXPECT_TRUE(std::regex_search(
            r.output, m, std::regex("Elementwise\\(" + kernel + "\\)\\s+cpu\\s+(\\d+)\\s")))
            << kernel << "\n"
            << r.output;
        return m.empty() ? 0 : std::stoi(m[1]);
    };
    const int opened = calls("kick_drift"), joined = calls("newton_sum_kick_kick_drift");
    EXPECT_GT(joined, opened);
    EXPECT_EQ(opened + joined, 52); // configs/ci/md3d_tiny.yaml: 50 velocity-Verlet steps, + 1
                                    // of each in compile_kernels
    EXPECT_NE(r.output.find("smelt profile"), std::string::npos) << r.output;
    fs::remove_all(dir);
}

bool opencl_available() {
    for (const auto &b : smelt::list_backends())
        if (b.name == "opencl" && b.available) return true;
    return false;
}

// The command the users asked for: md3d run CONFIG --backend=opencl (PoCL in CI; the suite
// name gives it the ctest label opencl).
TEST(OpenCLMd3dBinary, RunsTheTinyConfig) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    const fs::path cpu = fresh_temp_dir("md3d_binary_cpu_ref"),
                   ocl = fresh_temp_dir("md3d_binary_opencl");
    const double e_cpu = run_tiny("cpu", cpu), e_ocl = run_tiny("opencl", ocl);
    // Same physics, other compiler and reduction order: agreement to rounding over 50 steps.
    // (On OpenCL the force loop splits each list over lanes: 8 at this N by default.)
    EXPECT_NEAR(e_ocl, e_cpu, 1e-9 * std::abs(e_cpu));
    const fs::path one = fresh_temp_dir("md3d_binary_opencl_one_lane");
    const double e_one_lane = run_tiny("opencl", one, " --set neighbor.lanes=1");
    EXPECT_NEAR(e_one_lane, e_cpu, 1e-9 * std::abs(e_cpu));
    fs::remove_all(cpu);
    fs::remove_all(ocl);
    fs::remove_all(one);
}

TEST(Md3dBinary, UnavailableBackendIsAClearError) {
    for (const auto &b : smelt::list_backends())
        if (b.name == "cuda" && b.available) GTEST_SKIP() << "a CUDA device is present";
    const fs::path dir = fresh_temp_dir("md3d_no_backend");
    auto r = run_process(md3d() + " run " + shell_quote(kTiny) + " --backend cuda --output " +
                         shell_quote(dir.string()));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("md3d: error: "), std::string::npos) << r.output;
    fs::remove_all(dir);
}

#if SMELT_APPS_HAVE_HDF5

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

// Starts `md3d run CONFIG --steps huge --output DIR --threads 1 EXTRA...`; the child's stdout
// and stderr go to the returned pipe.
pid_t start_run(const fs::path &dir, const std::vector<std::string> &extra, int &out_fd) {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        std::vector<std::string> args{"md3d",     "run",        kTiny,       "--steps", "100000000",
                                      "--output", dir.string(), "--threads", "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        std::vector<char *> argv;
        for (std::string &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(SMELT_MD3D, argv.data());
        _exit(127);
    }
    close(fds[1]);
    out_fd = fds[0];
    return pid;
}

// Ctrl-C once the thermo line of step 40 is out; returns the output and the exit status.
std::pair<std::string, int> run_and_interrupt(const fs::path &dir) {
    int fd = -1;
    pid_t pid = start_run(dir, {"--set", "output.checkpoint_interval=10"}, fd);
    std::string out;
    const std::regex step40(R"((^|\n) +40 )");
    bool seen = read_until(fd, out, 120.0,
                           [&](const std::string &s) { return std::regex_search(s, step40); });
    kill(pid, seen ? SIGINT : SIGKILL);
    read_until(fd, out, 60.0, [](const std::string &) { return false; }); // to EOF
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(seen) << out;
    return {out, status};
}

// The H5MD file opens and its last frame and sample are finite; returns the last frame's step.
long long check_readable(const fs::path &h5) {
    hid_t f = H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    EXPECT_GE(f, 0) << "the H5MD file of an interrupted run must open";
    if (f < 0) return -1;
    std::vector<hsize_t> shape;
    auto pos = h5_doubles(f, "particles/all/position/value", &shape);
    EXPECT_EQ(shape.size(), 3u);
    auto steps = h5_steps(f, "particles/all/position/step");
    EXPECT_EQ(steps.size(), shape.empty() ? 0 : shape[0]);
    EXPECT_GE(steps.size(), 2u);
    for (double v : pos)
        EXPECT_TRUE(std::isfinite(v));
    auto e = h5_doubles(f, "observables/total_energy/value");
    EXPECT_EQ(e.size(), h5_steps(f, "observables/total_energy/step").size());
    H5Fclose(f);
    return steps.empty() ? -1 : steps.back();
}

TEST(Md3dBinary, SigintFinishesTheStepAndLeavesReadableFiles) {
    const fs::path dir = fresh_temp_dir("md3d_sigint");
    auto [out, status] = run_and_interrupt(dir);
    ASSERT_TRUE(WIFEXITED(status)) << out;
    EXPECT_EQ(WEXITSTATUS(status), 130) << out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, kSummary)) << out;
    EXPECT_EQ(m[1], "stopped");
    const long long stopped = std::stoll(m[2]);
    EXPECT_GE(stopped, 40);
    EXPECT_EQ(check_readable(dir / "md3d_tiny.h5"), stopped); // the last state is stored
    const auto rows = read_csv(dir / "md3d_tiny_thermo.csv");
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.back()[0], double(stopped));
    Checkpoint ck = read_checkpoint((dir / "md3d_tiny_checkpoint.h5").string());
    EXPECT_EQ(ck.step, stopped);
    fs::remove_all(dir);
}

// SIGKILL cannot be caught: the files hold what was written before it. An H5MD write cut in
// the middle can damage the file (HDF5 has no journal), so this run writes its H5MD file only
// at step 0 and is killed while it steps; its checkpoints (every 20 steps) are written to a
// temporary file and renamed, so a kill never tears them. --restart continues from the last
// one, and appends to the H5MD file.
TEST(Md3dBinary, SigkillLeavesReadableFilesAndARestartableCheckpoint) {
    const fs::path dir = fresh_temp_dir("md3d_sigkill");
    int fd = -1;
    pid_t pid =
        start_run(dir,
                  {"--set", "output.checkpoint_interval=20", "--set",
                   "output.thermo_interval=100000000", "--set", "output.frame_interval=100000000"},
                  fd);
    const fs::path ck_path = dir / "md3d_tiny_checkpoint.h5";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!fs::exists(ck_path) && std::chrono::steady_clock::now() < give_up)
        usleep(10000);
    const bool started = fs::exists(ck_path);
    usleep(100000); // a few more checkpoints
    kill(pid, SIGKILL);
    std::string out;
    read_until(fd, out, 60.0, [](const std::string &) { return false; });
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(started) << out;
    ASSERT_TRUE(WIFSIGNALED(status)) << out;
    EXPECT_EQ(WTERMSIG(status), SIGKILL);

    hid_t f = H5Fopen((dir / "md3d_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << "the H5MD file of a killed run must open";
    EXPECT_EQ(h5_steps(f, "particles/all/position/step"), (std::vector<long long>{0}));
    EXPECT_EQ(h5_doubles(f, "observables/total_energy/value").size(), 1u);
    H5Fclose(f);
    Checkpoint ck = read_checkpoint(ck_path.string());
    EXPECT_GE(ck.step, 20);
    EXPECT_EQ(ck.step % 20, 0);

    const long long end = ck.step + 13;
    auto r = run_process(md3d() + " run " + shell_quote(kTiny) + " --steps " + std::to_string(end) +
                         " --threads 1 --output " + shell_quote(dir.string()) + " --restart " +
                         shell_quote(ck_path.string()));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("done after " + std::to_string(end) + " steps"), std::string::npos)
        << r.output;
    EXPECT_EQ(check_readable(dir / "md3d_tiny.h5"), end);
    fs::remove_all(dir);
}

#endif
#endif

} // namespace
