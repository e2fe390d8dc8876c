// Per-primitive profiling: where the time of a program goes, call by call.
//
// With profiling on (set_profiling(true), or SMELT_PROFILE=1 in the environment), every call of
// an Elementwise, Reduction, Scan or Kernel, and every sort_by_key / argsort, waits for its
// backend's queued work before it starts and after it ends, and adds its wall time to an entry
// named after the primitive and its function: "Elementwise(lj_force)", "Reduction(max(a, b)
// over displacement2_map)", "sort_by_key(int32)". The waits make the times those of the calls
// themselves (a GPU launch is otherwise asynchronous) and slow the program a little: profile to
// see where time goes, not to measure throughput. A call made inside another profiled call
// (an array function built on a primitive) counts in its caller's entry only. The first call of
// a specialisation includes its compile or its disk-cache load.
//
// SMELT_PROFILE=1 also prints profile_table() to stderr when the process exits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace smelt {

class Backend;

struct ProfileEntry {
    std::string name;    // "Elementwise(lj_force)"
    std::string backend; // "cpu", "opencl", "cuda"
    int64_t calls = 0;
    double seconds = 0.0; // total wall time of those calls
};

bool profiling();
void set_profiling(bool on);
// The entries recorded since the start or the last reset, slowest first.
std::vector<ProfileEntry> profile_entries();
void reset_profile();
// The entries as a table: name, backend, calls, total ms, µs per call, share of the total.
std::string profile_table();

namespace profile {

// Times one primitive call when profiling is on; does nothing (one flag read) when it is off.
class Scope {
public:
    // Named "primitive(function)", or "primitive(function of detail)" when detail is given.
    Scope(Backend &backend, const char *primitive, const std::string &function,
          const std::string &detail = {});
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

private:
    bool counted_ = false;       // profiling was on: this scope is in open_scopes
    Backend *backend_ = nullptr; // null: not timing this call (off, or nested)
    std::string name_;
    int64_t start_ns_ = 0;
};

} // namespace profile
} // namespace smelt
