// The kit's run loop over a small Stepper that needs no engine (host arrays, a deterministic
// nonlinear update and an RNG key in its state): the sampling, frame and checkpoint schedule,
// a crash or a Ctrl-C followed by a restart leaving the same files bit for bit as a run that
// went through, restarts that do not fit, a state that blows up, and output that another run
// holds or an earlier run left.
#include "common/output_guard.h"
#include "common/run_loop.h"
#include "common/vtk_writer.h"
#include "h5_read.h"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace smelt::apps;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kN = 6;
constexpr double kDt = 0.05;

// Free flight in a periodic 10 x 8 box with a position-dependent kick and a random nudge from
// its own generator; two species. Throws when asked to make step `crash_at`.
class FakeStepper : public Stepper {
public:
    int64_t crash_at = -1;
    int64_t raise_sigint_at = -1;
    int64_t blow_up_at = -1; // the step that makes vx[0] infinite

    int64_t n() const override { return kN; }
    int64_t step_index() const override { return step_; }
    double time() const override { return double(step_) * kDt; }
    Box box() const override { return {{10.0, 8.0}, true}; }
    void initialize() override {
        for (int64_t i = 0; i < kN; ++i) {
            x_.push_back(1.5 * double(i) + 0.25);
            y_.push_back(0.5 * double(i * i % 7));
            vx_.push_back(0.3 * double(i) - 0.7);
            vy_.push_back(0.2 - 0.1 * double(i));
        }
    }
    void compile_kernels() override { ++compiles; }
    void step() override {
        if (step_ + 1 == crash_at) throw std::runtime_error("crash");
        if (step_ + 1 == blow_up_at) vx_[0] = HUGE_VAL;
        for (size_t i = 0; i < size_t(kN); ++i) {
            key_ = key_ * 6364136223846793005ull + 1442695040888963407ull;
            vx_[i] += kDt * std::sin(y_[i]);
            vy_[i] += 1e-3 * (double(key_ >> 11) * 0x1.0p-53 - 0.5);
            x_[i] = std::fmod(x_[i] + kDt * vx_[i] + 10.0, 10.0);
            y_[i] = std::fmod(y_[i] + kDt * vy_[i] + 8.0, 8.0);
        }
        ++step_;
        if (step_ == raise_sigint_at) std::raise(SIGINT);
    }
    std::vector<ObservableColumn> columns() const override {
        return {{"sum_x", "sum_x", 12, 6, 'g'}, {"ke", "kinetic_energy", 14, 8, 'g'}};
    }
    std::vector<double> sample() override {
        double sx = 0, ke = 0;
        for (size_t i = 0; i < size_t(kN); ++i) {
            sx += x_[i];
            ke += 0.5 * (vx_[i] * vx_[i] + vy_[i] * vy_[i]);
        }
        return {sx, ke};
    }
    std::vector<Field> frame() override {
        std::vector<int64_t> species;
        for (int64_t i = 0; i < kN; ++i)
            species.push_back(i % 2);
        return {Field::vector("position", {x_, y_}), Field::vector("velocity", {vx_, vy_}),
                Field::integers("species", {species})};
    }
    Checkpoint save() override {
        Checkpoint ck;
        ck.put("x", x_);
        ck.put("y", y_);
        ck.put("vx", vx_);
        ck.put("vy", vy_);
        ck.put_scalar("rng_key", key_);
        return ck;
    }
    void restore(const Checkpoint &ck) override {
        x_ = ck.get<double>("x", kN);
        y_ = ck.get<double>("y", kN);
        vx_ = ck.get<double>("vx", kN);
        vy_ = ck.get<double>("vy", kN);
        key_ = ck.scalar<uint64_t>("rng_key");
        step_ = ck.step;
    }
    std::vector<std::string> summary() const override { return {"7 widgets"}; }

    int compiles = 0;
    std::vector<double> x_, y_, vx_, vy_;

private:
    int64_t step_ = 0;
    uint64_t key_ = 12345;
};

