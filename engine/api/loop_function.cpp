// smelt::LoopFunction (smelt.h): a loop-parallel function specialised on its arguments' types,
// integer values and array sizes; plan (loop_function/plan.h) → outlined IR (outline.h) → one
// translation unit per backend (units.h), compiled through the backend's cache.
#include "primitives/binding.h"
#include "primitives/external_options.h"
#include "primitives/loop_function/specialise.h"
#include "primitives/profile.h"
#include "primitives/program_data.h"
#include "primitives/spec_cache.h"
#include "support/backend_table.h"

#include <mutex>

namespace smelt {
namespace primitives {

namespace {

// One element of device memory per frame scalar (8 bytes each, zeroed), owned by a spec.
struct FrameBuffer {
    FrameBuffer(Backend &b, size_t bytes) : backend(&b), buffer(b.allocate(bytes)) {
        std::vector<unsigned char> zero(bytes, 0);
        b.write(buffer, 0, zero.data(), bytes);
    }
    ~FrameBuffer() { backend->release(buffer); }
    FrameBuffer(const FrameBuffer &) = delete;
    FrameBuffer &operator=(const FrameBuffer &) = delete;
    Backend *backend;
    Buffer buffer;
};

} // namespace

struct LoopSpec {
    loops::Outlined code;
    std::shared_ptr<Module> module;
    std::map<std::string, void *> kernels; // GPU kernel (module function) → handle
    void *entry = nullptr;                 // CPU
    std::vector<Type> packed;              // the loop function's parameter types
    std::vector<std::shared_ptr<FrameBuffer>> frame;
    std::vector<std::shared_ptr<FrameBuffer>> parts; // per segment (GPU Reduce), else null
    std::string source;
};

struct LoopFunctionState {
    explicit LoopFunctionState(Program p) : program(std::move(p)) {}
    Program program;
    std::string func;
    ParallelSpec spec;
    Options options;
    Backend *backend = nullptr;
    bool gpu = false;
    std::vector<std::string> names;

    std::mutex mutex;
    SpecCache<LoopSpec> specs;
    std::string key;
    std::vector<const Arg *> argp;
    std::vector<KernelArg> kargs, launch_args;

