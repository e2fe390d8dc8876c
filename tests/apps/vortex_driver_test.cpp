// vortex's run loop and binary: output files read back (HDF5 C API, VTK reader, CSV) against an
// independent in-process Simulation, the periodic box, an H5MD frame as an initial state,
// `vortex check` on good and bad configs, and `vortex run` on configs/ci/vortex_tiny.yaml on the
// cpu backend and on OpenCL (tiled Kernel).
#include "common/run_loop.h"
#include "h5_read.h"
#include "vortex/simulation.h"
#include "vortex_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#if SMELT_APPS_HAVE_VTK
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>
#endif

using namespace smelt::apps;
using namespace smelt::apps::vortex;
using namespace smelt::apps::vortex_test;
using namespace smelt::apps::test_util;
namespace fs = std::filesystem;

namespace {

const std::string kTiny = std::string(SMELT_SOURCE_DIR) + "/configs/ci/vortex_tiny.yaml";

std::vector<std::vector<double>> read_csv(const fs::path &p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "step,time,circulation,impulse_x,impulse_y,angular_impulse,hamiltonian");
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

// The tiny config's 20 steps without any output.
struct Reference {
    std::vector<double> x0, y0, gamma, x, y, u, v;
};

Reference reference_run(const VortexConfig &c, int steps) {
    Simulation sim(c, vortex_physics());
    sim.initialize();
    Reference r;
    r.x0 = sim.host(sim.x());
    r.y0 = sim.host(sim.y());
    r.gamma = sim.host(sim.gamma());
    for (int k = 0; k < steps; ++k)
        sim.step();
    sim.evaluate_at_positions();
    r.x = sim.host(sim.x());
    r.y = sim.host(sim.y());
    r.u = sim.host(sim.u());
    r.v = sim.host(sim.v());
    return r;
}

#if SMELT_APPS_HAVE_HDF5

std::vector<std::string> string_attr(hid_t f, const std::string &obj, const std::string &name) {
    return h5_string_attr(f, obj, name);
}

RunReport run_in_process(VortexConfig c, const fs::path &dir) {
    c.output.directory = dir.string();
    Simulation sim(c, vortex_physics());
    RunOptions options;
    options.app = "vortex";
    options.units = "dimensionless";
    return run_simulation(c, sim, c.integrator.steps, options);
}

// The tiny run in-process with VTK on: H5MD frames (position, velocity, circulation) equal an
// independent Simulation bit for bit, the observables equal the CSV, the VTK point data equal
// the H5MD frame.
TEST(VortexRun, OutputFilesReadBack) {
    OneCpuThread serial;
    const fs::path dir = vortex_temp_dir("outputs");
    VortexConfig c =
        vortex_config(read_text(kTiny) + (SMELT_APPS_HAVE_VTK ? "  vtk: true\n" : ""), kTiny);
    RunReport report = run_in_process(c, dir);
    EXPECT_EQ(report.steps_done, 20);
    const auto n = size_t(c.n());
    const Reference ref = reference_run(c, 20);

    hid_t f = H5Fopen((dir / "vortex_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> shape;
    auto pos = h5_doubles(f, "particles/all/position/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{5, n, 2}));
    EXPECT_EQ(h5_steps(f, "particles/all/position/step"),
              (std::vector<long long>{0, 5, 10, 15, 20}));
    auto vel = h5_doubles(f, "particles/all/velocity/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{5, n, 2}));
    auto circ = h5_doubles(f, "particles/all/circulation/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{5, n}));
    const size_t last = 4 * n * 2;
    for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(pos[2 * i], ref.x0[i]) << i;
        ASSERT_EQ(pos[2 * i + 1], ref.y0[i]) << i;
        ASSERT_EQ(pos[last + 2 * i], ref.x[i]) << i;
        ASSERT_EQ(pos[last + 2 * i + 1], ref.y[i]) << i;
        ASSERT_EQ(vel[last + 2 * i], ref.u[i]) << i;
        ASSERT_EQ(vel[last + 2 * i + 1], ref.v[i]) << i;
        for (size_t frame = 0; frame < 5; ++frame)
            ASSERT_EQ(circ[frame * n + i], ref.gamma[i]) << i;
    }
    EXPECT_EQ(string_attr(f, "particles/all/box", "boundary"),
              (std::vector<std::string>{"none", "none"}));
    auto [xlo, xhi] = std::minmax_element(ref.x0.begin(), ref.x0.end());
    auto [ylo, yhi] = std::minmax_element(ref.y0.begin(), ref.y0.end());
    EXPECT_EQ(h5_box_edges(f), (std::vector<double>{*xhi - *xlo, *yhi - *ylo}));
    EXPECT_EQ(string_attr(f, "h5md/creator", "name"), std::vector<std::string>{"smelt vortex"});

    const auto rows = read_csv(dir / "vortex_tiny_thermo.csv");
    ASSERT_EQ(rows.size(), 5u);
    const auto columns = observable_columns();
    for (size_t k = 0; k < columns.size(); ++k) {
        auto v = h5_doubles(f, "observables/" + columns[k].h5md_name + "/value");
        ASSERT_EQ(v.size(), rows.size()) << columns[k].name;
        for (size_t i = 0; i < rows.size(); ++i)
            EXPECT_EQ(v[i], rows[i][2 + k]) << columns[k].name << " sample " << i;
    }
    // circulation and the impulses are the plain sums of the state
    long double g = 0, gx = 0;
    for (size_t i = 0; i < n; ++i) {
        g += ref.gamma[i];
        gx += (long double)ref.gamma[i] * ref.x[i];
    }
    EXPECT_NEAR(rows.back()[2], double(g), 1e-14);
    EXPECT_NEAR(rows.back()[3], double(gx), 1e-14);
    H5Fclose(f);

#if SMELT_APPS_HAVE_VTK
    const std::string pvd = read_text(dir / "vortex_tiny.pvd");
    std::regex entry(R"re(file="([^"]+)")re");
    std::vector<std::string> files;
    for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), entry);
         it != std::sregex_iterator(); ++it)
        files.push_back((*it)[1]);
    ASSERT_EQ(files.size(), 5u);
    EXPECT_EQ(files.back(), "vortex_tiny_000000020.vtp");
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / files.back()).c_str());
    reader->Update();
    vtkPolyData *poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), vtkIdType(n));
    vtkDataArray *gamma = poly->GetPointData()->GetArray("circulation");
    vtkDataArray *velocity = poly->GetPointData()->GetArray("velocity");
    ASSERT_NE(gamma, nullptr);
    ASSERT_NE(velocity, nullptr);
    ASSERT_EQ(velocity->GetNumberOfComponents(), 3);
    for (vtkIdType i = 0; i < vtkIdType(n); ++i) {
        double p[3];
        poly->GetPoint(i, p);
        ASSERT_EQ(p[0], ref.x[size_t(i)]);
        ASSERT_EQ(p[1], ref.y[size_t(i)]);
        ASSERT_EQ(p[2], 0.0);
        ASSERT_EQ(gamma->GetComponent(i, 0), ref.gamma[size_t(i)]);
        ASSERT_EQ(velocity->GetComponent(i, 0), ref.u[size_t(i)]);
        ASSERT_EQ(velocity->GetComponent(i, 1), ref.v[size_t(i)]);
        ASSERT_EQ(velocity->GetComponent(i, 2), 0.0);
    }
#endif
    fs::remove_all(dir);
}