fs::path fresh_dir(const std::string &name) {
    auto dir =
        fs::temp_directory_path() / ("smelt_runloop_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(dir);
    return dir;
}

RunConfig config_in(const fs::path &dir) {
    RunConfig c;
    c.output.directory = dir.string();
    c.output.prefix = "fake";
    c.output.thermo_interval = 3;
    c.output.frame_interval = 4;
    c.output.progress = false;
    c.output.h5md = SMELT_APPS_HAVE_HDF5 != 0;
    c.output.checkpoint = SMELT_APPS_HAVE_HDF5 != 0;
    c.output.vtk = SMELT_APPS_HAVE_VTK != 0;
    c.source = {"fake.yaml", "fake: true\n", {}};
    return c;
}

RunOptions options(const std::string &restart = "") {
    RunOptions o;
    o.app = "fake";
    o.restart = restart;
    return o;
}

std::string read_text(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> csv_steps(const fs::path &p) {
    std::vector<std::string> steps;
    std::istringstream in(read_text(p));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line))
        steps.push_back(line.substr(0, line.find(',')));
    return steps;
}

#if SMELT_APPS_HAVE_HDF5

const char *kSeries[] = {"particles/all/position", "particles/all/velocity",
                         "particles/all/species", "observables/sum_x",
                         "observables/kinetic_energy"};

void expect_same_h5md(const fs::path &a, const fs::path &b) {
    EXPECT_EQ(test_util::h5_series_difference(
                  a.string(), b.string(),
                  std::vector<std::string>(std::begin(kSeries), std::end(kSeries))),
              "");
}

