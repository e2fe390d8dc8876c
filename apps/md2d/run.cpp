#include "md2d/run.h"

#include "common/h5md_writer.h"
#include "common/progress.h"
#include "common/thermo.h"
#include "common/vtk_writer.h"
#include "md2d/simulation.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

namespace smelt::apps::md2d {

namespace {

namespace fs = std::filesystem;

// The output files of a run, opened at the start and closed (valid) however the run ends.
class Outputs {
public:
    Outputs(const Md2dConfig &c, std::FILE *console, std::vector<std::string> &files) {
        const OutputConfig &o = c.output;
        const fs::path dir(o.directory);
        fs::create_directories(dir);
        if (o.h5md) {
            H5mdOptions h;
            h.n = c.n();
            h.dim = 2;
            h.box_edges = {c.box()[0], c.box()[1]};
            h.periodic = c.periodic();
            h.creator = "smelt md2d";
            h.creator_version = SMELT_VERSION;
            h.config_yaml = c.source.text;
            const std::string path = (dir / (o.prefix + ".h5")).string();
            h5md_ = std::make_unique<H5mdWriter>(path, h);
            files.push_back(path);
        }
        if (o.vtk) {
            vtk_.emplace(o.directory, o.prefix, 2);
            files.push_back(vtk_->pvd_path());
        }
        std::string csv;
        if (o.csv) {
            csv = (dir / (o.prefix + "_thermo.csv")).string();
            files.push_back(csv);
        }
        thermo_ = std::make_unique<ThermoLog>(console, csv);
    }

    void thermo(const ThermoSample &s) {
        thermo_->write(s);
        if (h5md_) h5md_->write_thermo(s);
    }

    void frame(Simulation &sim) {
        if (!h5md_ && !vtk_) return;
        auto x = sim.host(sim.x()), y = sim.host(sim.y());
        auto vx = sim.host(sim.vx()), vy = sim.host(sim.vy());
        Frame f;
        f.step = sim.step_index();
        f.time = sim.time();
        f.x = x;
        f.y = y;
        f.vx = vx;
        f.vy = vy;
        if (h5md_) h5md_->write_frame(f);
        if (vtk_) vtk_->write_frame(f);
    }

    void close() {
        thermo_->close();
        if (h5md_) h5md_->close();
    }

private:
    std::unique_ptr<H5mdWriter> h5md_;
    std::optional<VtkWriter> vtk_;
    std::unique_ptr<ThermoLog> thermo_;
};

} // namespace

RunReport run_md2d(const Md2dConfig &config, const smelt::Program &physics, std::FILE *console,
                   const StopSignal *stop) {
    RunReport report;
    report.threads = configure_threads(config);
    Simulation sim(config, physics);
    sim.set_initial_state();
    sim.compile_kernels(); // on a cold cache this takes seconds: keep it out of the timing
    Outputs out(config, console, report.files);

    const int64_t steps = config.integrator.steps;
    const OutputConfig &o = config.output;
    Progress progress(steps, stderr, o.progress ? Progress::Mode::Auto : Progress::Mode::Off);
    auto sample = [&](bool thermo, bool frame) {
        // A redrawn bar shares the terminal with the thermo lines: clear it first.
        if (thermo && progress.mode() == Progress::Mode::Bar) std::fputs("\r\033[K", stderr);
        if (thermo) out.thermo(sim.thermo());
        if (frame) out.frame(sim);
    };

    const auto t0 = std::chrono::steady_clock::now();
    sample(true, true);
    while (sim.step_index() < steps) {
        sim.step();
        const int64_t s = sim.step_index();
        const bool last = s == steps || (stop && stop->requested());
        sample(last || s % o.thermo_interval == 0, last || s % o.frame_interval == 0);
        progress.update(s);
        if (last) break;
    }
    progress.finish(sim.step_index());
    out.close();
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report.steps_done = sim.step_index();
    report.interrupted = report.steps_done < steps;
    report.neighbor_builds = sim.neighbors().builds();
    return report;
}

} // namespace smelt::apps::md2d
