// Pieces shared by the OpenCL wrappers: the kernel signature, the work-item chunk, the
// (value, flags) join and the work-group scan and reduction in local memory.
#include "codegen/c_like.h"
#include "primitives/opencl/wrappers.h"

namespace smelt::primitives::opencl {

std::string user_params(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                        CallVars &vars) {
    std::string out;
    vars.params.clear();
    for (size_t k = 0; k < params.size(); ++k) {
        const std::string var = "smelt_p" + std::to_string(k);
        out += codegen::declaration(d, params[k].type, var) + " /* " + params[k].name + " */, ";
        vars.params.push_back(var);
    }
    return out;
}

std::string kernel_head(const codegen::Dialect &d, const std::string &name,
                        const std::vector<EntryParam> &params, const std::string &extra,
                        CallVars &vars) {
    return d.entry_qualifier + " void " + name + "(" + user_params(d, params, vars) + extra +
           ") {\n";
}

std::string work_item_chunk(const std::string &indent) {
    return indent + "const long smelt_t = (long)get_global_id(0);\n" + indent +
           "const long smelt_nt = (long)get_global_size(0);\n" + indent +
           "const long smelt_base = smelt_n / smelt_nt, smelt_rem = smelt_n % smelt_nt;\n" +
           indent +
           "const long smelt_lo = smelt_t * smelt_base + (smelt_t < smelt_rem ? smelt_t : "
           "smelt_rem);\n" +
           indent +
           "const long smelt_hi = smelt_lo + smelt_base + (smelt_t < smelt_rem ? 1 : 0);\n";
}

std::string level_loop(const std::string &var) {
    return "for (uint " + var + " = 1; " + var + " < " + std::to_string(kMaxGroupSize) + "u; " +
           var + " <<= 1) {\n";
}

std::string join_helpers(const std::string &T, const std::string &combine) {
    // Empty pairs are skipped rather than combined with the neutral element, so results equal
    // the CPU's bit for bit even where combine(x, neutral) is not exactly x (-0.0 + 0.0).
    std::string out = "/* (value, flags) pairs: flags bit 1 = holds a value, bit 0 = contains a "
                      "segment start. a followed by b. */\n";
    out += "SMELT_INLINE " + T + " smelt_join(" + T + " a, uchar fa, " + T + " b, uchar fb) {\n";
    out += "    if (!(fb & 2)) return a;\n";
    out += "    if (!(fa & 2) || (fb & 1)) return b;\n";
    out += "    return " + combine + "(a, b);\n";
    out += "}\n";
    out += "SMELT_INLINE uchar smelt_join_flags(uchar fa, uchar fb) { return (uchar)(fa | fb); }\n";
    return out;
}

std::string local_inclusive_scan(const std::string &indent, const std::string &T) {
    const std::string &i = indent;
    std::string out;
    out += i + level_loop("smelt_s");
    out += i + "    const int smelt_has = smelt_l >= smelt_s;\n";
    out += i + "    " + T + " smelt_pv = smelt_lv[smelt_l];\n";
    out += i + "    uchar smelt_pf = 0;\n";
    out += i + "    if (smelt_has) {\n";
    out += i + "        smelt_pv = smelt_lv[smelt_l - smelt_s];\n";
    out += i + "        smelt_pf = smelt_lf[smelt_l - smelt_s];\n";
    out += i + "    }\n";
    out += i + "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += i + "    if (smelt_has) {\n";
    out += i + "        const uchar smelt_f = smelt_lf[smelt_l];\n";
    out +=
        i +
        "        smelt_lv[smelt_l] = smelt_join(smelt_pv, smelt_pf, smelt_lv[smelt_l], smelt_f);\n";
    out += i + "        smelt_lf[smelt_l] = smelt_join_flags(smelt_pf, smelt_f);\n";
    out += i + "    }\n";
    out += i + "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    out += i + "}\n";
    return out;
}

} // namespace smelt::primitives::opencl
