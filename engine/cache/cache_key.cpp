#include "cache/cache_key.h"

#include "support/hash.h"

namespace smelt {

CacheKey::CacheKey(CacheKeyParts parts) : parts_(std::move(parts)) {
    if (parts_.engine_version.empty()) parts_.engine_version = SMELT_VERSION;
    Hasher h;
    h.add("format", "smelt-cache-key-1")
        .add("source", parts_.source)
        .add("signature", parts_.signature)
        .add("primitive", parts_.primitive)
        .add("backend", parts_.backend)
        .add("device", parts_.device)
        .add("compiler", parts_.compiler)
        .add("compiler_version", parts_.compiler_version)
        .add("flags", parts_.flags)
        .add("engine_version", parts_.engine_version);
    if (!parts_.dependencies.empty()) h.add("dependencies", parts_.dependencies);
    hex_ = h.hex();
}

std::vector<std::pair<std::string, std::string>> CacheKey::describe() const {
    std::vector<std::pair<std::string, std::string>> out = {
        {"source_hash", hash_hex(parts_.source)},
        {"source_bytes", std::to_string(parts_.source.size())},
        {"signature", parts_.signature},
        {"primitive", parts_.primitive},
        {"backend", parts_.backend},
        {"device", parts_.device},
        {"compiler", parts_.compiler},
        {"compiler_version", parts_.compiler_version},
        {"flags", parts_.flags},
        {"engine_version", parts_.engine_version},
    };
    if (!parts_.dependencies.empty()) out.push_back({"dependencies", parts_.dependencies});
    return out;
}

} // namespace smelt
