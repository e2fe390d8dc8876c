#include "common/run_config.h"
#include "common/domain/device_choice.h"

#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"
#include "support/backend_table.h"

#include <filesystem>
#include <unistd.h>

namespace smelt::apps {

namespace {

std::string every(int64_t k) {
    return k == 1 ? "every step" : "every " + std::to_string(k) + " steps";
}

// The output directory must be one a run can create and write: checked with the config, so a
// run does not fail after its setup (or `check` pass a config that cannot run).
void check_output_directory(const ConfigNode &o, const std::string &directory) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path dir(directory);
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        o.fail_at("directory", "'" + directory + "' is a file, not a directory");
    // The nearest part of the path that exists must be a directory this process can write.
    fs::path existing = dir;
    while (!existing.empty() && !fs::exists(existing, ec))
        existing = existing.parent_path();
    if (existing.empty()) existing = ".";
    if (!fs::is_directory(existing, ec))
        o.fail_at("directory", "cannot create '" + directory + "': '" + existing.string() +
                                   "' is a file, not a directory");
    if (::access(existing.c_str(), W_OK | X_OK) != 0)
        o.fail_at("directory", "cannot write in '" + existing.string() +
                                   "' (permission denied); choose another output.directory");
}

OutputConfig parse_output(const ConfigNode &o, const RunDefaults &defaults) {
    std::vector<std::string_view> keys{
        "directory", "prefix",   "frame_interval", "thermo_interval",     "h5md", "vtk",
        "csv",       "progress", "checkpoint",     "checkpoint_interval", "xdmf"};
    keys.insert(keys.end(), defaults.app_output_keys.begin(), defaults.app_output_keys.end());
    o.expect_keys(keys);
    OutputConfig out;
    out.directory = optional<std::string>(o, "directory", defaults.directory);
    if (out.directory.empty()) o.fail_at("directory", "must not be empty");
    check_output_directory(o, out.directory);
    out.prefix = optional<std::string>(o, "prefix", defaults.prefix);
    if (out.prefix.empty() || out.prefix.find('/') != std::string::npos)
        o.fail_at("prefix", "must be a file name without '/'");
    out.frame_interval = optional<int64_t>(o, "frame_interval", 100, Range<int64_t>::at_least(1));
    out.thermo_interval = optional<int64_t>(o, "thermo_interval", 100, Range<int64_t>::at_least(1));
    // Formats this build cannot write are errors when asked for, and off by default.
    out.h5md = optional<bool>(o, "h5md", SMELT_APPS_HAVE_HDF5 != 0);
    if (out.h5md && !SMELT_APPS_HAVE_HDF5)
        o.fail_at("h5md", "this build has no HDF5 (SMELT_WITH_HDF5=OFF or HDF5 not found)");
    out.vtk = optional<bool>(o, "vtk", false);
    if (out.vtk && !SMELT_APPS_HAVE_VTK)
        o.fail_at("vtk", "this build has no VTK (SMELT_WITH_VTK=OFF or VTK not found)");
    out.xdmf = optional<bool>(o, "xdmf", false);
    if (out.xdmf && !out.h5md) o.fail_at("xdmf", "is a view of the H5MD file: needs output.h5md");
    out.csv = optional<bool>(o, "csv", true);
    out.progress = optional<bool>(o, "progress", true);
    out.checkpoint = optional<bool>(o, "checkpoint", SMELT_APPS_HAVE_HDF5 != 0);
    if (out.checkpoint && !SMELT_APPS_HAVE_HDF5)
        o.fail_at("checkpoint", "checkpoints are HDF5 files and this build has no HDF5");
    out.checkpoint_interval =
        optional<int64_t>(o, "checkpoint_interval", 0, Range<int64_t>::non_negative());
    if (out.checkpoint_interval > 0 && !out.checkpoint)
        o.fail_at("checkpoint_interval", "needs output.checkpoint: true");
    return out;
}

} // namespace

