// CPU entry of Scan: a two-pass blocked scan over one contiguous chunk per thread.
//   pass 1  each thread folds input over its chunk (restarting at segment starts) → chunk total
//   carry   after a barrier, each thread folds the totals in chunk order: its carry, last_item
//   pass 2  each thread rescans its chunk from its carry, calling output(i, item, prev_item,
//           last_item) right after input(i), so output may overwrite input's array
// With one thread and an output that ignores last_item, pass 1 is skipped.
#include "codegen/c_like.h"
#include "primitives/call_spelling.h"
#include "primitives/cpu/wrappers.h"

namespace smelt::primitives::cpu {

std::string scan_wrapper(const codegen::Dialect &d, const ScanWrapper &w) {
    CallVars vars = CallVars::for_scan();
    const Type acc_type = Type::scalar(w.dtype);
    const std::string T = codegen::type_name(d, acc_type);
    std::string out = "/* Scan: input " + w.input.symbol + ", output " + w.output.symbol +
                      (w.segment ? ", segments " + w.segment->symbol : std::string()) + ", with " +
                      w.ops.combine + ". */\n";
    out += entry_head(d, w.params, vars);
    const std::string input =
        convert(d, spell_call(d, w.input, vars, w.params, w.dtype), w.input.result, acc_type);
    const std::string output = spell_call(d, w.output, vars, w.params, w.dtype);
    const std::string segment =
        w.segment ? "(" + spell_call(d, *w.segment, vars, w.params, w.dtype) + ")" : "";
    const std::string combine = "(" + T + ")" + w.ops.combine;

    out += "    if (smelt_n <= 0) return;\n";
    out += "    const " + T + " smelt_neutral = (" + T + ")" + w.ops.neutral + "();\n";
    out += "    int32_t smelt_team_max = smelt_num_threads < 1 ? 1 : smelt_num_threads;\n";
    out += "    if (smelt_team_max > smelt_n) smelt_team_max = (int32_t)smelt_n;\n";
    out += "    " + T + " smelt_small[64];\n";
    out += "    unsigned char smelt_small_starts[64];\n";
    out += "    const int smelt_heap = smelt_team_max > 64;\n";
    out += "    " + T + " *const smelt_part = smelt_heap ? (" + T + " *)malloc(sizeof(" + T +
           ") * smelt_team_max) : smelt_small;\n";
    out += "    unsigned char *const smelt_starts = smelt_heap ? (unsigned char "
           "*)malloc(smelt_team_max) : smelt_small_starts;\n";
    out += parallel_region_open();
    out += thread_chunk("        ");
    out += "        int64_t smelt_i = smelt_lo;\n";
    out += "        " + T + " smelt_carry = smelt_neutral, smelt_last = smelt_neutral;\n";
    out += "        (void)smelt_last;\n";
    out += std::string("        if (smelt_nt > 1 || ") + (w.output_uses_last_item ? "1" : "0") +
           ") {\n";
    out += "            " + T + " smelt_acc = " + input + ";\n";
    out += "            unsigned char smelt_start = smelt_lo == 0" +
           (w.segment ? " || " + segment : std::string()) + ";\n";
    out += "            for (smelt_i = smelt_lo + 1; smelt_i < smelt_hi; ++smelt_i) {\n";
    out += "                const " + T + " smelt_x = " + input + ";\n";
    if (w.segment) {
        out += "                if " + segment + " {\n";
        out += "                    smelt_acc = smelt_x;\n";
        out += "                    smelt_start = 1;\n";
        out += "                } else {\n";
        out += "                    smelt_acc = " + combine + "(smelt_acc, smelt_x);\n";
        out += "                }\n";
    } else {
        out += "                smelt_acc = " + combine + "(smelt_acc, smelt_x);\n";
    }
    out += "            }\n";
    out += "            smelt_part[smelt_t] = smelt_acc;\n";
    out += "            smelt_starts[smelt_t] = smelt_start;\n";
    // Every thread folds the chunk totals itself (the same fold, in chunk order): one barrier
    // instead of a `single` region and its second barrier.
    out += "#pragma omp barrier\n";
    out += "            " + T + " smelt_run = smelt_part[0];\n";
    out += "            for (int32_t smelt_k = 1; smelt_k < smelt_nt; ++smelt_k) {\n";
    out += "                if (smelt_k == smelt_t) smelt_carry = smelt_run;\n";
    out += "                smelt_run = smelt_starts[smelt_k] ? smelt_part[smelt_k] : " + combine +
           "(smelt_run, smelt_part[smelt_k]);\n";
    out += "            }\n";
    out += "            smelt_last = smelt_run;\n";
    out += "        }\n";
    // Pass 2. The first element of the whole range starts a segment whatever segment() says.
    out += "        " + T + " smelt_acc = smelt_carry;\n";
    out += "        smelt_i = smelt_lo;\n";
    out += "        if (smelt_lo == 0) {\n";
    out += "            const " + T + " smelt_item = " + input + ";\n";
    out += "            const " + T + " smelt_prev = smelt_neutral;\n";
    out += "            (void)smelt_prev;\n";
    out += "            smelt_acc = smelt_item;\n";
    out += "            " + output + ";\n";
    out += "            smelt_i = 1;\n";
    out += "        }\n";
    out += "        for (; smelt_i < smelt_hi; ++smelt_i) {\n";
    out += "            const " + T + " smelt_x = " + input + ";\n";
    out += "            " + T + " smelt_item, smelt_prev;\n";
    if (w.segment) {
        out += "            if " + segment + " {\n";
        out += "                smelt_prev = smelt_neutral;\n";
        out += "                smelt_item = smelt_x;\n";
        out += "            } else {\n";
        out += "                smelt_prev = smelt_acc;\n";
        out += "                smelt_item = " + combine + "(smelt_acc, smelt_x);\n";
        out += "            }\n";
    } else {
        out += "            smelt_prev = smelt_acc;\n";
        out += "            smelt_item = " + combine + "(smelt_acc, smelt_x);\n";
    }
    out += "            (void)smelt_prev;\n";
    out += "            smelt_acc = smelt_item;\n";
    out += "            " + output + ";\n";
    out += "        }\n";
    out += parallel_region_close();
    out += "    if (smelt_heap) {\n";
    out += "        free(smelt_part);\n";
    out += "        free(smelt_starts);\n";
    out += "    }\n";
    out += "}\n";
    return out;
}

} // namespace smelt::primitives::cpu
