#include "backends/kernel_loader.h"

#include "cache/header_deps.h"

#include "support/debug.h"
#include "support/error.h"

#include <atomic>
#include <cstdio>
#include <sstream>

namespace smelt {

namespace {

std::string describe(const ModuleSource &src, const CacheKey &key) {
    std::string what = src.primitive.empty() ? "module" : src.primitive;
    if (!src.signature.empty()) what += " [" + src.signature + "]";
    return what + " key " + key.hex().substr(0, 12);
}

std::atomic<bool> compile_notice{false};
std::atomic<bool> compile_notice_printed{false};

// A compile takes seconds, a cache hit milliseconds: say once why the tool is silent.
void notice_build(const std::string &backend) {
    if (compile_notice.load() && !compile_notice_printed.exchange(true)) {
        std::fprintf(stderr,
                     "smelt: compiling kernels for %s (once: later runs load them from the "
                     "cache) ...\n",
                     backend.c_str());
        std::fflush(stderr);
    }
}

// For a build that failed while a user header (an external function's) was not found on the
// include path: where such headers are looked for.
std::string missing_header_hint(const std::string &dependencies) {
    std::istringstream lines(dependencies);
    std::string line, missing;
    const std::string tail = " not found";
    while (std::getline(lines, line))
        if (line.size() > tail.size() &&
            line.compare(line.size() - tail.size(), tail.size(), tail) == 0)
            missing += (missing.empty() ? "" : ", ") + line.substr(0, line.size() - tail.size());
    if (missing.empty()) return "";
    return "; not found on the include path (Options::includes, includes= in Python): " + missing;
}

} // namespace

void set_compile_notice(bool on) {
    compile_notice.store(on);
    compile_notice_printed.store(false);
}

KernelLoader::KernelLoader(Backend &backend, DiskCache cache)
    : backend_(backend), cache_(std::move(cache)) {}

EntryLayout KernelLoader::layout() const {
    return {backend_.name(), backend_.source_extension(), backend_.binary_extension()};
}

CacheKey KernelLoader::key_for(const ModuleSource &src) const {
    ToolchainKey tc = backend_.toolchain_key(src);
    CacheKeyParts parts;
    parts.source = src.source;
    parts.signature = src.signature;
    parts.primitive = src.primitive;
    parts.backend = backend_.name();
    parts.device = tc.device;
    parts.compiler = tc.compiler;
    parts.compiler_version = tc.compiler_version;
    parts.flags = tc.flags;
    parts.dependencies = header_dependencies(src.source, src.include_dirs);
    return CacheKey(std::move(parts));
}

std::shared_ptr<Module> KernelLoader::compile_or_load(const ModuleSource &src) {
    CacheKey key = key_for(src);
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = loaded_.find(key.hex()); it != loaded_.end()) {
        ++stats_.memory_hits;
        return it->second;
    }
    std::filesystem::path binary = ensure_built_locked(src, key);
    std::shared_ptr<Module> module = backend_.load(binary);
    for (const auto &sym : src.symbols)
        if (!module->has_function(sym))
            throw BackendError("compiled " + describe(src, key) + " lacks the entry point '" + sym +
                                   "'",
                               "", binary.parent_path().string());
    loaded_.emplace(key.hex(), module);
    return module;
}

std::filesystem::path KernelLoader::ensure_built(const ModuleSource &src) {
    CacheKey key = key_for(src);
    std::lock_guard<std::mutex> lock(mutex_);
    return ensure_built_locked(src, key);
}

std::filesystem::path KernelLoader::ensure_built_locked(const ModuleSource &src,
                                                        const CacheKey &key) {
    const EntryLayout lay = layout();
    DiskCache::Lookup found = cache_.lookup(lay, key);
    if (found.status == DiskCache::Status::Hit) {
        ++stats_.disk_hits;
        debug::log(1, "cache hit: " + describe(src, key) + " (" + found.files.dir.string() + ")");
        return found.files.binary;
    }
    if (found.status == DiskCache::Status::Corrupt) {
        ++stats_.corrupt_rebuilt;
        debug::log(1,
                   "cache entry corrupt (" + found.reason + "), rebuilding: " + describe(src, key));
    } else {
        debug::log(1, "cache miss: " + describe(src, key));
    }
    notice_build(backend_.name());
    EntryFiles staged = cache_.stage(lay, key, src.source);
    BuildResult built = backend_.build(staged.source, staged.binary, src);
    ++stats_.builds;
    if (!built.ok) {
        std::filesystem::path kept =
            cache_.keep_failed(lay, key, staged, built.command + "\n" + built.log);
        throw BackendError(backend_.name() + " build of " + describe(src, key) + " failed (in " +
                               kept.parent_path().string() + ": " + built.command + ")" +
                               missing_header_hint(key.parts().dependencies),
                           built.log, kept.string());
    }
    return cache_.publish(lay, key, staged).binary;
}

KernelLoader::Stats KernelLoader::stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
}

} // namespace smelt