std::vector<std::string_view>
with_run_config_keys(std::initializer_list<std::string_view> app_keys) {
    std::vector<std::string_view> keys{"backend", "precision", "threads"};
    keys.insert(keys.end(), app_keys.begin(), app_keys.end());
    keys.push_back("output");
    return keys;
}

RunConfig parse_run_config(const ConfigNode &root, const RunDefaults &defaults) {
    RunConfig c;
    c.source = root.source();
    c.backend = optional_choice(root, "backend", "cpu", smelt::backend_families());
    const std::string precision =
        optional_choice(root, "precision", "double", {"double", "single", "mixed"});
    if (precision == "mixed" && !defaults.mixed_precision)
        root.fail_at("precision", "mixed precision is md3d's only (this app's force loop has no "
                                  "mixed form): use double or single");
    c.precision = precision == "single"  ? Precision::Single
                  : precision == "mixed" ? Precision::Mixed
                                         : Precision::Double;
    c.threads = optional<int>(root, "threads", 0, Range<int>::between(0, 4096));
    c.output = parse_output(root.optional_section("output"), defaults);
    return c;
}

const char *to_string(Precision p) {
    return p == Precision::Single ? "single" : p == Precision::Mixed ? "mixed" : "double";
}

smelt::Options engine_options(const RunConfig &config) {
    smelt::Options o;
    // One device per rank of an MPI job (device_choice.h); the backend as named otherwise.
    o.backend = mpi::backend_for_rank(config.backend);
    o.precision =
        config.precision == Precision::Single ? smelt::Precision::Single : smelt::Precision::Double;
    return o;
}

smelt::Backend &backend_of(const smelt::Options &o) {
    return o.backend.empty() ? smelt::default_backend() : smelt::get_backend(o.backend);
}

const char *kernel_form(const smelt::Options &o, const char *cpu_form, const char *gpu_form) {
    return backend_of(o).name() == "cpu" ? cpu_form : gpu_form;
}

int configure_threads(const RunConfig &config) {
    if (config.backend != "cpu") return 0;
    auto *cpu = dynamic_cast<smelt::cpu::CpuBackend *>(&smelt::get_backend("cpu"));
    if (!cpu) return 0;
    if (config.threads > 0) cpu->set_num_threads(config.threads);
    return cpu->num_threads();
}

namespace {

std::string in_directory(const OutputConfig &o, const std::string &name) {
    return (std::filesystem::path(o.directory) / name).string();
}

} // namespace

std::string h5md_path(const OutputConfig &o) {
    return in_directory(o, o.prefix + ".h5");
}

std::string csv_path(const OutputConfig &o) {
    return in_directory(o, o.prefix + "_thermo.csv");
}

std::string checkpoint_path(const OutputConfig &o) {
    return in_directory(o, o.prefix + "_checkpoint.h5");
}

std::string describe_run(const RunConfig &c) {
    std::string s = "engine       " + c.backend + ", " + to_string(c.precision) +
                    " precision, threads " +
                    (c.threads ? std::to_string(c.threads) : std::string("all")) + "\n";
    const OutputConfig &o = c.output;
    s += "output       " + o.directory + "/: ";
    std::string files;
    auto add = [&](const std::string &f) { files += (files.empty() ? "" : ", ") + f; };
    if (o.h5md) add(o.prefix + ".h5 (frames " + every(o.frame_interval) + ")");
    if (o.xdmf) add(o.prefix + ".xdmf");
    if (o.vtk) add(o.prefix + "_*.vtp + " + o.prefix + ".pvd + " + o.prefix + "_box.vtp");
    if (o.csv) add(o.prefix + "_thermo.csv");
    if (o.checkpoint)
        add(o.prefix + "_checkpoint.h5 (" +
            (o.checkpoint_interval > 0 ? every(o.checkpoint_interval) + " and at the end"
                                       : std::string("at the end")) +
            ")");
    s += (files.empty() ? "console only" : files) + "; thermo " + every(o.thermo_interval) + "\n";
    return s;
}

} // namespace smelt::apps
