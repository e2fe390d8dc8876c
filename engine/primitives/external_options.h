// Options::includes, libs and extra_flags (the compile settings of external functions) put on
// the ModuleSource a primitive compiles.
#pragma once

#include "backends/backend.h"
#include "smelt.h"

#include <string>
#include <vector>

namespace smelt::primitives {

// Sets src.include_dirs (made absolute), src.link_args (libs spelled as linker arguments, see
// Options::libs) and appends options.extra_flags. UsageError for libs on a backend other than
// cpu, and for an include directory with a space on opencl (its build options are split at
// spaces).
void apply_external_options(ModuleSource &src, const Options &options, const std::string &backend);

// The linker arguments for Options::libs (cpu): directories → -L and -Wl,-rpath; -l/-L/-Wl
// words as written; files as they are; other words w → -lw. With any library,
// -Wl,--no-undefined comes first, so undefined functions fail the link, not the load.
std::vector<std::string> link_arguments(const std::vector<std::string> &libs);

} // namespace smelt::primitives
