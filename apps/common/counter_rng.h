// The counter-based random numbers of apps/common/kernels/rng.py on the host, bit for bit: a
// draw is a pure function of (seed, step, id, stream), so host-side draws (md3d's Bussi factor)
// continue exactly across a restart and never depend on a generator state.
//
//   counter = (id, stream, step mod 2^32, step div 2^32),  key = (seed mod 2^32, seed div 2^32)
//   Philox4x32-10 (Salmon, Moraes, Dror & Shaw, SC'11; Random123), output words 0 and 1
//   uniform = (w + 1/2) 2^-32 with w the high word;  normal = Box-Muller on the two words
//
// The arithmetic matches rng.py's statement by statement (the kernels' and CPython's results).
#pragma once

#include <cmath>
#include <cstdint>

namespace smelt::apps::counter_rng {

// Philox4x32 with 10 rounds; words (0, 1) as word0 << 32 | word1.
inline uint64_t philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                              uint32_t k1) {
    uint32_t x0 = c0, x1 = c1, x2 = c2, x3 = c3;
    for (int round = 0; round < 10; ++round) {
        const uint64_t p0 = uint64_t(x0) * 0xD2511F53u;
        const uint64_t p1 = uint64_t(x2) * 0xCD9E8D57u;
        const uint32_t y0 = uint32_t(p1 >> 32) ^ x1 ^ k0;
        const uint32_t y2 = uint32_t(p0 >> 32) ^ x3 ^ k1;
        x1 = uint32_t(p1);
        x3 = uint32_t(p0);
        x0 = y0;
        x2 = y2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return uint64_t(x0) << 32 | x1;
}

// 64 random bits for (seed, step, particle or draw id, stream).
inline uint64_t random_bits(uint64_t seed, int64_t step, int32_t id, int32_t stream) {
    const auto s = uint64_t(step);
    return philox4x32_10(uint32_t(id), uint32_t(stream), uint32_t(s), uint32_t(s >> 32),
                         uint32_t(seed), uint32_t(seed >> 32));
}

// (w + 1/2) 2^-32: in (0, 1), never 0.
inline double uniform_from_word(uint32_t w) {
    return (double(w) + 0.5) * 2.3283064365386963e-10;
}

inline double uniform(uint64_t seed, int64_t step, int32_t id, int32_t stream) {
    return uniform_from_word(uint32_t(random_bits(seed, step, id, stream) >> 32));
}

inline double normal(uint64_t seed, int64_t step, int32_t id, int32_t stream) {
    const uint64_t bits = random_bits(seed, step, id, stream);
    const double u1 = uniform_from_word(uint32_t(bits >> 32));
    const double u2 = uniform_from_word(uint32_t(bits));
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

} // namespace smelt::apps::counter_rng