// Periodic in x only: boundary [periodic, none], edges [L, initial y extent]; x is not wrapped.
TEST(VortexRun, PeriodicSheetBox) {
    OneCpuThread serial;
    const fs::path dir = vortex_temp_dir("sheet");
    VortexConfig c = vortex_config(
        "physics: {regularisation: krasny, delta: 0.2, periodic_x: true, period: 2.0}\n"
        "integrator: {dt: 0.05, steps: 4}\ninitial: {kind: sheet, n: 32, amplitude: 0.05}\n"
        "output: {prefix: sheet, frame_interval: 2, thermo_interval: 2, progress: false}\n");
    run_in_process(c, dir);
    hid_t f = H5Fopen((dir / "sheet.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(string_attr(f, "particles/all/box", "boundary"),
              (std::vector<std::string>{"periodic", "none"}));
    const auto edges = h5_box_edges(f);
    ASSERT_EQ(edges.size(), 2u);
    EXPECT_EQ(edges[0], 2.0);
    EXPECT_NEAR(edges[1], 2 * 2.0 * 0.05, 1e-3); // y = -L A sin(2 pi s)
    H5Fclose(f);
    fs::remove_all(dir);
}

// A frame of a vortex H5MD file as the initial state of the next run (initial.kind: file).
TEST(VortexRun, H5mdFrameAsInitialState) {
    OneCpuThread serial;
    const fs::path dir = vortex_temp_dir("from_h5md");
    VortexConfig c = vortex_config(read_text(kTiny), kTiny);
    run_in_process(c, dir);
    const Reference ref = reference_run(c, 20);
    const std::string cfg = (dir / "next.yaml").string();
    const std::string head = "integrator: {dt: 0.05, steps: 1}\ninitial: {kind: file, path: "
                             "vortex_tiny.h5";
    VortexConfig last = vortex_config(head + "}\n", cfg);
    EXPECT_EQ(last.n(), c.n());
    InitialState s = make_initial_state(last);
    EXPECT_EQ(s.x, ref.x);
    EXPECT_EQ(s.y, ref.y);
    EXPECT_EQ(s.gamma, ref.gamma);
    InitialState first = make_initial_state(vortex_config(head + ", frame: -5}\n", cfg));
    EXPECT_EQ(first.x, ref.x0);
    try {
        vortex_config(head + ",\n  frame: 5}\n", cfg);
        ADD_FAILURE() << "frame 5 of 5 accepted";
    } catch (const ConfigError &e) {
        EXPECT_EQ(e.key(), "initial.frame");
        EXPECT_EQ(e.line(), 3);
        EXPECT_NE(e.message().find("the file has 5 frames (-5 ... 4)"), std::string::npos)
            << e.what();
    }
    std::ofstream(dir / "not.h5") << "not hdf5";
    try {
        vortex_config("integrator: {dt: 0.05, steps: 1}\ninitial: {kind: file, path: not.h5}\n",
                      cfg);
        ADD_FAILURE() << "a text file accepted as H5MD";
    } catch (const ConfigError &e) {
        EXPECT_EQ(e.key(), "initial.path");
        EXPECT_NE(e.message().find("not.h5"), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
}

#endif

// ---- the binary ------------------------------------------------------------------------------

#ifdef SMELT_VORTEX

std::string vortex() {
    return shell_quote(SMELT_VORTEX);
}

TEST(VortexBinary, HelpVersionAndUsageErrors) {
    auto r = run_process(vortex() + " --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find("point vortices"), std::string::npos) << r.output;
    r = run_process(vortex() + " --version");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find("vortex (smelt " SMELT_VERSION), std::string::npos) << r.output;
    r = run_process(vortex() + " run " + shell_quote(kTiny) + " --precision half");
    EXPECT_EQ(r.status, 2) << r.output;
    r = run_process(vortex());
    EXPECT_EQ(r.status, 2) << r.output;
}

TEST(VortexBinary, CheckPrintsTheResolvedConfigAndRejectsBadOnes) {
    auto r = run_process(vortex() + " check " + shell_quote(kTiny));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("vortices     64, random disc patch"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(": ok"), std::string::npos);
    const std::string bad =
        std::string(SMELT_TEST_DATA_DIR) + "/apps/bad_configs/vortex_tiled_on_cpu.yaml";
    r = run_process(vortex() + " check " + shell_quote(bad));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_EQ(r.output.rfind(bad + ":7:11: error: evaluation.method: tiled needs", 0), 0u)
        << r.output;
    r = run_process(vortex() + " check " + shell_quote(kTiny) + " --set evaluation.method=tiled");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("--set evaluation.method=tiled"), std::string::npos) << r.output;
}

// The positions of the binary's last frame (H5MD) and its summary line.
struct BinaryRun {
    std::string output;
    std::vector<double> last_position;
};

BinaryRun run_binary(const fs::path &dir, const std::string &args) {
    BinaryRun b;
    auto r = run_process(vortex() + " run " + shell_quote(kTiny) + " --output " +
                         shell_quote(dir.string()) + " " + args);
    b.output = r.output;
    EXPECT_EQ(r.status, 0) << r.output;
#if SMELT_APPS_HAVE_HDF5
    hid_t f = H5Fopen((dir / "vortex_tiny.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    EXPECT_GE(f, 0);
    if (f >= 0) {
        std::vector<hsize_t> shape;
        auto pos = h5_doubles(f, "particles/all/position/value", &shape);
        if (shape.size() == 3)
            b.last_position.assign(pos.end() - std::ptrdiff_t(shape[1] * 2), pos.end());
        H5Fclose(f);
    }
#endif
    return b;
}

TEST(VortexBinary, RunsTheTinyConfigOnCpu) {
    const fs::path dir = vortex_temp_dir("binary_cpu");
    BinaryRun b = run_binary(dir, "--threads 1");
    EXPECT_NE(b.output.find("done after 20 steps"), std::string::npos) << b.output;
    // 20 RK4 steps of 4 evaluations, and the last frame's velocity (the frames at steps 0, 5, 10
    // and 15 share theirs with the step that follows)
    EXPECT_NE(b.output.find("81 velocity evaluations (elementwise)"), std::string::npos)
        << b.output;
    EXPECT_TRUE(std::regex_search(b.output, std::regex(R"(, [0-9.e+]+ pairs/s)"))) << b.output;
    const auto rows = read_csv(dir / "vortex_tiny_thermo.csv");
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows.back()[0], 20.0);
    EXPECT_EQ(rows.back()[1], 1.0); // t = 20 * 0.05
#if SMELT_APPS_HAVE_HDF5
    // Positions have one writer per vortex: the same bits as in-process.
    const Reference ref = reference_run(vortex_config(read_text(kTiny), kTiny), 20);
    ASSERT_EQ(b.last_position.size(), 2 * ref.x.size());
    for (size_t i = 0; i < ref.x.size(); ++i) {
        EXPECT_EQ(b.last_position[2 * i], ref.x[i]);
        EXPECT_EQ(b.last_position[2 * i + 1], ref.y[i]);
    }
#endif
    fs::remove_all(dir);
}

// --backend opencl: auto takes the tiled Kernel; the run follows the cpu one to round-off.
TEST(OpenCLVortexBinary, RunsTheTinyConfigTiled) {
    VORTEX_OPENCL_OR_SKIP();
    const fs::path dir = vortex_temp_dir("binary_opencl");
    BinaryRun b = run_binary(dir, "--backend opencl");
    EXPECT_NE(b.output.find("done after 20 steps"), std::string::npos) << b.output;
    EXPECT_NE(b.output.find("81 velocity evaluations (tiled, T = 128)"), std::string::npos)
        << b.output;
#if SMELT_APPS_HAVE_HDF5
    const Reference ref = reference_run(vortex_config(read_text(kTiny), kTiny), 20);
    ASSERT_EQ(b.last_position.size(), 2 * ref.x.size());
    for (size_t i = 0; i < ref.x.size(); ++i) {
        EXPECT_NEAR(b.last_position[2 * i], ref.x[i], 1e-11);
        EXPECT_NEAR(b.last_position[2 * i + 1], ref.y[i], 1e-11);
    }
#endif
    fs::remove_all(dir);
}

#endif

} // namespace
