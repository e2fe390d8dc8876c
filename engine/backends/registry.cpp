#include "backends/registry.h"

#include "support/error.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

namespace smelt {

namespace {

std::string available_names() {
    std::string out;
    for (const auto &b : list_backends())
        if (b.available) out += (out.empty() ? "" : ", ") + b.name;
    return out;
}

} // namespace

std::vector<BackendStatus> list_backends() {
    std::vector<BackendStatus> out;
    for (const BackendRow &r : backend_rows())
        out.push_back(r.status());
    return out;
}

size_t device_count(const std::string &spec) {
    const BackendRow *row = find_backend_row(spec);
    if (!row) return 0;
    if (row->device_count) return row->device_count(); // 0 when there are none
    return row->status && row->status().available ? 1 : 0;
}

std::vector<size_t> rank_devices(const std::string &spec) {
    const BackendRow *row = find_backend_row(spec);
    if (row && row->rank_devices) return row->rank_devices();
    std::vector<size_t> all(device_count(spec));
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    return all;
}

Backend &get_backend(const std::string &spec) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<Backend>> backends;
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = backends.find(spec); it != backends.end()) return *it->second;

    // The row named so, or NAME:DEVICE of a row that takes a device.
    std::unique_ptr<Backend> made;
    if (const BackendRow *row = find_backend_row(spec); row && row->make) {
        const std::string prefix = std::string(row->name) + ":";
        if (spec == row->name || (row->alias && spec == row->alias))
            made = row->make(spec, "");
        else if (row->takes_device && spec.rfind(prefix, 0) == 0)
            made = row->make(spec, spec.substr(prefix.size()));
    }
    if (!made) {
        for (const auto &b : list_backends())
            if (b.name == spec || spec.rfind(b.name + ":", 0) == 0)
                throw UsageError("backend '" + spec + "' is not available: " + b.note +
                                 " (available: " + available_names() + ")");
        throw UsageError("unknown backend '" + spec + "' (available: " + available_names() + ")");
    }
    return *backends.emplace(spec, std::move(made)).first->second;
}

Backend &default_backend() {
    const char *env = std::getenv("SMELT_BACKEND");
    return get_backend(env && *env ? env : "cpu");
}

} // namespace smelt