TEST(RunLoop, SamplesFramesAndCheckpointsOnSchedule) {
    const fs::path dir = fresh_dir("schedule");
    RunConfig c = config_in(dir);
    FakeStepper s;
    RunReport r = run_simulation(c, s, 23, options());
    EXPECT_EQ(r.first_step, 0);
    EXPECT_EQ(r.steps_done, 23);
    EXPECT_FALSE(r.interrupted);
    EXPECT_EQ(s.compiles, 1);
    EXPECT_EQ(r.summary, std::vector<std::string>{"7 widgets"});
    // Samples every 3 steps and at the end; frames every 4 and at the end.
    EXPECT_EQ(csv_steps(dir / "fake_thermo.csv"),
              (std::vector<std::string>{"0", "3", "6", "9", "12", "15", "18", "21", "23"}));
    hid_t f = H5Fopen((dir / "fake.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(test_util::h5_steps(f, "particles/all/position/step"),
              (std::vector<long long>{0, 4, 8, 12, 16, 20, 23}));
    EXPECT_EQ(test_util::h5_steps(f, "observables/kinetic_energy/step").size(), 9u);
    // The last frame is the stepper's state.
    std::vector<hsize_t> shape;
    auto pos = test_util::h5_doubles(f, "particles/all/position/value", &shape);
    ASSERT_EQ(shape, (std::vector<hsize_t>{7, kN, 2}));
    EXPECT_EQ(pos[6 * kN * 2 + 2 * 5 + 1], s.y_[5]);
    H5Fclose(f);
    Checkpoint ck = read_checkpoint((dir / "fake_checkpoint.h5").string());
    EXPECT_EQ(ck.app, "fake");
    EXPECT_EQ(ck.step, 23);
    EXPECT_EQ(ck.time, 23 * kDt);
    EXPECT_EQ(ck.config_yaml, "fake: true\n");
    EXPECT_EQ(ck.get<double>("vx"), s.vx_);
    std::vector<std::string> files{(dir / "fake.h5").string()};
    if (SMELT_APPS_HAVE_VTK) files.push_back((dir / "fake.pvd").string());
    files.push_back((dir / "fake_thermo.csv").string());
    files.push_back((dir / "fake_checkpoint.h5").string());
    EXPECT_EQ(r.files, files);
    fs::remove_all(dir);
}

// A crash at step 17 with checkpoints every 10 steps: the restart from step 10 drops what the
// crashed run wrote after it and leaves the files of a run that went through.
TEST(RunLoop, CrashAndRestartGiveTheUninterruptedFiles) {
    const fs::path ref = fresh_dir("ref"), dir = fresh_dir("crash");
    {
        FakeStepper s;
        run_simulation(config_in(ref), s, 30, options());
    }
    RunConfig c = config_in(dir);
    c.output.checkpoint_interval = 10;
    {
        FakeStepper s;
        s.crash_at = 17;
        EXPECT_THROW(run_simulation(c, s, 30, options()), std::runtime_error);
    }
    EXPECT_EQ(read_checkpoint((dir / "fake_checkpoint.h5").string()).step, 10);
    EXPECT_EQ(csv_steps(dir / "fake_thermo.csv").back(), "15"); // written past the checkpoint
    FakeStepper s;
    RunReport r = run_simulation(c, s, 30, options((dir / "fake_checkpoint.h5").string()));
    EXPECT_EQ(r.first_step, 10);
    EXPECT_EQ(r.steps_done, 30);
    EXPECT_EQ(s.compiles, 1);
    expect_same_h5md(ref / "fake.h5", dir / "fake.h5");
    EXPECT_EQ(read_text(dir / "fake_thermo.csv"), read_text(ref / "fake_thermo.csv"));
    if (SMELT_APPS_HAVE_VTK) {
        EXPECT_EQ(VtkWriter::pvd_entries(read_text(dir / "fake.pvd")),
                  VtkWriter::pvd_entries(read_text(ref / "fake.pvd")));
        for (const auto &e : fs::directory_iterator(ref))
            if (e.path().extension() == ".vtp")
                EXPECT_TRUE(fs::exists(dir / e.path().filename())) << e.path();
    }
    fs::remove_all(ref);
    fs::remove_all(dir);
}

// Ctrl-C at step 7: the run ends there with a last sample, frame and checkpoint (steps off the
// intervals), and the restart replaces them with the uninterrupted run's.
TEST(RunLoop, StopSignalThenRestartGiveTheUninterruptedFiles) {
    const fs::path ref = fresh_dir("ref2"), dir = fresh_dir("stop");
    {
        FakeStepper s;
        run_simulation(config_in(ref), s, 30, options());
    }
    {
        StopSignal stop;
        FakeStepper s;
        s.raise_sigint_at = 7;
        RunOptions o = options();
        o.stop = &stop;
        RunReport r = run_simulation(config_in(dir), s, 30, o);
        EXPECT_TRUE(r.interrupted);
        EXPECT_EQ(r.steps_done, 7);
        EXPECT_EQ(summary_line(r, kN).rfind("stopped after 7 steps in ", 0), 0u);
    }
    EXPECT_EQ(csv_steps(dir / "fake_thermo.csv").back(), "7");
    EXPECT_EQ(read_checkpoint((dir / "fake_checkpoint.h5").string()).step, 7);
    FakeStepper s;
    run_simulation(config_in(dir), s, 30, options((dir / "fake_checkpoint.h5").string()));
    expect_same_h5md(ref / "fake.h5", dir / "fake.h5");
    EXPECT_EQ(read_text(dir / "fake_thermo.csv"), read_text(ref / "fake_thermo.csv"));
    if (SMELT_APPS_HAVE_VTK) EXPECT_FALSE(fs::exists(dir / "fake_000000007.vtp"));
    fs::remove_all(ref);
    fs::remove_all(dir);
}

TEST(RunLoop, RestartsThatDoNotFitAreErrors) {
    const fs::path dir = fresh_dir("misfit");
    {
        FakeStepper s;
        run_simulation(config_in(dir), s, 12, options());
    }
    const std::string ck = (dir / "fake_checkpoint.h5").string();
    auto message = [&](auto f) {
        try {
            f();
        } catch (const CheckpointError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    FakeStepper s;
    RunOptions other = options(ck);
    other.app = "vortex";
    EXPECT_NE(message([&] {
                  run_simulation(config_in(dir), s, 20, other);
              }).find("a checkpoint of 'fake', not of vortex"),
              std::string::npos);
    EXPECT_NE(message([&] {
                  run_simulation(config_in(dir), s, 12, options(ck));
              }).find("is at step 12 and the run ends at step 12"),
              std::string::npos);
    // A checkpoint without the stepper's arrays.
    Checkpoint partial = read_checkpoint(ck);
    Checkpoint bad;
    bad.app = "fake";
    bad.step = 3;
    bad.put("x", partial.get<double>("x"));
    write_checkpoint(ck, bad);
    EXPECT_NE(message([&] {
                  run_simulation(config_in(dir), s, 20, options(ck));
              }).find("entry 'y' is missing"),
              std::string::npos);
    fs::remove_all(dir);
}

std::map<std::string, std::string> file_contents(const fs::path &dir) {
    std::map<std::string, std::string> out;
    for (const auto &e : fs::directory_iterator(dir))
        out[e.path().filename().string()] = read_text(e.path());
    return out;
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const std::exception &e) {
        return e.what();
    }
    return "no error";
}

// vx[0] becomes infinite in step 10 (samples every 3 steps, frames every 4): the run stops at
// the first output of the broken state, names its step and value, and leaves closed, readable
// files of the run up to there, with no checkpoint of the broken state.
TEST(RunLoop, ANonFiniteStateStopsTheRunAndLeavesValidFiles) {
    const fs::path dir = fresh_dir("blowup");
    {
        FakeStepper s;
        s.blow_up_at = 10;
        const std::string e = error_of([&] { run_simulation(config_in(dir), s, 30, options()); });
        // Step 12 is the first sample after it: x[0] = fmod(inf) is nan there.
        EXPECT_EQ(e.rfind("step 12: the simulation blew up: sum_x = nan (the last finite sample: "
                          "step 9)",
                          0),
                  0u)
            << e;
        EXPECT_NE(e.find("no checkpoint of this state was written"), std::string::npos) << e;
        EXPECT_NE(e.find("The output files hold the run up to step 12"), std::string::npos) << e;
    }
    EXPECT_EQ(csv_steps(dir / "fake_thermo.csv").back(), "12");
    hid_t f = H5Fopen((dir / "fake.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << "the H5MD file of a run that blew up must open";
    EXPECT_EQ(test_util::h5_steps(f, "particles/all/position/step").back(), 12);
    EXPECT_EQ(test_util::h5_steps(f, "observables/sum_x/step").back(), 12);
    H5Fclose(f);
    EXPECT_FALSE(fs::exists(dir / "fake_checkpoint.h5"));
    fs::remove_all(dir);

    // With checkpoints every 5 steps the one at step 10 is the first output of the broken state:
    // it is not written, the one of step 5 stays.
    RunConfig c = config_in(dir);
    c.output.checkpoint_interval = 5;
    FakeStepper s;
    s.blow_up_at = 10;
    const std::string e = error_of([&] { run_simulation(c, s, 30, options()); });
    EXPECT_EQ(e.rfind("step 10: the simulation blew up: the checkpoint's vx = inf", 0), 0u) << e;
    EXPECT_EQ(read_checkpoint((dir / "fake_checkpoint.h5").string()).step, 5);
    EXPECT_EQ(csv_steps(dir / "fake_thermo.csv").back(), "9");
    fs::remove_all(dir);
}

// A second run into the files of a first one is refused before it does any work, and leaves
// them byte for byte; with overwrite the old files go first (no stale frame stays behind).
TEST(RunLoop, AnEarlierRunsFilesAreReplacedOnlyWithOverwrite) {
    const fs::path dir = fresh_dir("rerun");
    {
        FakeStepper s;
        run_simulation(config_in(dir), s, 12, options());
    }
    const auto before = file_contents(dir);
    ASSERT_EQ(before.count("fake.h5"), 1u);
    FakeStepper second;
    const std::string e = error_of([&] { run_simulation(config_in(dir), second, 6, options()); });
    EXPECT_EQ(e.rfind((dir / "fake.h5").string() + " (and ", 0), 0u) << e;
    EXPECT_NE(e.find("exists from an earlier run"), std::string::npos) << e;
    EXPECT_NE(e.find("--overwrite"), std::string::npos) << e;
    EXPECT_NE(e.find("--restart " + (dir / "fake_checkpoint.h5").string()), std::string::npos) << e;
    EXPECT_EQ(second.compiles, 0);
    EXPECT_EQ(file_contents(dir), before);

    { std::ofstream(dir / "fake_000000099.vtp") << "a frame of an older, longer run"; }
    RunOptions o = options();
    o.overwrite = true;
    FakeStepper third;
    run_simulation(config_in(dir), third, 6, o);
    EXPECT_FALSE(fs::exists(dir / "fake_000000099.vtp"));
    EXPECT_EQ(csv_steps(dir / "fake_thermo.csv"), (std::vector<std::string>{"0", "3", "6"}));
    EXPECT_EQ(read_checkpoint((dir / "fake_checkpoint.h5").string()).step, 6);
    // Nothing but the run's files: no lock, no temporary.
    for (const auto &[name, text] : file_contents(dir))
        EXPECT_TRUE(name.rfind("fake", 0) == 0 && name.find(".tmp") == std::string::npos) << name;
    fs::remove_all(dir);
}

// While a run holds the output (its lock), another run into it is refused even with
// overwrite, and the held files are not touched.
TEST(RunLoop, OutputHeldByAnotherRunIsNeverTouched) {
    const fs::path dir = fresh_dir("held");
    {
        FakeStepper s;
        run_simulation(config_in(dir), s, 12, options());
    }
    const auto before = file_contents(dir);
    RunConfig c = config_in(dir);
    {
        const OutputGuard running(c.output, OutputGuard::Mode::Continue); // the other run
        RunOptions o = options();
        o.overwrite = true;
        FakeStepper s;
        const std::string e = error_of([&] { run_simulation(c, s, 6, o); });
        EXPECT_EQ(e.rfind("another run is writing " + (dir / "fake").string() + ".*", 0), 0u) << e;
        FakeStepper r;
        EXPECT_NE(error_of([&] {
                      run_simulation(c, r, 20, options((dir / "fake_checkpoint.h5").string()));
                  }).find("another run is writing"),
                  std::string::npos);
        auto held = file_contents(dir);
        held.erase(".fake.lock");
        EXPECT_EQ(held, before);
    }
    // Released: the lock file goes with it, and the output can be continued.
    EXPECT_FALSE(fs::exists(dir / ".fake.lock"));
    FakeStepper s;
    EXPECT_EQ(run_simulation(c, s, 20, options((dir / "fake_checkpoint.h5").string())).steps_done,
              20);
    fs::remove_all(dir);
}

#endif

TEST(RunLoop, SummaryLine) {
    RunReport r;
    r.first_step = 10;
    r.steps_done = 60;
    r.seconds = 2.0;
    r.threads = 2;
    r.summary = {"3 neighbour builds"};
    // 50 steps of 100 particles in 2 s.
    EXPECT_EQ(summary_line(r, 100),
              "done after 60 steps in 2.000 s: 2500 particle-steps/s, 3 neighbour builds, 2 CPU "
              "threads");
    r.interrupted = true;
    r.summary.clear();
    EXPECT_EQ(summary_line(r, 100),
              "stopped after 60 steps in 2.000 s: 2500 particle-steps/s, 2 CPU threads");
}

} // namespace
