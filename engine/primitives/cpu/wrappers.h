// The CPU (OpenMP C++) entry points of the primitives. Each is
//     extern "C" void smelt_entry(int64_t n, int32_t num_threads, void **args)
// (the CPU launch ABI of backends/cpu/cpu_backend.h) and runs its own OpenMP region; built
// without OpenMP (cpu:serial) the pragmas are ignored and everything runs on one thread.
#pragma once

#include "codegen/dialect.h"
#include "primitives/wrapper_spec.h"

#include <string>

namespace smelt::primitives::cpu {

inline constexpr const char *kEntryName = "smelt_entry";

// "extern "C" void smelt_entry(...) {" and the lines that unpack args[k] into vars.params[k]
// (the LoopFunction's entry, which is not an algorithm file).
std::string entry_head(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                       CallVars &vars);
// The start of an OpenMP entry file's per-call header (primitives/algorithms/*_openmp.kernel):
// the includes, SMELT_PARAMS/SMELT_ARGS (per_call_header.h) and SMELT_UNPACK_ARGS, the
// declarations of vars.params[k] from smelt_args[k].
std::string entry_header(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                         CallVars &vars);

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w);
std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w);
std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w);

} // namespace smelt::primitives::cpu
