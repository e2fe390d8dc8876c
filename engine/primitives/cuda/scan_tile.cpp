// The per-call header of the CUDA scans (see scan_tile.h).
#include "primitives/cuda/scan_tile.h"

#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/call_spelling.h"

namespace smelt::primitives::cuda {

std::string scan_title(const ScanWrapper &w, const std::string &what) {
    return "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
           (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
           w.ops.combine + ": " + what + ". */\n";
}

std::string scan_header(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    const Type acc_type = Type::scalar(w.dtype);
    std::string out = "/* ---- per-call header of the scan ---- */\n";
    out += device_helpers(d, w.dtype, w.ops);
    out += algorithm_source("scan_seg_fold.kernel");
    out += define_line("SMELT_USER_PARAMS", kernel_params(d, w.params, vars));
    out += define_line(
        "SMELT_INPUT(smelt_i)",
        convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc_type));
    out += define_line("SMELT_OUTPUT", spell_call(d, w.output, vars, w.params, w.dtype));
    out += define_line("SMELT_SEGMENTED", w.segment ? "1" : "0");
    if (w.segment)
        out += define_line("SMELT_SEGMENT_START(smelt_i)",
                           spell_call(d, *w.segment, vars, w.params, w.dtype));
    out += define_line("SMELT_ITEMS", std::to_string(kScanItems));
    out += define_line("SMELT_WARPS", std::to_string(kScanBlock / 32));
    out += define_line("SMELT_WARP_TILE", std::to_string(32 * kScanItems));
    out += define_line("SMELT_TILE", std::to_string(kScanTile));
    return out + portable_words(d);
}

} // namespace smelt::primitives::cuda
