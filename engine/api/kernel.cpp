// smelt::Kernel (smelt.h): a low-level kernel specialised on the argument types at the call, one
// RawKernel (primitives/raw_kernel.h) per distinct argument-type list.
#include "primitives/binding.h"
#include "primitives/profile.h"
#include "primitives/program_data.h"
#include "primitives/raw_kernel.h"
#include "primitives/spec_cache.h"
#include "support/backend_table.h"

#include <mutex>

namespace smelt {
namespace primitives {

struct KernelState {
    explicit KernelState(Program p) : program(std::move(p)) {}
    Program program;
    std::string func;
    Options options;
    Backend *backend = nullptr;
    std::vector<std::string> names;
    std::vector<std::optional<Type>> declared;

    std::mutex mutex;
    SpecCache<RawKernel> specs;
    std::string key;
};

namespace {

// append_type_key's byte for an Array or a scalar (all below 0x80), or one of its own for
// LocalMem: with its dtype, or without one.
void append_launch_key(std::string &key, const LaunchArg &a) {
    if (!a.is_local()) return append_type_key(key, a.arg());
    const auto &dtype = a.local().dtype;
    key.push_back(static_cast<char>(dtype ? 0x80 + static_cast<int>(*dtype) : 0xFF));
}

// bind_param for a launch argument: LocalMem goes to an l<type>p parameter (declared, or typed by
// the LocalMem's dtype), and only there.
BoundParam bind_kernel_param(const std::string &func, const std::string &param,
                             const std::optional<Type> &declared, const LaunchArg &a,
                             Precision precision) {
    const std::string who = "parameter '" + param + "' of '" + func + "'";
    const bool single = precision == Precision::Single;
    const bool local_param =
        declared && declared->is_pointer() && declared->space == AddrSpace::Local;
    if (!a.is_local()) {
        if (local_param)
            throw UsageError(who + " is declared " + declared->str() +
                             " (local memory) and needs a LocalMem argument");
        return bind_param(func, param, declared, a.arg().type(), precision);
    }
    const LocalMem &m = a.local();
    if (declared) {
        if (!local_param)
            throw UsageError(who + " is declared " + declared->str() +
                             " but is given LocalMem, which only an l<type>p parameter takes");
        Type compiled = single ? demote_to_single(*declared) : *declared;
        if (m.dtype && dtype_to_scalar(*m.dtype) != compiled.elem)
            throw UsageError(who + " is declared " + declared->str() +
                             (compiled != *declared
                                  ? " (" + compiled.str() + " in single precision)"
                                  : std::string()) +
                             " but is given LocalMem of " + dtype_name(*m.dtype));
        return {compiled, false};
    }
    if (!m.dtype)
        throw UsageError(who + " has no type and is given LocalMem without a dtype: annotate it "
                               "l<type>p or give LocalMem(count, dtype)");
    // Local memory is allocated per launch in the parameter's type, so demoting is harmless.
    Type t = Type::pointer(dtype_to_scalar(*m.dtype), AddrSpace::Local);
    return {single ? demote_to_single(t) : t, true};
}

} // namespace
} // namespace primitives

using primitives::KernelState;

Kernel::Kernel(const Program &program, const std::string &func, Options options)
    : s_(std::make_unique<KernelState>(program)) {
    KernelState &s = *s_;
    s.func = func;
    s.options = primitives::with_environment(std::move(options));
    const ast::Module &module = *program.data().module;
    const ast::FunctionDef *fn = module.resolve_function(func);
    if (!fn) throw UsageError("no function named '" + func + "' in " + program.name());
    s.backend = &primitives::resolve_backend(s.options);
    const std::string backend = s.backend->name();
    if (const BackendRow *row = find_backend_row(backend); !row || !row->work_groups)
        throw UsageError("Kernel('" + func + "') needs the " + backend_families_text(" or ", true) +
                         " backend, where work-groups and local memory exist; the backend is " +
                         backend + ": use Elementwise there");
    for (const auto &p : fn->params)
        s.names.push_back(p.name);
    s.declared = primitives::declared_param_types(module, *fn);
}

Kernel::~Kernel() = default;
Kernel::Kernel(Kernel &&) noexcept = default;
Kernel &Kernel::operator=(Kernel &&) noexcept = default;

void Kernel::operator()(int64_t global_size, int64_t local_size,
                        const std::vector<LaunchArg> &args) {
    (*this)({global_size, 1, 1}, {local_size, 1, 1}, args);
}

void Kernel::operator()(const std::array<int64_t, 3> &global_size,
                        const std::array<int64_t, 3> &local_size,
                        const std::vector<LaunchArg> &args) {
    KernelState &s = *s_;
    profile::Scope profile(*s.backend, "Kernel", s.func);
    LaunchDims dims;
    bool empty = false;
    for (int k = 0; k < 3; ++k) {
        const std::string dim = " in dimension " + std::to_string(k);
        if (local_size[k] < 1)
            throw UsageError("Kernel '" + s.func + "': the work-group size" + dim +
                             " must be positive, not " + std::to_string(local_size[k]));
        if (global_size[k] < 0)
            throw UsageError("Kernel '" + s.func + "': the global size" + dim +
                             " must not be negative, not " + std::to_string(global_size[k]));
        // OpenCL requires it, and GDIM_k = global / local only means something when it holds.
        if (global_size[k] % local_size[k] != 0)
            throw UsageError(
                "Kernel '" + s.func + "': the global size " + std::to_string(global_size[k]) + dim +
                " is not a multiple of the work-group size " + std::to_string(local_size[k]) +
                " (round it up and check bounds in the kernel)");
        dims.global[k] = global_size[k];
        dims.local[k] = local_size[k];
        empty = empty || global_size[k] == 0;
    }

    std::lock_guard<std::mutex> lock(s.mutex);
    if (args.size() != s.names.size())
        throw UsageError("'" + s.func + "' takes " + std::to_string(s.names.size()) +
                         " argument(s), but " + std::to_string(args.size()) + " were given");
    s.key.clear();
    for (const LaunchArg &a : args)
        primitives::append_launch_key(s.key, a);
    const RawKernel &spec = s.specs.get(s.key, [&] {
        std::map<std::string, Type> arg_types;
        for (size_t k = 0; k < args.size(); ++k) {
            primitives::BoundParam b = primitives::bind_kernel_param(
                s.func, s.names[k], s.declared[k], args[k], s.options.precision);
            if (b.for_request) arg_types[s.names[k]] = b.type;
        }
        return RawKernel(s.program.data().module, s.func, std::move(arg_types), s.options.precision,
                         s.backend, s.options.fast_math, s.options.bounds_check,
                         s.options.check_finite, s.options);
    });
    if (empty) return; // compiled (so mistakes show), but nothing to run
    spec.launch(dims, args);
}

void Kernel::operator()(int64_t global_size, int64_t local_size, const NamedLaunchArgs &named) {
    (*this)({global_size, 1, 1}, {local_size, 1, 1}, named);
}

void Kernel::operator()(const std::array<int64_t, 3> &global_size,
                        const std::array<int64_t, 3> &local_size, const NamedLaunchArgs &named) {
    (*this)(global_size, local_size,
            primitives::order_named(named.entries(), s_->names, "Kernel '" + s_->func + "'"));
}

const std::string &Kernel::source() const {
    static const std::string none;
    const RawKernel *spec = s_->specs.last();
    return spec ? spec->source() : none;
}

} // namespace smelt
