#include "primitives/cuda/raw_kernel.h"

#include "codegen/c_like.h"
#include "codegen/dialect.h"
#include "codegen/prelude.h"
#include "support/error.h"

namespace smelt::primitives::cuda {

std::string global_wrapper(const ir::Module &m, const std::string &function,
                           const std::string &entry) {
    const ir::Function *f = m.find(function);
    SMELT_INTERNAL_ASSERT(f, "no function '" << function << "' for a raw kernel");
    const codegen::Dialect &d = codegen::cuda_dialect();
    const std::string symbol = codegen::function_symbol(m, function);
    std::string params, args;
    bool dynamic_shared = false;
    for (size_t k = 0; k < f->params.size(); ++k) {
        const Type &t = f->params[k]->type;
        const std::string var = "smelt_p" + std::to_string(k);
        params += k ? ", " : "";
        args += k ? ", " : "";
        if (t.is_pointer() && t.space == AddrSpace::Local) {
            params += "const uint64_t " + var;
            args += "(" + codegen::type_name(d, t) + ")(smelt_dynamic_shared + " + var + ")";
            dynamic_shared = true;
        } else if (t.is_buffer()) {
            params += codegen::type_name(d, t) + var;
            args += var;
        } else {
            params += "const " + codegen::type_name(d, t) + " " + var;
            args += var;
        }
        params += " /* " + f->params[k]->name + " */";
    }
    std::string text = "\n/* Launch wrapper of " + symbol +
                       ": local-memory parameters arrive as byte offsets into dynamic shared "
                       "memory. */\n";
    text +=
        d.entry_qualifier + " void " + entry + "(" + (params.empty() ? "void" : params) + ") {\n";
    if (dynamic_shared)
        text += "    extern __shared__ __align__(16) unsigned char smelt_dynamic_shared[];\n";
    text += "    " + symbol + "(" + args + ");\n";
    text += "}\n";
    return text;
}

RawKernelUnit raw_kernel_unit(const ir::Module &m, const std::string &function) {
    SMELT_INTERNAL_ASSERT(m.find(function), "no function '" << function << "' for a raw kernel");
    const codegen::Dialect &d = codegen::cuda_dialect();
    RawKernelUnit unit;
    unit.entry = "smelt_kernel_" + codegen::function_symbol(m, function);
    std::string text =
        codegen::prelude(d, true, m.bounds_checked) + "\n" + codegen::emit_module(m, d);
    text += codegen::line_mapping_reset(text, "kernel.cu");
    text += global_wrapper(m, function, unit.entry);
    unit.source = std::move(text);
    return unit;
}

} // namespace smelt::primitives::cuda
