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

// "extern "C" void smelt_entry(...) {" and the lines that unpack args[k] into vars.params[k].
std::string entry_head(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                       CallVars &vars);
// The lines computing this thread's part [smelt_lo, smelt_hi) of [0, smelt_n) when the team
// has smelt_nt threads: contiguous, balanced chunks in thread order.
std::string thread_chunk(const std::string &indent);
// A block run by a team of smelt_team_max threads: the body becomes a lambda that runs inside
// `omp parallel` when smelt_team_max > 1 and is called directly otherwise (no OpenMP runtime
// call for one-thread launches). The body may use `omp barrier` (a no-op outside a team).
std::string parallel_region_open();
std::string parallel_region_close();

std::string elementwise_wrapper(const codegen::Dialect &d, const ElementwiseWrapper &w);
std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w);
std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w);

} // namespace smelt::primitives::cpu
