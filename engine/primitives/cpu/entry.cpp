// Pieces shared by the CPU wrappers: the entry signature with argument unpacking, and the static
// partition of [0, n) into one chunk per thread.
#include "codegen/c_like.h"
#include "primitives/cpu/wrappers.h"

namespace smelt::primitives::cpu {

std::string entry_head(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                       CallVars &vars) {
    std::string out = "#ifdef _OPENMP\n#include <omp.h>\n#endif\n#include <stdlib.h>\n\n";
    out += d.entry_qualifier + " void " + kEntryName +
           "(int64_t smelt_n, int32_t smelt_num_threads, void **smelt_args) {\n";
    vars.params.clear();
    for (size_t k = 0; k < params.size(); ++k) {
        const std::string var = "smelt_p" + std::to_string(k);
        const std::string t = codegen::type_name(d, params[k].type);
        const std::string index = std::to_string(k);
        // args[k] points at the argument: an array's data pointer, or a scalar's value.
        if (params[k].type.is_buffer())
            out += "    " + t + "const " + var + " = *(" + t + "*)smelt_args[" + index + "];";
        else
            out +=
                "    const " + t + " " + var + " = *(const " + t + " *)smelt_args[" + index + "];";
        out += " /* " + params[k].name + " */\n";
        vars.params.push_back(var);
    }
    return out;
}

std::string thread_chunk(const std::string &indent) {
    return indent + "int32_t smelt_t = 0, smelt_nt = 1;\n" + "#ifdef _OPENMP\n" + indent +
           "smelt_t = omp_get_thread_num();\n" + indent + "smelt_nt = omp_get_num_threads();\n" +
           "#endif\n" + indent +
           "const int64_t smelt_base = smelt_n / smelt_nt, smelt_rem = smelt_n % smelt_nt;\n" +
           indent +
           "const int64_t smelt_lo = smelt_t * smelt_base + (smelt_t < smelt_rem ? smelt_t : "
           "smelt_rem);\n" +
           indent +
           "const int64_t smelt_hi = smelt_lo + smelt_base + (smelt_t < smelt_rem ? 1 : 0);\n";
}

std::string parallel_region_open() {
    return "    auto smelt_work = [&]() {\n";
}

std::string parallel_region_close() {
    return "    };\n"
           "    if (smelt_team_max > 1) {\n"
           "#pragma omp parallel num_threads(smelt_team_max)\n"
           "        smelt_work();\n"
           "    } else {\n"
           "        smelt_work();\n"
           "    }\n";
}

} // namespace smelt::primitives::cpu
