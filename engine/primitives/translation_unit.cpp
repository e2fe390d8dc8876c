#include "primitives/translation_unit.h"

#include "codegen/c_like.h"
#include "codegen/prelude.h"
#include "primitives/external_options.h"

namespace smelt::primitives {

std::string assemble_unit(const PrimitiveTarget &target,
                          const std::vector<const ir::Module *> &modules,
                          const std::string &wrapper) {
    const codegen::Dialect &d = target.dialect();
    // Where double needs enabling (OpenCL), a unit without double leaves it out, so it builds on
    // devices without fp64.
    bool f64 = d.f64_enable.empty() || wrapper.find(d.type(Scalar::F64)) != std::string::npos;
    for (const ir::Module *m : modules)
        f64 = f64 || codegen::uses_scalar(*m, Scalar::F64);
    bool checked = false;
    for (const ir::Module *m : modules)
        checked = checked || m->bounds_checked;
    std::string text = codegen::prelude(d, f64, checked);
    for (const ir::Module *m : modules)
        text += "\n" + codegen::emit_module(*m, d);
    text += codegen::line_mapping_reset(text, target.unit_name());
    text += "\n" + wrapper;
    return text;
}

CompiledKernel compile_unit(Backend &backend, const PrimitiveTarget &target, std::string source,
                            const std::string &primitive, const std::string &signature,
                            const Options &options, std::vector<std::string> symbols) {
    ModuleSource src;
    src.fast_math = options.fast_math;
    apply_external_options(src, options, backend.name());
    src.symbols = symbols.empty() ? target.entry_points(primitive) : std::move(symbols);
    src.primitive = primitive;
    src.signature = signature;
    src.source = std::move(source);
    CompiledKernel k;
    k.module = backend.compile(src);
    for (const auto &sym : src.symbols)
        k.entries.push_back(k.module->function(sym));
    k.source = std::move(src.source);
    return k;
}

} // namespace smelt::primitives
