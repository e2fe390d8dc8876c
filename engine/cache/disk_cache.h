// The on-disk kernel cache. Layout:
//
//   <root>/CACHEDIR.TAG
//   <root>/<backend>/<key>/{kernel<src ext>, kernel<bin ext>, meta.txt}   published entries
//   <root>/<backend>/.tmp-<key>-<pid>-<n>/                               builds in progress
//   <root>/<backend>/failed-<key>/{kernel<src ext>, build.log}           last failed build
//
// An entry is built in a private .tmp folder and published by rename(2) of the whole folder,
// so readers never see a partial entry and concurrent builders of one key are safe (the first
// rename wins; later ones find the entry there and drop their own). meta.txt records the key
// parts and the binary's size and hash; an entry whose binary does not match is reported as
// corrupt and replaced by the next build, never loaded.
#pragma once

#include "cache/cache_key.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace smelt {

// File names of one backend's entries.
struct EntryLayout {
    std::string backend;    // sub-folder: "cpu"
    std::string source_ext; // ".cpp"
    std::string binary_ext; // ".so"
};

struct EntryFiles {
    std::filesystem::path dir, source, binary;
};

class DiskCache {
public:
    // SMELT_CACHE_DIR, else $XDG_CACHE_HOME/smelt, else ~/.cache/smelt.
    static std::filesystem::path default_root();

    explicit DiskCache(std::filesystem::path root = default_root());
    const std::filesystem::path &root() const { return root_; }

    enum class Status { Hit, Miss, Corrupt };
    struct Lookup {
        Status status = Status::Miss;
        EntryFiles files;   // the entry's paths (valid to use only on a Hit)
        std::string reason; // why an entry was judged corrupt
    };
    Lookup lookup(const EntryLayout &layout, const CacheKey &key) const;

    // Creates a private build folder holding the source; build the binary at .binary.
    EntryFiles stage(const EntryLayout &layout, const CacheKey &key, const std::string &source);
    // Writes meta.txt for the built binary and publishes the folder as the key's entry (or
    // adopts an identical-key entry another process published first). Returns the entry.
    EntryFiles publish(const EntryLayout &layout, const CacheKey &key, const EntryFiles &staged);
    // Keeps a failed build's source and log as failed-<key>; returns the kept source path.
    std::filesystem::path keep_failed(const EntryLayout &layout, const CacheKey &key,
                                      const EntryFiles &staged, const std::string &log);

    struct Info {
        std::filesystem::path root;
        size_t entries = 0;
        size_t failed = 0;
        size_t temporary = 0;
        uintmax_t bytes = 0;
        std::map<std::string, size_t> entries_per_backend;
    };
    Info info() const;
    // Removes entries, failed builds and stale temporaries (only names this cache creates,
    // so a mistaken SMELT_CACHE_DIR cannot lose unrelated files). Returns entries removed.
    size_t clear();

private:
    std::filesystem::path entry_dir(const EntryLayout &layout, const CacheKey &key) const;
    void ensure_root() const;

    std::filesystem::path root_;
};

} // namespace smelt
