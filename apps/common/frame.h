// One output frame as the driver holds its state: structure of arrays, host memory. z and vz stay
// empty in 2D. Writers copy what they need; the spans only have to live for the call.
#pragma once

#include <cstdint>
#include <span>

namespace smelt::apps {

struct Frame {
    int64_t step = 0;
    double time = 0.0;
    std::span<const double> x, y, z;
    std::span<const double> vx, vy, vz;
};

} // namespace smelt::apps
