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

// -std=c++17 -O3 -march=native -shared -fPIC, plus -fopenmp when `openmp`, plus `extra`.
std::vector<std::string> cxx_flags(bool openmp, const std::vector<std::string> &extra);

// Runs `<compiler> <flags> -o <output> <source>` in the source's folder, with relative file
// names so messages read "kernel.cpp:12:5: error: ...". Never throws for a failed compile.
BuildResult compile_shared_object(const CxxToolchain &tc, const std::vector<std::string> &flags,
                                  const std::filesystem::path &source,
                                  const std::filesystem::path &output);

} // namespace smelt::cpu
