#include "support/hash.h"

#include <cstring>

namespace smelt {

namespace {

constexpr uint64_t P1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t P2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t P3 = 0x165667B19E3779F9ULL;
constexpr uint64_t P4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t P5 = 0x27D4EB2F165667C5ULL;

inline uint64_t rotl(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}

// Little-endian loads; memcpy keeps unaligned reads defined.
inline uint64_t read64(const unsigned char *p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
inline uint32_t read32(const unsigned char *p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

inline uint64_t round(uint64_t acc, uint64_t input) {
    acc += input * P2;
    acc = rotl(acc, 31);
    return acc * P1;
}

inline uint64_t merge_round(uint64_t acc, uint64_t val) {
    acc ^= round(0, val);
    return acc * P1 + P4;
}

} // namespace

uint64_t xxh64(const void *data, size_t size, uint64_t seed) {
    const auto *p = static_cast<const unsigned char *>(data);
    const unsigned char *end = p + size;
    uint64_t h;
    if (size >= 32) {
        uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
        const unsigned char *limit = end - 32;
        do {
            v1 = round(v1, read64(p));
            v2 = round(v2, read64(p + 8));
            v3 = round(v3, read64(p + 16));
            v4 = round(v4, read64(p + 24));
            p += 32;
        } while (p <= limit);
        h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
        h = merge_round(h, v1);
        h = merge_round(h, v2);
        h = merge_round(h, v3);
        h = merge_round(h, v4);
    } else {
        h = seed + P5;
    }
    h += static_cast<uint64_t>(size);
    while (p + 8 <= end) {
        h ^= round(0, read64(p));
        h = rotl(h, 27) * P1 + P4;
        p += 8;
    }
    if (p + 4 <= end) {
        h ^= static_cast<uint64_t>(read32(p)) * P1;
        h = rotl(h, 23) * P2 + P3;
        p += 4;
    }
    while (p < end) {
        h ^= (*p) * P5;
        h = rotl(h, 11) * P1;
        ++p;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

std::string hash_hex(std::string_view data) {
    // Two independent seeds; the second is the golden-ratio constant.
    const uint64_t words[2] = {xxh64(data.data(), data.size(), 0),
                               xxh64(data.data(), data.size(), 0x9E3779B97F4A7C15ULL)};
    static const char digits[] = "0123456789abcdef";
    std::string out(32, '0');
    for (int w = 0; w < 2; ++w)
        for (int i = 0; i < 16; ++i)
            out[w * 16 + i] = digits[(words[w] >> (60 - 4 * i)) & 0xF];
    return out;
}

Hasher &Hasher::add(std::string_view name, std::string_view value) {
    auto put_len = [this](size_t n) {
        char bytes[8];
        for (int i = 0; i < 8; ++i)
            bytes[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
        buffer_.append(bytes, 8);
    };
    put_len(name.size());
    buffer_.append(name);
    put_len(value.size());
    buffer_.append(value);
    return *this;
}

} // namespace smelt
