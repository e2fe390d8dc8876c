// The run loop every app shares: from the initial state (or a checkpoint) to the last step, with
// observable samples (console, CSV, H5MD), trajectory frames (H5MD, VTK), checkpoints, the
// progress display and Ctrl-C, every output file valid whenever the run stops.
//
//   samples   at the first step when it is a multiple of thermo_interval (always at step 0), every
//             thermo_interval steps, and at the last step (also when stopped early);
//   frames    the same with frame_interval;
//   checkpoints (output.checkpoint) every checkpoint_interval steps (> 0) and at the last step.
//
// A restart (RunOptions::restart) restores the stepper from the checkpoint at step S and
// continues the run's files: H5MD, CSV and VTK entries at steps >= S are dropped and the run
// appends from S on, so an interrupted and restarted run leaves the same files as one that ran
// through (bit for bit on a deterministic backend).
//
// Output files are never destroyed by accident: a run holds its output prefix's lock from start
// to end (a second run into the same files is refused), and a fresh run refuses to replace an
// earlier run's files unless RunOptions::overwrite (output_guard.h).
//
// A state that blows up (an observable sample, a frame or a checkpoint that is not finite: dt far
// too large, overlapping particles) stops the run with a SimulationError naming the step and the
// value; every file is closed valid and holds the run up to that step, and no checkpoint of the
// broken state is written.
#pragma once

#include "common/run_config.h"
#include "common/stepper.h"
#include "common/stop_signal.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::apps {

struct RunOptions {
    std::string app = "app"; // the app's name: H5MD creator "smelt <app>", checkpoint tag
    std::string units;       // H5MD /parameters@units ("" = H5mdOptions' default)
    H5mdUnits h5md_units = H5mdUnits::lennard_jones(); // H5MD units module and @unit system
    std::FILE *console = nullptr;     // observable lines (null: silent); progress goes to stderr
    const StopSignal *stop = nullptr; // polled after every step (may be null)
    std::string restart;              // a checkpoint to continue from; "" = from initialize()
    bool overwrite = false;           // replace an earlier run's output files (else refused)
};

// The run stopped on a state that is not finite (run-time failure of the physics, not of I/O).
class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RunReport {
    int64_t first_step = 0;           // where the run started (the checkpoint's step on a restart)
    int64_t steps_done = 0;           // the step index the run ended at
    bool interrupted = false;         // stopped early by the StopSignal
    double seconds = 0.0;             // wall time of the step loop (outputs included)
    int threads = 0;                  // CPU threads used (0 on a GPU)
    std::vector<std::string> files;   // the output files written
    std::vector<std::string> summary; // the stepper's summary items
};

// Runs `stepper` to step `steps` under `config` (threads, outputs). Errors: smelt::Error from the
// engine, CheckpointError (restart: unreadable file, another app's, a step at or past `steps`,
// or a state that does not fit the stepper), OutputError (output held by another run or left by
// an earlier one), SimulationError (a state that is not finite), std::runtime_error from the
// writers.
RunReport run_simulation(const RunConfig &config, Stepper &stepper, int64_t steps,
                         const RunOptions &options);

// "done after 50 steps in 0.123 s: 4.07e+04 particle-steps/s, 3 neighbour builds, 2 CPU threads"
std::string summary_line(const RunReport &report, int64_t particles);

} // namespace smelt::apps
