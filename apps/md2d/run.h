// An md2d run from start to end: initial state, the step loop, thermo samples, trajectory frames
// and the progress display, with every output file valid whenever the run stops.
#pragma once

#include "common/stop_signal.h"
#include "md2d/config.h"
#include "smelt.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace smelt::apps::md2d {

struct RunReport {
    int64_t steps_done = 0;
    bool interrupted = false; // stopped early by a StopSignal
    double seconds = 0.0;     // wall time of the step loop (outputs included)
    int64_t neighbor_builds = 0;
    int threads = 0;                // CPU threads used (0 on a GPU)
    std::vector<std::string> files; // the output files written
};

// Runs config.integrator.steps velocity-Verlet steps from the config's initial state.
//   - thermo at step 0 and every thermo_interval steps (console, CSV, H5MD observables);
//   - frames at step 0 and every frame_interval steps (H5MD, VTK);
//   - the last step is always sampled and stored, also when `stop` ends the run early.
// `console` gets the header, thermo lines and the summary (null: silent); the progress display
// goes to stderr when config.output.progress. `stop` is polled after every step (may be null).
// Errors: smelt::Error from the engine (UsageError for an unavailable backend), ConfigError
// (random lattice that cannot be placed), std::runtime_error from the writers.
RunReport run_md2d(const Md2dConfig &config, const smelt::Program &physics, std::FILE *console,
                   const StopSignal *stop = nullptr);

// The resolved configuration, one aspect per line (what `md2d check` prints).
std::string describe(const Md2dConfig &config);

} // namespace smelt::apps::md2d
