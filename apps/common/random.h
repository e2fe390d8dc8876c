// Random numbers that are the same on every standard library: std::mt19937_64's output is fixed
// by the C++ standard, but std::uniform_real_distribution and std::normal_distribution are not,
// so the transforms are written here.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace smelt::apps {

// Uniform in [0, 1) from the top 53 bits of one 64-bit draw.
inline double uniform01(std::mt19937_64 &rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Standard normal by Box-Muller (one value per two uniforms; simple and reproducible).
inline double standard_normal(std::mt19937_64 &rng) {
    double u1 = 1.0 - uniform01(rng); // (0, 1]: log(u1) is finite
    double u2 = uniform01(rng);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

} // namespace smelt::apps
