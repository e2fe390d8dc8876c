#include "common/run_loop.h"

#include "common/domain/mpi_env.h"
#include "common/output_guard.h"
#include "common/outputs.h"
#include "common/progress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace smelt::apps {

namespace {

// Restores `stepper` from the checkpoint at `path`; returns its step.
int64_t restore(Stepper &stepper, const std::string &path, const std::string &app, int64_t steps) {
    Checkpoint ck = read_checkpoint(path);
    if (ck.app != app)
        throw CheckpointError(path + ": a checkpoint of '" + ck.app + "', not of " + app);
    if (ck.step >= steps)
        throw CheckpointError(path + ": the checkpoint is at step " + std::to_string(ck.step) +
                              " and the run ends at step " + std::to_string(steps) +
                              "; nothing to continue (raise the step count, e.g. with --steps)");
    stepper.restore(ck);
    if (stepper.step_index() != ck.step)
        throw CheckpointError(path + ": the stepper did not restore the checkpoint's step");
    return ck.step;
}

} // namespace

RunReport run_simulation(const RunConfig &config, Stepper &stepper, int64_t steps,
                         const RunOptions &options) {
    RunReport report;
    // Before any work: a run that may not write its files stops at once. In an MPI job only
    // rank 0 writes files (outputs.h), so only it holds the lock.
    std::optional<OutputGuard> guard;
    if (mpi::is_root())
        guard.emplace(config.output, !options.restart.empty() ? OutputGuard::Mode::Continue
                                     : options.overwrite      ? OutputGuard::Mode::Overwrite
                                                              : OutputGuard::Mode::Fresh);
    report.threads = configure_threads(config);
    std::optional<int64_t> resume;
    if (options.restart.empty())
        stepper.initialize();
    else
        resume = restore(stepper, options.restart, options.app, steps);
    stepper.compile_kernels(); // on a cold cache this takes seconds: keep it out of the timing
    Outputs out(config, stepper, options, resume, report.files);

    const OutputConfig &o = config.output;
    const int64_t first = stepper.step_index();
    Progress progress(steps, stderr,
                      o.progress && mpi::is_root() ? Progress::Mode::Auto : Progress::Mode::Off,
                      first);
    int64_t last_sound = -1; // the last step whose sample was finite
    bool finished = false;   // the progress display has its last line
    // Stops the run on a value that is not finite, with every file closed valid.
    auto check = [&](const std::string &bad) {
        if (bad.empty()) return;
        const int64_t s = stepper.step_index();
        if (!finished) progress.finish(s);
        out.close();
        throw SimulationError(
            "step " + std::to_string(s) + ": the simulation blew up: " + bad +
            (last_sound >= 0 ? " (the last finite sample: step " + std::to_string(last_sound) + ")"
                             : std::string()) +
            ". The time step may be too large, or particles too close. The output files hold "
            "the run up to step " +
            std::to_string(s) + "; no checkpoint of this state was written.");
    };
    auto sample = [&](bool thermo, bool frame) {
        // A redrawn bar shares the terminal with the observable lines: clear it first.
        if (thermo && progress.mode() == Progress::Mode::Bar) std::fputs("\r\033[K", stderr);
        std::string bad;
        if (thermo) bad = out.sample(stepper);
        if (frame) {
            const std::string in_frame = out.frame(stepper);
            if (bad.empty()) bad = in_frame;
        }
        check(bad);
        if (thermo) last_sound = stepper.step_index();
    };

    const auto t0 = std::chrono::steady_clock::now();
    sample(first % o.thermo_interval == 0, first % o.frame_interval == 0);
    // Steps up to the next one the loop acts on (a sample, a frame, a checkpoint, the end), at
    // most kAdvanceSteps at a time (progress). The stepper stops early on a stop request. On
    // several ranks one step at a time: they agree on stopping after each (mpi::any).
    constexpr int64_t kAdvanceSteps = 10;
    auto next_event = [&](int64_t s) {
        if (mpi::distributed()) return s + 1;
        int64_t next = std::min(steps, s + kAdvanceSteps);
        for (int64_t every : {o.thermo_interval, o.frame_interval, o.checkpoint_interval})
            if (every > 0) next = std::min(next, (s / every + 1) * every);
        return next;
    };
    const auto stop_requested = [&] { return options.stop && options.stop->requested(); };
    while (stepper.step_index() < steps) {
        stepper.advance(next_event(stepper.step_index()) - stepper.step_index(), stop_requested);
        const int64_t s = stepper.step_index();
        // Every rank stops at the same step, whichever saw the signal.
        const bool last = s == steps || mpi::any(options.stop && options.stop->requested());
        sample(last || s % o.thermo_interval == 0, last || s % o.frame_interval == 0);
        if (!last && o.checkpoint_interval > 0 && s % o.checkpoint_interval == 0)
            check(out.checkpoint(stepper));
        progress.update(s);
        if (last) break;
    }
    progress.finish(stepper.step_index());
    finished = true;
    check(out.checkpoint(stepper));
    out.close();
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report.first_step = first;
    report.steps_done = stepper.step_index();
    report.interrupted = report.steps_done < steps;
    report.summary = stepper.summary();
    return report;
}

std::string summary_line(const RunReport &r, int64_t particles) {
    const double rate =
        r.seconds > 0 ? double(r.steps_done - r.first_step) * double(particles) / r.seconds : 0;
    char head[160];
    std::snprintf(head, sizeof head, "%s after %lld steps in %.3f s: %.4g particle-steps/s",
                  r.interrupted ? "stopped" : "done", (long long)r.steps_done, r.seconds, rate);
    std::string line = head;
    for (const std::string &item : r.summary)
        line += ", " + item;
    return line + ", " + std::to_string(r.threads) + " CPU threads";
}

} // namespace smelt::apps
