// A restart point: what a stepper needs to continue a run exactly where it stopped. The stepper
// fills named arrays and scalars (md2d: x, y, vx, vy; an app with a thermostat adds its RNG key
// and thermostat state); the run loop adds who wrote it, the step and the time.
//
// On disk it is one HDF5 file:
//   /checkpoint   @app, @format_version = 1, @step (int64), @time (double), @config_yaml
//     <name>      one dataset per entry: float64, int64 or uint64, shape [values]
// write_checkpoint() writes a temporary file beside the target and renames it over the target,
// so a run killed at any moment leaves the previous checkpoint or the new one, never a torn file.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace smelt::apps {

// A checkpoint that cannot be read or does not fit the run (message names the file and entry).
class CheckpointError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Checkpoint {
public:
    using Values = std::variant<std::vector<double>, std::vector<int64_t>, std::vector<uint64_t>>;

    std::string app;         // the app that wrote it ("md2d"); a restart checks it
    int64_t step = 0;        // the step index of the state
    double time = 0.0;       // the simulated time of the state
    std::string config_yaml; // the configuration text of the run that wrote it (for the record)
    std::string source;      // where it was read from (for messages; empty when built in memory)

    // Adds or replaces an entry. Names are plain identifiers (letters, digits, '_').
    void put(const std::string &name, Values values);
    void put_scalar(const std::string &name, double v) { put(name, std::vector<double>{v}); }
    void put_scalar(const std::string &name, int64_t v) { put(name, std::vector<int64_t>{v}); }
    void put_scalar(const std::string &name, uint64_t v) { put(name, std::vector<uint64_t>{v}); }

    bool has(const std::string &name) const { return entries_.count(name) != 0; }
    // The entry as T (double, int64_t or uint64_t). CheckpointError when it is missing, of
    // another type, or (with `expected_size` >= 0) not of that many values.
    template <class T>
    const std::vector<T> &get(const std::string &name, int64_t expected_size = -1) const;
    template <class T> T scalar(const std::string &name) const { return get<T>(name, 1)[0]; }

    const std::map<std::string, Values> &entries() const { return entries_; }

private:
    [[noreturn]] void fail(const std::string &name, const std::string &message) const;
    std::map<std::string, Values> entries_;
};

// HDF5 file I/O (std::runtime_error when the build has no HDF5). write: errors are
// std::runtime_error naming the path; read: CheckpointError.
void write_checkpoint(const std::string &path, const Checkpoint &checkpoint);
Checkpoint read_checkpoint(const std::string &path);

template <class T>
const std::vector<T> &Checkpoint::get(const std::string &name, int64_t expected_size) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) fail(name, "is missing");
    const auto *v = std::get_if<std::vector<T>>(&it->second);
    if (!v) fail(name, "has another type");
    if (expected_size >= 0 && int64_t(v->size()) != expected_size)
        fail(name, "has " + std::to_string(v->size()) + " values, expected " +
                       std::to_string(expected_size));
    return *v;
}

} // namespace smelt::apps
