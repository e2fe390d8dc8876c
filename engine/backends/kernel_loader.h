// compile_or_load: the cached path from a translation unit to a loaded Module, for any backend.
//
//   key = hash(source, signature, primitive, backend, toolchain)   (cache/cache_key.h)
//   in-process map hit            → the loaded Module
//   disk hit (binary verified)    → backend.load
//   miss or corrupt entry         → backend.build in a private folder → publish → backend.load
//
// SMELT_DEBUG>=1 prints one line per hit/miss and the compile command with its time.
#pragma once

#include "backends/backend.h"
#include "cache/disk_cache.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace smelt {

// With the notice on (command-line tools turn it on; off by default, so a library stays
// silent), the first build after turning it on, not a cache hit, prints one line on stderr:
// "smelt: compiling kernels for cpu (once: later runs load them from the cache) ...".
void set_compile_notice(bool on);

class KernelLoader {
public:
    KernelLoader(Backend &backend, DiskCache cache);

    // Throws BackendError (failed build: the log and the kept source path; failed load).
    std::shared_ptr<Module> compile_or_load(const ModuleSource &src);
    // Makes sure a verified entry is on disk, building it if needed, without loading it.
    // Returns the binary's path.
    std::filesystem::path ensure_built(const ModuleSource &src);

    CacheKey key_for(const ModuleSource &src) const;
    EntryLayout layout() const;
    const DiskCache &disk_cache() const { return cache_; }

    // Counters for tests and `SMELT_DEBUG` summaries.
    struct Stats {
        size_t memory_hits = 0;
        size_t disk_hits = 0;
        size_t builds = 0;
        size_t corrupt_rebuilt = 0;
    };
    Stats stats() const;

private:
    std::filesystem::path ensure_built_locked(const ModuleSource &src, const CacheKey &key);

    Backend &backend_;
    DiskCache cache_;
    mutable std::mutex mutex_; // held across a build: simple, and builds of one process are rare
    std::unordered_map<std::string, std::shared_ptr<Module>> loaded_;
    Stats stats_;
};

} // namespace smelt
