// The primitives' algorithms as kernel-source files (engine/primitives/algorithms/*.kernel),
// written once over portable words and embedded at build time. A backend's wrapper writes a
// small per-call header (types, the combine, the user function's call spelling as macros),
// then portable_words() for its dialect, then the algorithm's text.
#pragma once

#include "codegen/dialect.h"

#include <string>

namespace smelt::primitives {

struct AlgorithmFile {
    const char *name; // file name, e.g. "reduce_tiled.kernel"
    const char *text;
};

// The embedded table (generated: cmake/EmbedAlgorithms.cmake); ends with {nullptr, nullptr}.
extern const AlgorithmFile kAlgorithmFiles[];

// The text of primitives/algorithms/NAME. An unknown name is an internal error (the file set
// is fixed at build time).
std::string algorithm_source(const std::string &name);

// #defines of the portable words algorithm files are written in, spelled for dialect d:
//   SMELT_KERNEL               an entry point's qualifier (__kernel, extern "C" __global__, ...)
//   SMELT_GLOBAL, SMELT_LOCAL  pointer address spaces (from the prelude)
//   SMELT_LOCAL_ARRAY          before a work-group array declared in a kernel (__local, __shared__)
//   SMELT_LOCAL_ID, SMELT_GROUP_ID, SMELT_LOCAL_SIZE, SMELT_NUM_GROUPS   axis 0, as smelt_u32
//   SMELT_GROUP_BARRIER()      a work-group barrier that orders local memory
//   smelt_i64, smelt_u64, smelt_i32, smelt_u32, smelt_u8   fixed-width integer typedefs
//   smelt_u16                  (appended for the radix sort's 16-bit tile counters)
// Words a dialect cannot spell (no local memory on the C++ target) are left undefined, so a
// GPU algorithm used there fails to compile rather than meaning something else.
std::string portable_words(const codegen::Dialect &d);

// "#define NAME VALUE\n", the line of a per-call header; VALUE (a type, a spelled call) must be one
// line: an internal error otherwise.
std::string define_line(const std::string &name, const std::string &value);

} // namespace smelt::primitives
