#include "primitives/profile.h"

#include "backends/backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

namespace smelt {
namespace {

bool environment_asks() {
    const char *v = std::getenv("SMELT_PROFILE");
    return v && *v && std::string(v) != "0";
}

struct Profile {
    std::atomic<bool> on{environment_asks()};
    std::mutex mutex;
    // Keyed by (name, backend) so one function profiled on two backends gives two rows.
    std::map<std::pair<std::string, std::string>, ProfileEntry> entries;

    ~Profile() {
        if (!environment_asks()) return;
        try {
            std::cerr << profile_table();
        } catch (...) {}
    }
};

Profile &state() {
    static Profile p;
    return p;
}

// Only the outermost profiled call of a thread records: a primitive that calls another counts once.
thread_local int open_scopes = 0;

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

bool profiling() {
    return state().on.load(std::memory_order_relaxed);
}

void set_profiling(bool on) {
    state().on.store(on, std::memory_order_relaxed);
}

std::vector<ProfileEntry> profile_entries() {
    Profile &p = state();
    std::vector<ProfileEntry> out;
    {
        std::lock_guard<std::mutex> lock(p.mutex);
        for (const auto &[key, e] : p.entries)
            out.push_back(e);
    }
    std::stable_sort(out.begin(), out.end(), [](const ProfileEntry &a, const ProfileEntry &b) {
        return a.seconds > b.seconds;
    });
    return out;
}

void reset_profile() {
    Profile &p = state();
    std::lock_guard<std::mutex> lock(p.mutex);
    p.entries.clear();
}

std::string profile_table() {
    const std::vector<ProfileEntry> entries = profile_entries();
    double total = 0.0;
    size_t width = 8;
    for (const ProfileEntry &e : entries) {
        total += e.seconds;
        width = std::max(width, e.name.size());
    }
    std::ostringstream out;
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %-7s %9s %11s %11s %7s\n", int(width), "primitive",
                  "backend", "calls", "total ms", "us/call", "share");
    out << "smelt profile (each call waited for; SMELT_PROFILE / smelt::set_profiling)\n" << line;
    for (const ProfileEntry &e : entries) {
        std::snprintf(line, sizeof line, "%-*s %-7s %9lld %11.3f %11.2f %6.1f%%\n", int(width),
                      e.name.c_str(), e.backend.c_str(), static_cast<long long>(e.calls),
                      e.seconds * 1e3, e.calls ? e.seconds * 1e6 / double(e.calls) : 0.0,
                      total > 0 ? 100.0 * e.seconds / total : 0.0);
        out << line;
    }
    std::snprintf(line, sizeof line, "%-*s %-7s %9s %11.3f\n", int(width), "total", "", "",
                  total * 1e3);
    out << line;
    return out.str();
}

namespace profile {

Scope::Scope(Backend &backend, const char *primitive, const std::string &function,
             const std::string &detail) {
    if (!profiling()) return;
    counted_ = true;
    if (open_scopes++ > 0) return;
    try {
        backend.synchronize(); // earlier asynchronous work is not this call's
    } catch (...) {
        --open_scopes;
        counted_ = false;
        throw;
    }
    backend_ = &backend;
    name_ = std::string(primitive) + "(" + function + (detail.empty() ? "" : " of " + detail) + ")";
    start_ns_ = now_ns();
}

Scope::~Scope() {
    if (counted_) --open_scopes;
    if (!backend_) return;
    try {
        backend_->synchronize();
    } catch (...) {
        return; // the call itself failed; its error is the one that matters
    }
    const double seconds = double(now_ns() - start_ns_) * 1e-9;
    Profile &p = state();
    std::lock_guard<std::mutex> lock(p.mutex);
    ProfileEntry &e = p.entries[{name_, backend_->name()}];
    if (e.calls == 0) {
        e.name = name_;
        e.backend = backend_->name();
    }
    ++e.calls;
    e.seconds += seconds;
}

} // namespace profile
} // namespace smelt
