// A stable content hash for cache keys and binary checksums: XXH64 (the published algorithm,
// written out here so the result never depends on a library version) run with two seeds,
// giving 128 bits as 32 lowercase hex digits. Not cryptographic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace smelt {

uint64_t xxh64(const void *data, size_t size, uint64_t seed);

// 128-bit hash of `data` as 32 hex digits.
std::string hash_hex(std::string_view data);

// Builds a hash over a sequence of named fields. Each field is written as name, length and
// bytes, so ("ab","c") and ("a","bc") never collide by concatenation.
class Hasher {
public:
    Hasher &add(std::string_view name, std::string_view value);
    std::string hex() const { return hash_hex(buffer_); }

private:
    std::string buffer_;
};

} // namespace smelt
