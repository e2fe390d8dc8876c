// Reduction: reduce_expr over map(i, ...) or over an array's elements, deterministic for a given
// thread count (see the class comment in smelt.h and primitives/cpu/reduction_wrapper.cpp).
#include "codegen/c_like.h"
#include "primitives/binding.h"
#include "primitives/checked_run.h"
#include "primitives/combine.h"
#include "primitives/length_check.h"
#include "primitives/profile.h"
#include "primitives/program_data.h"
#include "primitives/spec_cache.h"
#include "primitives/translation_unit.h"

#include <mutex>
#include <optional>

namespace smelt {
namespace primitives {

struct ReductionSpec {
    CompiledKernel kernel;
    std::vector<Type> packed;
    std::vector<bool> indexed_at_item; // of the map function's parameters (length_check.h)
    // Checked modes: the entry takes the table of ir/passes/bounds_check.h after the user's
    // arguments (also in `packed`), and these are its sites.
    bool checked = false;
    std::vector<ir::BoundsSite> sites;
};

// The host copy of Reduction::start()'s value, shared with the PendingValues it gave.
struct PendingSlot {
    std::mutex mutex;
    std::unique_ptr<HostStage> stage;
    DType dtype = DType::Float64;
    uint64_t generation = 0; // of the last start()
};

struct ReductionState {
    std::optional<Program> program;
    std::string reduce_expr, map_func, neutral;
    DType dtype_out = DType::Float64; // after the precision switch
    Options options;
    Backend *backend = nullptr;
    const PrimitiveTarget *target = nullptr;
    CombineModules combine;
    std::vector<std::string> names; // the map's parameters after the index, or {"ary"}

    std::mutex mutex;
    SpecCache<ReductionSpec> specs;
    Buffer result;                        // one element of dtype_out, allocated on first use
    std::shared_ptr<PendingSlot> pending; // start()'s host copies, made on first use
    std::string key;
    std::vector<const Arg *> argp;
    std::vector<KernelArg> kargs;

    ~ReductionState() {
        if (result.handle) backend->release(result);
    }

    CompileOptions compile_options() const {
        CompileOptions o;
        o.precision = options.precision;
        o.backend = backend->name();
        return o;
    }

