// NVRTC: CUDA C++ source → CUBIN (or PTX) in memory, without nvcc and without a GPU.
//
// The generated source carries #line directives naming the user's .py file; NVRTC honours them
// and reports "axpb.py(12): error: ...", which map_log() rewrites into the engine's usual
// "axpb.py:12: error: ..." form.
#pragma once

#include <string>
#include <vector>

namespace smelt::cuda {

struct NvrtcOutput {
    bool ok = false;
    std::string log;     // NVRTC's log after map_log()
    std::string binary;  // CUBIN (or PTX text) when ok
    std::string command; // "nvrtc <options> <name>", for messages and SMELT_DEBUG
    double seconds = 0;
};

// "13.0": nvrtcVersion(), part of every cache key.
std::string nvrtc_version();

// The options smelt compiles with: -std=c++17, IEEE-conforming float math without FMA
// contraction (--fmad=false: one rounding per operation, as in CPython), the architecture, then
// `extra`. With `fast_math`, --use_fast_math instead (contraction, approximate division and
// transcendentals, denormals flushed). `arch` is "sm_90" (CUBIN) or "compute_90" (PTX).
std::vector<std::string> nvrtc_options(const std::string &arch,
                                       const std::vector<std::string> &extra = {},
                                       bool fast_math = false);

// Compiles `source` as a program named `name` ("kernel.cu"). With an sm_XX architecture in
// `options` the binary is a CUBIN (nvrtcGetCUBIN); with compute_XX it is PTX (nvrtcGetPTX).
// Never throws for a failed compile (ok = false, log set); InternalError for misuse of NVRTC.
NvrtcOutput nvrtc_compile(const std::string &source, const std::string &name,
                          const std::vector<std::string> &options);

// "file(12): error: msg" → "file:12: error: msg" on every line of an NVRTC log.
std::string map_log(const std::string &log);

} // namespace smelt::cuda
