// The cache key: a hash over everything that changes a compiled binary.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace smelt {

struct CacheKeyParts {
    std::string source;           // the complete generated translation unit
    std::string signature;        // canonical specialisation text
    std::string primitive;        // "elementwise", ... or "" for a raw module
    std::string backend;          // "cpu", "opencl", "cuda"
    std::string device;           // device model / architecture
    std::string compiler;         // resolved compiler path (or "nvrtc", "opencl driver ...")
    std::string compiler_version; // first line of `<cxx> --version`, driver version, ...
    std::string flags;            // the full flag string
    std::string engine_version;   // empty: this build's SMELT_VERSION
    // The user headers the source includes, with their content hashes (cache/header_deps.h);
    // empty for units without any, whose keys are then what they were before headers counted.
    std::string dependencies;
};

class CacheKey {
public:
    explicit CacheKey(CacheKeyParts parts);

    const std::string &hex() const { return hex_; } // 32 lowercase hex digits
    const CacheKeyParts &parts() const { return parts_; }
    // The parts as (name, value) pairs for the entry's meta file; the source is represented by
    // its hash and length, since the text itself is kept beside the binary.
    std::vector<std::pair<std::string, std::string>> describe() const;

private:
    CacheKeyParts parts_;
    std::string hex_;
};

} // namespace smelt
