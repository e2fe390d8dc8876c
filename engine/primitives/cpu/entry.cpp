// Pieces shared by the CPU wrappers: the entry's signature and the unpacking of its arguments.
#include "codegen/c_like.h"
#include "primitives/cpu/wrappers.h"
#include "primitives/per_call_header.h"

namespace smelt::primitives::cpu {

namespace {

constexpr const char *kIncludes = "#ifdef _OPENMP\n#include <omp.h>\n#endif\n#include <stdlib.h>\n";

// "double *const smelt_p0 = *(double **)smelt_args[0]; /* x */" per parameter, one a line.
std::string unpack_lines(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                         const std::string &indent) {
    std::string out;
    for (size_t k = 0; k < params.size(); ++k) {
        const std::string var = "smelt_p" + std::to_string(k);
        const std::string t = codegen::type_name(d, params[k].type);
        const std::string index = std::to_string(k);
        // args[k] points at the argument: an array's data pointer, or a scalar's value.
        if (params[k].type.is_buffer())
            out += indent + t + "const " + var + " = *(" + t + "*)smelt_args[" + index + "];";
        else
            out += indent + "const " + t + " " + var + " = *(const " + t + " *)smelt_args[" +
                   index + "];";
        out += " /* " + params[k].name + " */\n";
    }
    return out;
}

} // namespace

std::string entry_head(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                       CallVars &vars) {
    std::string out = std::string(kIncludes) + "\n" + d.entry_qualifier + " void " + kEntryName +
                      "(int64_t smelt_n, int32_t smelt_num_threads, void **smelt_args) {\n";
    vars.params.clear();
    for (size_t k = 0; k < params.size(); ++k)
        vars.params.push_back("smelt_p" + std::to_string(k));
    return out + unpack_lines(d, params, "    ");
}

std::string entry_header(const codegen::Dialect &d, const std::vector<EntryParam> &params,
                         CallVars &vars) {
    std::string unpack = unpack_lines(d, params, "    ");
    if (!unpack.empty()) unpack.pop_back(); // the macro's last line ends without a backslash
    return std::string(kIncludes) + user_param_macros(d, params, vars) +
           define_macro("SMELT_UNPACK_ARGS", unpack);
}

} // namespace smelt::primitives::cpu
