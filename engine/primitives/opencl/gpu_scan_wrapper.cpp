// OpenCL entries of Scan in the GPU layout (gpu_wrappers.h): reduce-then-scan in three kernels,
// the first and last tiled_reduce_scan.kernel's.
// Pairs (value, flags) carry whether a run holds a value and contains a segment start
// (smelt_join, pair_join.kernel); index 0 always starts a segment.
//   smelt_scan_up      G work-groups; per tile: coalesced load of input (and segment starts),
//                      each work-item folds its K consecutive items, the ordered tree folds
//                      the W results, work-item 0 appends the tile to the group's total →
//                      smelt_gv/gf[group]
//   smelt_scan_groups  one work-group: exclusive scan of the G totals (each group's carry) and
//                      the total of everything (last_item) at smelt_gv/gf[G] (shared with the
//                      CPU layout)
//   smelt_scan_down    per tile, from the group's carry: load and fold as in up, an inclusive
//                      scan of the W folds in local memory (group_scan.kernel), each
//                      work-item rescans its K items from the pairs before it, writing the
//                      items back into the tile, then output(i, item, prev_item, last_item) is
//                      called for the tile with consecutive work-items on consecutive indices
// input is evaluated twice per index (up and down), one tile ahead of its use (tiled_load.kernel):
// a tile's inputs are evaluated before any of its outputs, so never after output at the same
// index.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
#include "primitives/call_spelling.h"
#include "primitives/opencl/gpu_wrappers.h"

namespace smelt::primitives::opencl {

std::string gpu_scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    const Type acc_type = Type::scalar(w.dtype);
    TiledCall c;
    c.T = codegen::type_name(d, acc_type);
    c.combine = "(" + c.T + ")" + w.ops.combine;
    c.neutral = "(" + c.T + ")" + w.ops.neutral + "()";
    c.dtype = w.dtype;
    c.params = user_params(d, w.params, vars);
    c.value = convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc_type);
    c.scan = true;
    // Unsegmented scans keep no flags: only index 0 starts a segment.
    if (w.segment) c.segment = spell_call(d, *w.segment, vars, w.params, w.dtype);

    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + " (GPU layout). */\n";
    out += tiled_header(d, c);
    out += tiled_kernel(kScanUpEntry, false);
    out += "\n" + algorithm_source("chunk_split.kernel");
    out += algorithm_source("scan_groups_opencl.kernel") + "\n";
    out += tiled_kernel(kScanDownEntry, true, spell_call(d, w.output, vars, w.params, w.dtype));
    return out;
}

} // namespace smelt::primitives::opencl
