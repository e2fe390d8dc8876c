// The parallel spec of a loop-parallel function (smelt::LoopFunction, ParPy's model): how each
// labelled loop runs. Its own header so the engine's planner and the public API share it.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace smelt {

// How the loops carrying one label run (ParPy's LoopPar). 0 means "the default".
struct LoopPar {
    // Work-items for the loop on GPUs (fewer than the iterations: each takes several, grid-
    // stride); for a reduce loop inside a parallel one, the work-group that splits it.
    int64_t threads = 0;
    // The loop's body ends with `acc op= term` (+, *, min, max): iterations are combined in a
    // fixed order (a tree over a fixed geometry on GPUs, thread chunks on the CPU).
    bool reduce = false;
    int64_t tpb = 0; // threads per block (work-group size) on GPUs; default 256
};
// Label → how its loops run.
using ParallelSpec = std::map<std::string, LoopPar>;

} // namespace smelt
