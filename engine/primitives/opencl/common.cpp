// Pieces shared by the OpenCL wrappers: the kernel signature and the level count of the
// work-group steps in local memory.
#include "codegen/c_like.h"
#include "primitives/algorithm_source.h"
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

std::string group_size_macro() {
    return define_line("SMELT_MAX_GROUP_SIZE", std::to_string(kMaxGroupSize) + "u");
}

} // namespace smelt::primitives::opencl
