#include "cache/disk_cache.h"

#include "support/error.h"
#include "support/hash.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace smelt {

namespace fs = std::filesystem;

namespace {

constexpr const char *kMetaName = "meta.txt";
constexpr const char *kMetaHeader = "smelt-cache-entry 1";

std::optional<std::string> read_file(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return ss.str();
}

void write_file(const fs::path &p, const std::string &data) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out)
        throw BackendError("cannot write cache file " + p.string() + ": " + std::strerror(errno),
                           "", "");
}

// Meta values are single-line; escape the rare newline or backslash in a key part.
std::string escape(const std::string &s) {
    std::string out;
    for (char c : s) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::map<std::string, std::string> parse_meta(const std::string &text) {
    std::map<std::string, std::string> fields;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        auto sp = line.find(' ');
        if (sp == std::string::npos) continue;
        fields[line.substr(0, sp)] = line.substr(sp + 1);
    }
    return fields;
}

// "" when the entry in `dir` is complete and its binary matches meta.txt, else why not.
std::string validate(const fs::path &dir, const EntryFiles &files, const CacheKey &key) {
    auto meta = read_file(dir / kMetaName);
    if (!meta) return "meta.txt missing";
    if (meta->rfind(kMetaHeader, 0) != 0) return "meta.txt has an unknown format";
    auto fields = parse_meta(*meta);
    if (fields["key"] != key.hex()) return "meta.txt names another key";
    auto binary = read_file(files.binary);
    if (!binary) return "binary missing";
    if (fields["binary_bytes"] != std::to_string(binary->size()))
        return "binary size " + std::to_string(binary->size()) + " != recorded " +
               fields["binary_bytes"];
    if (fields["binary_hash"] != hash_hex(*binary)) return "binary checksum mismatch";
    return "";
}

EntryFiles files_in(const fs::path &dir, const EntryLayout &layout) {
    return {dir, dir / ("kernel" + layout.source_ext), dir / ("kernel" + layout.binary_ext)};
}

bool is_key_name(const std::string &name) {
    if (name.size() != 32) return false;
    for (char c : name)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

bool starts_with(const std::string &s, const char *prefix) {
    return s.rfind(prefix, 0) == 0;
}

// A unique sibling name for moving something out of the way before deleting it.
fs::path unique_name(const fs::path &dir, const std::string &prefix) {
    static std::atomic<unsigned> counter{0};
    return dir / (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
}

// Moves `p` aside and deletes it. Renaming first means a concurrent reader either sees the old
// complete folder or nothing, never a half-deleted one.
void remove_entry(const fs::path &p) {
    fs::path trash = unique_name(p.parent_path(), ".trash");
    std::error_code ec;
    fs::rename(p, trash, ec);
    if (!ec) fs::remove_all(trash, ec);
}

} // namespace

fs::path DiskCache::default_root() {
    if (const char *dir = std::getenv("SMELT_CACHE_DIR"); dir && *dir) return fs::path(dir);
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg && xdg[0] == '/')
        return fs::path(xdg) / "smelt";
    if (const char *home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "smelt";
    return fs::temp_directory_path() / ("smelt-cache-" + std::to_string(::getuid()));
}

DiskCache::DiskCache(fs::path root) : root_(std::move(root)) {}

void DiskCache::ensure_root() const {
    std::error_code ec;
    fs::create_directories(root_, ec);
    if (ec)
        throw BackendError("cannot create the kernel cache folder " + root_.string() + ": " +
                               ec.message() + " (set SMELT_CACHE_DIR to a writable folder)",
                           "", "");
    fs::path tag = root_ / "CACHEDIR.TAG";
    if (!fs::exists(tag, ec)) {
        // Standard marker (bford.info/cachedir) so backup tools skip the folder.
        std::ofstream(tag)
            << "Signature: 8a477f597d28d172789f06886806bc55\n"
            << "# This folder is Smelt's kernel cache; `smelt cache clear` empties it.\n";
    }
}

fs::path DiskCache::entry_dir(const EntryLayout &layout, const CacheKey &key) const {
    return root_ / layout.backend / key.hex();
}

DiskCache::Lookup DiskCache::lookup(const EntryLayout &layout, const CacheKey &key) const {
    Lookup result;
    fs::path dir = entry_dir(layout, key);
    result.files = files_in(dir, layout);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return result;
    result.reason = validate(dir, result.files, key);
    result.status = result.reason.empty() ? Status::Hit : Status::Corrupt;
    return result;
}

EntryFiles DiskCache::stage(const EntryLayout &layout, const CacheKey &key,
                            const std::string &source) {
    ensure_root();
    fs::path backend_dir = root_ / layout.backend;
    std::error_code ec;
    fs::create_directories(backend_dir, ec);
    for (int attempt = 0; attempt < 100; ++attempt) {
        fs::path dir = unique_name(backend_dir, ".tmp-" + key.hex());
        if (fs::create_directory(dir, ec)) {
            EntryFiles files = files_in(dir, layout);
            write_file(files.source, source);
            return files;
        }
    }
    throw BackendError("cannot create a build folder in " + backend_dir.string() + ": " +
                           ec.message() +
                           " (remove what is in the way, set SMELT_CACHE_DIR to a writable "
                           "folder, or run `smelt cache clear`)",
                       "", "");
}

EntryFiles DiskCache::publish(const EntryLayout &layout, const CacheKey &key,
                              const EntryFiles &staged) {
    auto binary = read_file(staged.binary);
    if (!binary)
        throw BackendError("the build produced no binary at " + staged.binary.string(), "",
                           staged.source.string());
    std::string meta = std::string(kMetaHeader) + "\n";
    meta += "key " + key.hex() + "\n";
    meta += "binary_bytes " + std::to_string(binary->size()) + "\n";
    meta += "binary_hash " + hash_hex(*binary) + "\n";
    for (const auto &[name, value] : key.describe())
        meta += name + " " + escape(value) + "\n";
    write_file(staged.dir / kMetaName, meta);

    fs::path dir = entry_dir(layout, key);
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (::rename(staged.dir.c_str(), dir.c_str()) == 0) return files_in(dir, layout);
        int err = errno;
        if (err == ENOTDIR) {
            // Something that is not a folder (a stray file) sits where the entry belongs: it is
            // not an entry, so it goes, as a corrupt entry would.
            remove_entry(dir);
            continue;
        }
        if (err != EEXIST && err != ENOTEMPTY) {
            std::error_code ec;
            fs::remove_all(staged.dir, ec); // never leave a build folder behind
            throw BackendError("cannot publish cache entry " + dir.string() + ": " +
                                   std::strerror(err) +
                                   " (set SMELT_CACHE_DIR to a writable folder, or run "
                                   "`smelt cache clear`)",
                               "", "");
        }
        // Someone else published this key first: use theirs if it is sound, else replace it.
        EntryFiles theirs = files_in(dir, layout);
        if (validate(dir, theirs, key).empty()) {
            std::error_code ec;
            fs::remove_all(staged.dir, ec);
            return theirs;
        }
        remove_entry(dir);
    }
    std::error_code ec;
    fs::remove_all(staged.dir, ec);
    throw BackendError("cannot publish cache entry " + dir.string() +
                           ": it keeps being replaced by another process",
                       "", "");
}