    ReductionSpec specialise(const std::vector<Arg> &args) const;
};

ReductionSpec ReductionState::specialise(const std::vector<Arg> &args) const {
    const Scalar acc = dtype_to_scalar(dtype_out);
    ReductionWrapper w;
    w.out = acc;
    w.ops = combine.symbols;
    std::vector<const ir::Module *> modules;
    std::shared_ptr<ir::Module> m;
    std::vector<bool> indexed;
    std::string signature;
    ReductionSpec spec;
    // Without a map the wrapper reads the array in range itself: nothing to check.
    spec.checked = !map_func.empty() && (options.bounds_check || options.check_finite);
    if (map_func.empty()) {
        // A shaped array is reduced over all its elements.
        const Type flat = Type::pointer(args[0].type().elem);
        w.params.push_back({"ary", flat});
        w.array_param = 0;
        signature = "ary=" + flat.str();
    } else {
        const ast::Module &module = *program->data().module;
        const ast::FunctionDef &fn = *module.resolve_function(map_func);
        const auto declared = declared_param_types(module, fn);
        KernelRequest request{map_func, {}, {}};
        if (!declared[0]) request.arg_types[fn.params[0].name] = Type::scalar(Scalar::I64);
        for (size_t k = 0; k < names.size(); ++k) {
            BoundParam b =
                bind_param(map_func, names[k], declared[k + 1], args[k].type(), options.precision);
            if (b.for_request) request.arg_types[names[k]] = b.type;
        }
        m = build_ir(module, {request}, compile_options());
        // Before the bounds check rewrites the indices it looks for.
        indexed = indexed_at_item(*m->find(map_func));
        if (spec.checked) {
            ir::CheckedEntry entry = ir::entry_with_consecutive_slots(*m->find(map_func), 1);
            entry.check_return = true; // the value reduced
            ir::BoundsChecked c =
                ir::bounds_check(*m, {entry}, options.bounds_check, options.check_finite);
            m = std::move(c.module);
            spec.sites = std::move(c.sites);
        }
        const ir::Function *f = m->find(map_func);
        SMELT_INTERNAL_ASSERT(f && f->params.size() == names.size() + 1 + (spec.checked ? 1 : 0),
                              "map " << map_func);
        if (!f->return_type.is_numeric() && !f->return_type.is_bool())
            throw UsageError("the map function '" + map_func + "' must return a number");
        Call call;
        call.symbol = codegen::function_symbol(*m, map_func);
        call.result = f->return_type;
        call.args.push_back({CallArg::Kind::Index, -1, f->params[0]->type});
        std::vector<Type> types;
        for (size_t k = 0; k < names.size(); ++k) {
            const Type &t = f->params[k + 1]->type;
            w.params.push_back({names[k], t});
            call.args.push_back({CallArg::Kind::Param, static_cast<int>(k), t});
            types.push_back(t);
        }
        if (spec.checked) {
            const Type &t = f->params.back()->type;
            w.params.push_back({ir::kBoundsTableParam, t});
            call.args.push_back({CallArg::Kind::Param, static_cast<int>(names.size()), t});
        }
        w.map = call;
        modules.push_back(m.get());
        signature = map_func + "(" + signature_text(names, types) + ")";
    }
    modules.push_back(combine.combine.get());
    modules.push_back(combine.neutral.get());
    signature += ";" + reduce_expr + ";" + neutral + ";" + dtype_name(dtype_out) +
                 (options.precision == Precision::Single ? ";single" : "") +
                 (spec.checked && options.bounds_check ? ";bounds" : "") +
                 (spec.checked && options.check_finite ? ";finite" : "");
    spec.indexed_at_item = std::move(indexed);
    for (const auto &p : w.params)
        spec.packed.push_back(p.type);
    spec.kernel = compile_unit(*backend, *target,
                               assemble_unit(*target, modules, target->reduction_wrapper(w)),
                               "reduction", signature, options);
    return spec;
}

} // namespace primitives

using primitives::ReductionState;

Reduction::Reduction(const Program *program, std::string reduce_expr, std::string map_func,
                     DType dtype_out, std::string neutral, Options options)
    : s_(std::make_unique<ReductionState>()) {
    ReductionState &s = *s_;
    if (program) s.program = *program;
    s.reduce_expr = std::move(reduce_expr);
    s.map_func = std::move(map_func);
    s.neutral = std::move(neutral);
    s.options = primitives::with_environment(std::move(options));
    s.dtype_out = s.options.precision == Precision::Single && dtype_out == DType::Float64
                      ? DType::Float32
                      : dtype_out;
    s.backend = &primitives::resolve_backend(s.options);
    s.target = &primitives::primitive_target(*s.backend);
    const ast::Module *user = nullptr;
    if (!s.map_func.empty()) {
        if (!program) throw UsageError("Reduction: map_func '" + s.map_func + "' needs a Program");
        user = program->data().module.get();
        const ast::FunctionDef *fn = user->resolve_function(s.map_func);
        if (!fn) throw UsageError("no function named '" + s.map_func + "' in " + program->name());
        if (fn->params.empty())
            throw UsageError("the map function '" + s.map_func + "' must take the index i first");
        for (size_t k = 1; k < fn->params.size(); ++k)
            s.names.push_back(fn->params[k].name);
    } else {
        s.names.push_back("ary");
    }
    s.combine =
        primitives::compile_combine(s.reduce_expr, "<reduce_expr>", s.neutral,
                                    dtype_to_scalar(s.dtype_out), user, s.compile_options());
}

Reduction::~Reduction() = default;
Reduction::Reduction(Reduction &&) noexcept = default;
Reduction &Reduction::operator=(Reduction &&) noexcept = default;

namespace {

// Runs the reduction of `args` into out[0] (device memory of one dtype_out element); the caller
// holds s.mutex.
void run_into(ReductionState &s, const std::vector<Arg> &args, const Buffer &out) {
    profile::Scope profile(*s.backend, "Reduction", s.reduce_expr, s.map_func);
    int64_t n = -1;
    if (s.map_func.empty()) {
        if (args.size() != 1 || !args[0].is_array())
            throw UsageError("a Reduction without map_func takes one array argument");
    } else if (args.size() != s.names.size()) {
        throw UsageError("the map function '" + s.map_func + "' takes " +
                         std::to_string(s.names.size()) + " argument(s) after the index, but " +
                         std::to_string(args.size()) + " were given");
    }
    // The map function runs for every i < len() of its first array (a shaped array's first
    // extent); without one, every element is reduced.
    for (const Arg &a : args)
        if (a.is_array()) {
            n = s.map_func.empty() ? static_cast<int64_t>(a.array().size()) : a.length();
            break;
        }
    if (n < 0)
        throw UsageError("the map function '" + s.map_func +
                         "' is given no array, so the item count is unknown");
    s.key.clear();
    for (const Arg &a : args)
        primitives::append_type_key(s.key, s.map_func.empty() ? Arg(a.array()) : a);
    const primitives::ReductionSpec &spec = s.specs.get(s.key, [&] { return s.specialise(args); });
    s.argp.clear();
    for (const Arg &a : args)
        s.argp.push_back(&a);
    primitives::check_lengths("the map function '" + s.map_func + "'", s.names, s.argp,
                              spec.indexed_at_item, n);
    if (!spec.checked) {
        primitives::pack_args(s.argp, spec.packed, s.names, *s.backend, s.kargs);
        s.target->run_reduction(*s.backend, spec.kernel, n, s.kargs, out);
    } else {
        primitives::CheckedLaunch checked(s.argp, s.names, *s.backend);
        primitives::pack_args(checked.args, spec.packed, checked.names, *s.backend, s.kargs);
        s.target->run_reduction(*s.backend, spec.kernel, n, s.kargs, out);
        checked.report(spec.sites);
    }
}

} // namespace

Value Reduction::operator()(const std::vector<Arg> &args) {
    ReductionState &s = *s_;
    std::lock_guard<std::mutex> lock(s.mutex);
    const size_t bytes = dtype_size(s.dtype_out);
    if (!s.result.handle) s.result = s.backend->allocate(bytes);
    run_into(s, args, s.result);
    alignas(8) unsigned char out[8] = {};
    s.backend->read(s.result, 0, out, bytes);
    return Value(s.dtype_out, out);
}

PendingValue Reduction::start(const std::vector<Arg> &args, const Array &result) {
    ReductionState &s = *s_;
    std::lock_guard<std::mutex> lock(s.mutex);
    if (result.is_null() || result.size() < 1 || result.dtype() != s.dtype_out ||
        &result.backend() != s.backend)
        throw UsageError("Reduction::start: the result must be an Array of at least one " +
                         std::string(dtype_name(s.dtype_out)) + " on the '" + s.backend->name() +
                         "' backend (the reduction's dtype_out after the precision switch)");
    run_into(s, args, result.buffer());
    if (!s.pending) {
        s.pending = std::make_shared<primitives::PendingSlot>();
        s.pending->stage = s.backend->host_stage(8);
        s.pending->dtype = s.dtype_out;
    }
    primitives::PendingSlot &slot = *s.pending;
    std::lock_guard<std::mutex> slot_lock(slot.mutex);
    slot.stage->start(result.buffer(), 0, dtype_size(s.dtype_out));
    PendingValue p;
    p.slot_ = s.pending;
    p.generation_ = ++slot.generation;
    return p;
}

Value PendingValue::get() const {
    if (!slot_) throw UsageError("PendingValue::get() on an empty PendingValue");
    std::lock_guard<std::mutex> lock(slot_->mutex);
    if (generation_ != slot_->generation)
        throw UsageError("PendingValue::get(): its Reduction was started again since; a pending "
                         "value is valid until the next start()");
    return Value(slot_->dtype, slot_->stage->wait());
}

Value Reduction::operator()(const NamedArgs &named) {
    if (s_->map_func.empty())
        throw UsageError("a Reduction without map_func takes its one array by position, not by "
                         "name");
    return (*this)(primitives::order_named(named.entries(), s_->names, "'" + s_->map_func + "'"));
}

const std::string &Reduction::source() const {
    static const std::string none;
    const auto *spec = s_->specs.last();
    return spec ? spec->kernel.source : none;
}

} // namespace smelt
