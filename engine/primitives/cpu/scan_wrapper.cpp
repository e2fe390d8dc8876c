// CPU entry of Scan: primitives/algorithms/scan_openmp.kernel over chunk_split.kernel and
// chunk_scan.kernel (a two-pass blocked scan over one contiguous chunk per thread), after this
// per-call header.
#include "primitives/algorithm_source.h"
#include "primitives/cpu/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::cpu {

std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ". */\n";
    out += entry_header(d, w.params, vars);
    out += scan_macros(d, w, vars);
    out += define_macro("SMELT_USES_LAST", w.output_uses_last_item ? "1" : "0");
    out += portable_words(d);
    out += algorithm_source("chunk_split.kernel");
    out += algorithm_source("chunk_scan.kernel");
    out += algorithm_source("scan_openmp.kernel");
    return out;
}

} // namespace smelt::primitives::cpu