fs::path DiskCache::keep_failed(const EntryLayout &layout, const CacheKey &key,
                                const EntryFiles &staged, const std::string &log) {
    std::error_code ec;
    write_file(staged.dir / "build.log", log);
    fs::path kept = root_ / layout.backend / ("failed-" + key.hex());
    if (fs::exists(kept, ec)) remove_entry(kept);
    if (::rename(staged.dir.c_str(), kept.c_str()) != 0) return staged.source; // keep in place
    return files_in(kept, layout).source;
}

DiskCache::Info DiskCache::info() const {
    Info info;
    info.root = root_;
    std::error_code ec;
    if (!fs::is_directory(root_, ec)) return info;
    for (const auto &backend : fs::directory_iterator(root_, ec)) {
        if (!backend.is_directory(ec)) continue;
        for (const auto &child : fs::directory_iterator(backend.path(), ec)) {
            std::string name = child.path().filename().string();
            if (is_key_name(name)) {
                ++info.entries;
                ++info.entries_per_backend[backend.path().filename().string()];
            } else if (starts_with(name, "failed-")) {
                ++info.failed;
            } else if (starts_with(name, ".tmp-") || starts_with(name, ".trash-")) {
                ++info.temporary;
            }
        }
    }
    for (const auto &f : fs::recursive_directory_iterator(root_, ec))
        if (f.is_regular_file(ec)) info.bytes += f.file_size(ec);
    return info;
}

size_t DiskCache::clear() {
    size_t removed = 0;
    std::error_code ec;
    if (!fs::is_directory(root_, ec)) return 0;
    const auto now = fs::file_time_type::clock::now();
    for (const auto &backend : fs::directory_iterator(root_, ec)) {
        if (!backend.is_directory(ec)) continue;
        // List first: removing renames entries inside the folder being listed.
        std::vector<fs::path> children;
        for (const auto &child : fs::directory_iterator(backend.path(), ec))
            children.push_back(child.path());
        for (const auto &child : children) {
            std::string name = child.filename().string();
            if (is_key_name(name)) {
                remove_entry(child);
                ++removed;
            } else if (starts_with(name, "failed-") || starts_with(name, ".trash-")) {
                fs::remove_all(child, ec);
            } else if (starts_with(name, ".tmp-")) {
                // A build may be running in it right now; only clear leftovers of dead ones.
                auto age = now - fs::last_write_time(child, ec);
                if (!ec && age > std::chrono::hours(1)) fs::remove_all(child, ec);
            }
        }
        fs::remove(backend.path(), ec); // only succeeds when empty
    }
    return removed;
}

} // namespace smelt
