// Where an app finds its kernel file (physics.py) at run time.
#pragma once

#include <string>

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

} // namespace smelt::apps
