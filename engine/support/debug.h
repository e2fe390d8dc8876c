// SMELT_DEBUG: the one place that reads the debug environment variable. Level 0 is silent;
// 1 prints cache hits/misses and compile commands with their time; higher levels are for the
// compiler stages to dump what they produce (see pipeline.h for which stage prints at which level).
#pragma once

#include <functional>
#include <string_view>

namespace smelt::debug {

// SMELT_DEBUG as an integer (0 when unset or not a number), read once per process.
int level();

// Prints "smelt: <message>" on one line to stderr when level() >= min_level.
void log(int min_level, std::string_view message);

// Prints a framed block "=== <stage> ===" + text, unconditionally; callers decide the level:
//   if (debug::level() >= 3) debug::dump("translation unit", src);
void dump(std::string_view stage, std::string_view text);

// Tests only: force a level and capture the output instead of writing to stderr. Passing -1 /
// an empty function restores the environment's level / stderr.
void set_level_for_testing(int level);
void set_sink_for_testing(std::function<void(std::string_view)> sink);

} // namespace smelt::debug
