// Elementwise: f(i, args...) for i in [0, n), specialised on the argument types at the call.
#include "codegen/c_like.h"
#include "primitives/binding.h"
#include "primitives/elementwise_unit.h"
#include "primitives/program_data.h"
#include "primitives/spec_cache.h"
#include "primitives/translation_unit.h"

#include <mutex>

namespace smelt {
namespace primitives {

size_t elementwise_arity(const ast::Module &module, const std::string &func) {
    const ast::FunctionDef *fn = module.find_function(func);
    if (!fn) throw UsageError("no function named '" + func + "' in " + module.source->name());
    if (fn->params.empty())
        throw UsageError("'" + func +
                         "' takes no parameters; an elementwise function takes the "
                         "index i first");
    return fn->params.size() - 1;
}

ElementwiseUnit elementwise_unit(const ast::Module &module, const std::string &func,
                                 const std::vector<std::optional<Type>> &given, Precision precision,
                                 const PrimitiveTarget &target, const std::string &backend_name) {
    const size_t arity = elementwise_arity(module, func);
    if (given.size() != arity)
        throw UsageError("'" + func + "' takes " + std::to_string(arity) +
                         " argument(s) after the index, but " + std::to_string(given.size()) +
                         " were given");
    const ast::FunctionDef &fn = *module.find_function(func);
    const auto declared = declared_param_types(module, fn);

    KernelRequest request{func, {}, {}};
    if (!declared[0]) request.arg_types[fn.params[0].name] = Type::scalar(Scalar::I64);
    ElementwiseUnit unit;
    for (size_t k = 0; k < arity; ++k) {
        const std::string &pname = fn.params[k + 1].name;
        BoundParam b = bind_param(func, pname, declared[k + 1], given[k], precision);
        if (b.for_request) request.arg_types[pname] = b.type;
        unit.names.push_back(pname);
    }
    CompileOptions options;
    options.precision = precision;
    options.backend = backend_name;
    auto m = build_ir(module, {request}, options);
    const ir::Function *f = m->find(func);
    SMELT_INTERNAL_ASSERT(f && f->params.size() == arity + 1, "specialisation of " << func);

    ElementwiseWrapper w;
    w.func.symbol = codegen::function_symbol(*m, func);
    w.func.result = f->return_type;
    w.func.args.push_back({CallArg::Kind::Index, -1, f->params[0]->type});
    for (size_t k = 0; k < arity; ++k) {
        const Type &t = f->params[k + 1]->type;
        w.params.push_back({unit.names[k], t});
        w.func.args.push_back({CallArg::Kind::Param, static_cast<int>(k), t});
        unit.packed.push_back(t);
    }
    unit.source = assemble_unit(target, {m.get()}, target.elementwise_wrapper(w));
    unit.signature = func + "(" + signature_text(unit.names, unit.packed) + ")" +
                     (precision == Precision::Single ? ";single" : "");
    return unit;
}

struct ElementwiseSpec {
    CompiledKernel kernel;
    std::vector<Type> packed;
};

struct ElementwiseState {
    explicit ElementwiseState(Program p) : program(std::move(p)) {}
    Program program;
    std::string func;
    Options options;
    Backend *backend = nullptr;
    const PrimitiveTarget *target = nullptr;
    std::vector<std::string> names;

    std::mutex mutex;
    SpecCache<ElementwiseSpec> specs;
    std::string key;
    std::vector<const Arg *> argp;
    std::vector<KernelArg> kargs;
};

} // namespace primitives

using primitives::ElementwiseState;

Elementwise::Elementwise(const Program &program, const std::string &func, Options options)
    : s_(std::make_unique<ElementwiseState>(program)) {
    s_->func = func;
    s_->options = std::move(options);
    const ast::Module &module = *program.data().module;
    const size_t arity = primitives::elementwise_arity(module, func);
    const ast::FunctionDef &fn = *module.find_function(func);
    for (size_t k = 0; k < arity; ++k)
        s_->names.push_back(fn.params[k + 1].name);
    s_->backend = &primitives::resolve_backend(s_->options);
    s_->target = &primitives::primitive_target(s_->backend->name());
}

Elementwise::~Elementwise() = default;
Elementwise::Elementwise(Elementwise &&) noexcept = default;
Elementwise &Elementwise::operator=(Elementwise &&) noexcept = default;

void Elementwise::operator()(const std::vector<Arg> &args) {
    for (const Arg &a : args)
        if (a.is_array()) return (*this)(static_cast<int64_t>(a.array().size()), args);
    throw UsageError("'" + s_->func +
                     "' is given no array, so the item count is unknown: call "
                     "it with n first");
}

void Elementwise::operator()(int64_t n, const std::vector<Arg> &args) {
    ElementwiseState &s = *s_;
    if (n < 0) throw UsageError("the item count must not be negative, not " + std::to_string(n));
    std::lock_guard<std::mutex> lock(s.mutex);
    if (args.size() != s.names.size())
        throw UsageError("'" + s.func + "' takes " + std::to_string(s.names.size()) +
                         " argument(s) after the index, but " + std::to_string(args.size()) +
                         " were given");
    s.key.clear();
    for (const Arg &a : args)
        primitives::append_type_key(s.key, a);
    const primitives::ElementwiseSpec &spec = s.specs.get(s.key, [&] {
        std::vector<std::optional<Type>> given;
        for (const Arg &a : args)
            given.push_back(a.type());
        primitives::ElementwiseUnit unit =
            primitives::elementwise_unit(*s.program.data().module, s.func, given,
                                         s.options.precision, *s.target, s.backend->name());
        return primitives::ElementwiseSpec{primitives::compile_unit(*s.backend, *s.target,
                                                                    std::move(unit.source),
                                                                    "elementwise", unit.signature),
                                           std::move(unit.packed)};
    });
    s.argp.clear();
    for (const Arg &a : args)
        s.argp.push_back(&a);
    primitives::pack_args(s.argp, spec.packed, s.names, *s.backend, s.kargs);
    s.target->run_elementwise(*s.backend, spec.kernel, n, s.kargs);
}

const std::string &Elementwise::source() const {
    static const std::string none;
    const auto *spec = s_->specs.last();
    return spec ? spec->kernel.source : none;
}

} // namespace smelt
