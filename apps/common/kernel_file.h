// Where an app finds its kernel file (physics.py) at run time.
#pragma once

#include "smelt.h"

#include <map>
#include <string>
#include <vector>

namespace smelt::apps {

struct KernelFile {
    std::string env_var; // "SMELT_MD2D_PHYSICS": a path that wins over everything else
    std::string file_name = "physics.py";
    std::string share_dir;      // "md2d": installed as <bin>/../share/smelt/md2d/physics.py
    std::string source_default; // the source tree's copy (CMake passes its path)
};

// $env_var if set (it must exist), else <binary's folder>/file_name, else
// <binary's folder>/../share/smelt/<share_dir>/file_name, else source_default. std::runtime_error
// listing the places tried when none exists.
std::string find_kernel_file(const KernelFile &kernels, const char *argv0);

// The folders an app's kernel file imports the shared kernels from (apps/common/kernels), found
// relative to the file itself so the source tree and an installed tree both work:
// <file's folder>/../common/kernels (source: apps/<app>/physics.py) and <file's folder>/../kernels
// (installed: share/smelt/<app>/physics.py beside share/smelt/kernels). Only existing folders are
// returned; $SMELT_KERNEL_PATH is searched after them by the engine.
std::vector<std::string> shared_kernel_path(const std::string &kernel_file);

// The app's kernel file parsed with shared_kernel_path() as its import path, and its module
// constants set to `constants` (smelt::ProgramOptions::constants): an app specialises kernels to
// its configuration this way, so the compiler sees its choices as constants.
smelt::Program
load_kernel_program(const std::string &kernel_file,
                    const std::map<std::string, smelt::ConstantValue> &constants = {});

} // namespace smelt::apps
