// The system C++ compiler: which one, its version (for cache keys), its flags, and one build
// of a translation unit into a shared object.
#pragma once

#include "backends/backend.h"

#include <filesystem>
#include <string>
#include <vector>

namespace smelt::cpu {

struct CxxToolchain {
    std::string command;  // as configured: SMELT_CXX, else CMake's compiler, else "c++"
    std::string resolved; // absolute path after the PATH search (== command when not found)
    std::string version;  // first line of `<resolved> --version`, cached per process
};

// Reads SMELT_CXX on each call (tests change it); the version query runs once per compiler.
CxxToolchain find_toolchain();

// -std=c++17 -O3 -march=native -shared -fPIC, plus -fopenmp when `openmp`, plus `extra`, and
// the flags that keep the language's meaning (float_semantics_flags).
std::vector<std::string> cxx_flags(bool openmp, const std::vector<std::string> &extra,
                                   bool fast_math = false);

// What makes compiled C++ compute what the kernel means in CPython: no contraction of a*b + c
// into a fused multiply-add (-ffp-contract=off, one rounding per operation as in CPython), and
// loops kept even when they have no side effect (-fno-finite-loops: C++'s forward-progress rule
// would let the compiler delete `while True: pass`). -fno-trapping-math changes no value: the
// language has no floating-point exception flags or traps, and without them the compiler may
// evaluate both sides of a float comparison's select (`a if x < y else b`) and so vectorise
// loops with such selects. With `fast_math` the float flags become -ffast-math (contraction,
// reassociation, no NaN/Inf guarantees); loops stay kept.
std::vector<std::string> float_semantics_flags(bool fast_math);

// Runs `<compiler> <flags> -o <output> <source> <link_args>` in the source's folder, with
// relative file names so messages read "kernel.cpp:12:5: error: ...". Libraries come after the
// source, where the linker needs them. Never throws for a failed compile.
BuildResult compile_shared_object(const CxxToolchain &tc, const std::vector<std::string> &flags,
                                  const std::filesystem::path &source,
                                  const std::filesystem::path &output,
                                  const std::vector<std::string> &link_args = {});

} // namespace smelt::cpu