    const LoopSpec &spec_for(const std::vector<Arg> &args);
};

namespace {

std::string spec_text(const ParallelSpec &spec) {
    std::string out;
    for (const auto &[label, p] : spec)
        out += label + "(" + std::to_string(p.threads) + (p.reduce ? ",reduce," : ",,") +
               std::to_string(p.tpb) + ")";
    return out;
}

} // namespace

const LoopSpec &LoopFunctionState::spec_for(const std::vector<Arg> &args) {
    if (args.size() != names.size())
        throw UsageError("'" + func + "' takes " + std::to_string(names.size()) +
                         " argument(s), but " + std::to_string(args.size()) + " were given");
    // The key: types, then the values of integer scalars and the sizes of arrays (ParPy
    // specialises on both).
    key.clear();
    for (const Arg &a : args) {
        append_type_key(key, a);
        if (a.is_array()) {
            key += "#" + std::to_string(a.array().size()) + ";";
        } else if (a.type().is_integer() || a.type().is_bool()) {
            int64_t v = 0;
            a.convert_scalar(Scalar::I64, &v);
            key += "=" + std::to_string(v) + ";";
        }
    }
    return specs.get(key, [&] {
        loops::Specialisation sp =
            loops::specialise(*program.data().module, func, spec, args, options.precision,
                              gpu ? backend->name() : "cpu");
        LoopSpec out;
        out.code = std::move(sp.code);
        out.packed = std::move(sp.packed);
        loops::Unit &unit = sp.unit;
        ModuleSource src;
        src.source = std::move(unit.source);
        src.symbols = unit.symbols;
        src.primitive = "loop_function";
        std::string sig = func + "(" + signature_text(names, out.packed) + ")[" + key + "]" +
                          spec_text(spec) +
                          (options.precision == Precision::Single ? ";single" : "");
        src.signature = sig;
        src.fast_math = options.fast_math;
        apply_external_options(src, options, backend->name()); // includes, libs, extra_flags
        out.module = backend->compile(src);
        out.source = std::move(src.source);
        if (gpu) {
            for (size_t k = 0; k < out.code.kernels.size(); ++k)
                out.kernels[out.code.kernels[k]] = out.module->function(unit.symbols[k]);
        } else {
            out.entry = out.module->function(unit.symbols[0]);
        }
        for (size_t k = 0; k < out.code.frame.size(); ++k)
            out.frame.push_back(std::make_shared<FrameBuffer>(*backend, 8));
        for (const auto &s : out.code.segments)
            out.parts.push_back(s.parts > 0
                                    ? std::make_shared<FrameBuffer>(*backend, size_t(s.parts) * 8)
                                    : nullptr);
        return out;
    });
}

namespace loops {

Specialisation specialise(const ast::Module &module, const std::string &func,
                          const ParallelSpec &spec, const std::vector<Arg> &args,
                          Precision precision, const std::string &backend) {
    const ast::FunctionDef *fn = module.resolve_function(func);
    if (!fn) throw UsageError("no function named '" + func + "' in " + module.source->name());
    if (args.size() != fn->params.size())
        throw UsageError("'" + func + "' takes " + std::to_string(fn->params.size()) +
                         " argument(s), but " + std::to_string(args.size()) + " were given");
    const auto declared = declared_param_types(module, *fn);
    KernelRequest request{func, {}, {}};
    auto entry = std::make_shared<LoopEntry>();
    entry->function = func;
    for (size_t k = 0; k < args.size(); ++k) {
        const std::string &pname = fn->params[k].name;
        BoundParam b = bind_param(func, pname, declared[k], args[k].type(), precision);
        if (b.for_request) request.arg_types[pname] = b.type;
        if (args[k].is_array()) {
            entry->shapes[pname] = args[k].shape();
        } else if (b.type.is_integer()) {
            int64_t v = 0;
            args[k].convert_scalar(Scalar::I64, &v);
            entry->values[pname] = v;
        }
    }
    CompileOptions copts;
    copts.precision = precision;
    copts.backend = backend;
    copts.loop_entry = entry;
    auto m = build_ir(module, {request}, copts);
    const ir::Function *f = m->find(func);
    SMELT_INTERNAL_ASSERT(f, "build_ir did not produce '" << func << "'");
    Plan plan = make_plan(*m, *f, spec);
    Specialisation out;
    const BackendRow *row = find_backend_row(backend);
    out.code = outline(*m, *f, plan, row && row->work_groups);
    for (const auto &p : f->params)
        out.packed.push_back(p->type);
    out.unit = make_unit(out.code, backend);
    return out;
}

} // namespace loops
} // namespace primitives

using primitives::LoopFunctionState;

LoopFunction::LoopFunction(const Program &program, const std::string &name, ParallelSpec spec,
                           Options options)
    : s_(std::make_unique<LoopFunctionState>(program)) {
    LoopFunctionState &s = *s_;
    s.func = name;
    s.spec = std::move(spec);
    s.options = primitives::with_environment(std::move(options));
    const ast::Module &module = *program.data().module;
    const ast::FunctionDef *fn = module.resolve_function(name);
    if (!fn) throw UsageError("no function named '" + name + "' in " + program.name());
    for (const auto &[label, p] : s.spec)
        if (p.threads < 0 || p.tpb < 0)
            throw UsageError("the parallel spec of label '" + label +
                             "' has a negative thread count");
    for (const auto &p : fn->params)
        s.names.push_back(p.name);
    s.backend = &primitives::resolve_backend(s.options);
    const BackendRow *row = find_backend_row(s.backend->name());
    s.gpu = row && row->work_groups;
}

LoopFunction::~LoopFunction() = default;
LoopFunction::LoopFunction(LoopFunction &&) noexcept = default;
LoopFunction &LoopFunction::operator=(LoopFunction &&) noexcept = default;

void LoopFunction::operator()(const std::vector<Arg> &args) {
    LoopFunctionState &s = *s_;
    profile::Scope profile(*s.backend, "LoopFunction", s.func);
    std::lock_guard<std::mutex> lock(s.mutex);
    const primitives::LoopSpec &spec = s.spec_for(args);
    s.argp.clear();
    for (const Arg &a : args)
        s.argp.push_back(&a);
    primitives::pack_args(s.argp, spec.packed, s.names, *s.backend, s.kargs);
    for (const auto &f : spec.frame)
        s.kargs.push_back(KernelArg::of(f->buffer));
    if (!s.gpu) {
        s.backend->launch(spec.entry, LaunchDims::linear(1), s.kargs);
        return;
    }
    for (size_t k = 0; k < spec.code.segments.size(); ++k) {
        const primitives::loops::SegmentCode &seg = spec.code.segments[k];
        if (seg.kind != primitives::loops::SegmentKind::Sequential && seg.total == 0) continue;
        for (const auto &l : seg.launches) {
            s.launch_args = s.kargs;
            if (l.parts) s.launch_args.push_back(KernelArg::of(spec.parts[k]->buffer));
            for (size_t bytes : l.local_bytes)
                s.launch_args.push_back(KernelArg::local_memory(bytes));
            s.backend->launch(spec.kernels.at(l.kernel),
                              LaunchDims::linear(l.groups * l.group_size, l.group_size),
                              s.launch_args);
        }
    }
}

std::string LoopFunction::source(const std::vector<Arg> &args) {
    std::lock_guard<std::mutex> lock(s_->mutex);
    return s_->spec_for(args).source;
}

} // namespace smelt
