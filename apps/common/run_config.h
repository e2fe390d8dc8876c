// The run-config section every app shares: where the kernels run (`backend`, `precision`,
// `threads`) and what a run writes (`output:`). An app's config type derives from RunConfig and
// adds its own sections; parse_run_config() reads the shared keys of the root mapping:
//
//   backend: cpu            # cpu | opencl | cuda
//   precision: double       # double | single | mixed (apps with a mixed force loop: md3d)
//   threads: 0              # CPU threads, 0 = all
//   output:
//     directory: out/md2d   # prefix: md2d, frame_interval: 100, thermo_interval: 100,
//     h5md: true            # vtk: false, xdmf: false, csv: true, progress: true,
//     checkpoint: true      # checkpoint_interval: 0 (0 = only at the end of the run)
#pragma once

#include "common/config_yaml.h"
#include "smelt.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace smelt::apps {

// Mixed: float64 state, outputs and sums with float32 pair arithmetic in the force loop (an
// app that has such a loop says so in RunDefaults::mixed_precision); the engine compiles its
// program in double (engine_options).
enum class Precision { Single, Double, Mixed };

struct OutputConfig {
    std::string directory = "out/app"; // relative to the working directory
    std::string prefix = "app";        // file names: <prefix>.h5, <prefix>_thermo.csv, ...
    int64_t frame_interval = 100;      // steps between trajectory frames (H5MD, VTK)
    int64_t thermo_interval = 100;     // steps between observable samples (console, CSV, H5MD)
    bool h5md = true;
    bool vtk = false;
    bool xdmf = false; // <prefix>.xdmf: an XDMF view of the H5MD file (ParaView, VisIt)
    bool csv = true;
    bool progress = true;
    // A restart file <prefix>_checkpoint.h5 at the end of every run (done or stopped), and with
    // checkpoint_interval N > 0 also every N steps. On by default when built with HDF5.
    bool checkpoint = true;
    int64_t checkpoint_interval = 0;
};

struct RunConfig {
    // An engine backend family: a family of the engine's backend table (smelt::backend_families(),
    // engine/support/backend_table.h), so a backend added there is a choice here too.
    std::string backend = "cpu";
    Precision precision = Precision::Double;
    int threads = 0; // CPU threads; 0 = all
    OutputConfig output;
    ConfigSource source; // the file name, its text and command-line overrides (stored with results)
};

// An app's defaults for the output section.
struct RunDefaults {
    std::string directory; // "out/md2d"
    std::string prefix;    // "md2d"
    // Keys of the app's own in `output:` (md3d: "force"), which the app reads itself;
    // parse_run_config() only lets them through.
    std::vector<std::string> app_output_keys = {};
    // Whether the app accepts `precision: mixed` (md3d); the others reject it with a located
    // ConfigError.
    bool mixed_precision = false;
};

// The shared top-level keys, in the order an app's expect_keys lists them: backend, precision,
// threads, then the app's own sections, then output.
std::vector<std::string_view>
with_run_config_keys(std::initializer_list<std::string_view> app_keys);

// Reads backend, precision, threads and the output section of `root` (all optional).
// ConfigError for a bad value, an unknown output key, or a format this build cannot write.
RunConfig parse_run_config(const ConfigNode &root, const RunDefaults &defaults);

const char *to_string(Precision p);

// The engine options of a run: backend (the family, or on an MPI job the rank's device of it)
// and precision (mixed compiles in double: its kernels name their float32 parts).
smelt::Options engine_options(const RunConfig &config);
// The backend primitives made with `o` run on: o.backend, else the default one.
smelt::Backend &backend_of(const smelt::Options &o);
// `cpu_form` on the CPU backend, `gpu_form` on the others: the apps' kernels that come in a form
// the CPU vectorises and a one-item-per-thread form for GPUs, both giving the same bits.
const char *kernel_form(const smelt::Options &o, const char *cpu_form, const char *gpu_form);
// Sets the CPU backend's thread count from config.threads (0 leaves the default: all cores, or
// SMELT_NUM_THREADS / OMP_NUM_THREADS). Returns the count the CPU backend uses; 0 for GPUs.
int configure_threads(const RunConfig &config);

// Output file paths of a run.
std::string h5md_path(const OutputConfig &o);       // <directory>/<prefix>.h5
std::string csv_path(const OutputConfig &o);        // <directory>/<prefix>_thermo.csv
std::string checkpoint_path(const OutputConfig &o); // <directory>/<prefix>_checkpoint.h5

// The "engine" and "output" lines of an app's describe() (each ends with a newline).
std::string describe_run(const RunConfig &config);

} // namespace smelt::apps
