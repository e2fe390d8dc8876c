// CPU entry of Reduction: one contiguous chunk per thread, each reduced in index order from its
// first element; the chunk results are combined in thread order afterwards. Deterministic for a
// given thread count, unlike `omp reduction` whose combine order is unspecified.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/cpu/wrappers.h"

namespace smelt::primitives::cpu {

std::string reduction_wrapper(const codegen::Dialect &d, const ReductionWrapper &w) {
    CallVars vars;
    vars.index = "smelt_i";
    const Type acc_type = Type::scalar(w.out);
    const std::string T = codegen::type_name(d, acc_type);
    std::string out = "/* Reduction of " +
                      (w.map ? w.map->symbol + "(i, ...)" : std::string("an array")) + " with " +
                      w.ops.combine + ". */\n";
    out += entry_head(d, w.params, vars);
    std::string item; // the value at smelt_i, as T
    if (w.map) {
        item = convert(d, spell_call(d, *w.map, vars, w.params), w.map->result, acc_type);
    } else {
        const Type &arr = w.params.at(w.array_param).type;
        item =
            convert(d, vars.params[w.array_param] + "[smelt_i]", Type::scalar(arr.elem), acc_type);
    }
    const std::string combine = "(" + T + ")" + w.ops.combine;
    out += "    " + T + " *const smelt_out = *(" + T + " **)smelt_args[" +
           std::to_string(w.params.size()) + "];\n";
    out += "    if (smelt_n <= 0) {\n";
    out += "        *smelt_out = (" + T + ")" + w.ops.neutral + "();\n";
    out += "        return;\n    }\n";
    out += "    int32_t smelt_team_max = smelt_num_threads < 1 ? 1 : smelt_num_threads;\n";
    out += "    if (smelt_team_max > smelt_n) smelt_team_max = (int32_t)smelt_n;\n";
    out += "    " + T + " smelt_small[64];\n";
    out += "    " + T + " *const smelt_part = smelt_team_max <= 64 ? smelt_small : (" + T +
           " *)malloc(sizeof(" + T + ") * smelt_team_max);\n";
    out += "    int32_t smelt_team = 1;\n";
    out += parallel_region_open();
    out += thread_chunk("        ");
    out += "        if (smelt_t == 0) smelt_team = smelt_nt;\n";
    out += "        int64_t smelt_i = smelt_lo;\n";
    out += "        " + T + " smelt_acc = " + item + ";\n";
    out += "        for (smelt_i = smelt_lo + 1; smelt_i < smelt_hi; ++smelt_i)\n";
    out += "            smelt_acc = " + combine + "(smelt_acc, " + item + ");\n";
    out += "        smelt_part[smelt_t] = smelt_acc;\n";
    out += parallel_region_close();
    out += "    " + T + " smelt_total = smelt_part[0];\n";
    out += "    for (int32_t smelt_k = 1; smelt_k < smelt_team; ++smelt_k)\n";
    out += "        smelt_total = " + combine + "(smelt_total, smelt_part[smelt_k]);\n";
    out += "    *smelt_out = smelt_total;\n";
    out += "    if (smelt_part != smelt_small) free(smelt_part);\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::cpu
