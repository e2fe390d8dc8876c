// Scan: input/output/segment functions called with named arguments, compiled together with the
// scan expression into one two-pass blocked scan (see smelt.h and cpu/scan_wrapper.cpp).
#include "codegen/c_like.h"
#include "primitives/binding.h"
#include "primitives/checked_run.h"
#include "primitives/combine.h"
#include "primitives/length_check.h"
#include "primitives/profile.h"
#include "primitives/program_data.h"
#include "primitives/spec_cache.h"
#include "primitives/translation_unit.h"

#include <algorithm>
#include <mutex>

namespace smelt {
namespace primitives {

namespace {

enum class Role { Input, Output, Segment };

const char *role_name(Role r) {
    return r == Role::Input ? "input" : r == Role::Output ? "output" : "segment";
}

bool is_item_name(const std::string &p) {
    return p == "item" || p == "prev_item" || p == "last_item";
}

bool is_special(const std::string &p) {
    return p == "i" || p == "N" || is_item_name(p);
}

} // namespace

struct ScanFunction {
    Role role;
    const ast::FunctionDef *fn = nullptr;
    std::vector<std::optional<Type>> declared;
};

struct ScanSpec {
    CompiledKernel kernel;
    std::vector<Type> packed;
    std::vector<bool> indexed_at_item; // per named argument (length_check.h)
    // Checked modes: every function takes the table of ir/passes/bounds_check.h after the
    // named arguments (also in `packed`), and these are its sites.
    bool checked = false;
    std::vector<ir::BoundsSite> sites;
};

struct ScanState {
    explicit ScanState(Program p) : program(std::move(p)) {}
    Program program;
    std::string scan_expr, neutral;
    DType dtype = DType::Float64; // after the precision switch
    Options options;
    Backend *backend = nullptr;
    const PrimitiveTarget *target = nullptr;
    CombineModules combine;
    std::vector<ScanFunction> funcs;       // input, output[, segment]
    std::vector<std::string> names;        // named arguments, in order of first appearance
    std::vector<std::string> input_params; // the input's named parameters (n comes from them)

    std::mutex mutex;
    SpecCache<ScanSpec> specs;
    std::string key;
    std::vector<const Arg *> argp;
    std::vector<KernelArg> kargs;

    ScanSpec specialise(const std::vector<const Arg *> &args) const;
};

ScanSpec ScanState::specialise(const std::vector<const Arg *> &args) const {
    const ast::Module &module = *program.data().module;
    const Scalar acc = dtype_to_scalar(dtype);
    const Type acc_type = Type::scalar(acc);
    // The type each named argument travels as: what the first function taking it binds it to.
    std::vector<std::optional<Type>> packed(names.size());
    std::vector<KernelRequest> requests;
    for (const ScanFunction &sf : funcs) {
        KernelRequest req{sf.fn->name, {}, {}};
        for (size_t k = 0; k < sf.fn->params.size(); ++k) {
            const std::string &p = sf.fn->params[k].name;
            const auto &decl = sf.declared[k];
            if (p == "i" || p == "N") {
                if (!decl) req.arg_types[p] = Type::scalar(Scalar::I64);
            } else if (is_item_name(p)) {
                Type want = acc_type;
                if (!decl) {
                    req.arg_types[p] = want;
                } else {
                    Type have =
                        options.precision == Precision::Single ? demote_to_single(*decl) : *decl;
                    if (have != want)
                        throw UsageError("parameter '" + p + "' of '" + sf.fn->name +
                                         "' is declared " + decl->str() +
                                         " but the scan's dtype is " + want.str());
                }
            } else {
                size_t idx = std::find(names.begin(), names.end(), p) - names.begin();
                BoundParam b =
                    bind_param(sf.fn->name, p, decl, args[idx]->type(), options.precision);
                if (b.for_request) req.arg_types[p] = b.type;
                if (!packed[idx]) packed[idx] = b.type;
            }
        }
        requests.push_back(std::move(req));
    }
    CompileOptions copts;
    copts.precision = options.precision;
    copts.backend = backend->name();
    auto m = build_ir(module, requests, copts);
    // What the length check needs, before the bounds check rewrites the indices it looks for.
    std::vector<bool> indexed(names.size(), false);
    for (const ScanFunction &sf : funcs) {
        const ir::Function *f = m->find(sf.fn->name);
        SMELT_INTERNAL_ASSERT(f && f->params.size() == sf.fn->params.size(),
                              "scan function " << sf.fn->name);
        // Each function runs for every i: the arrays it indexes at i need n elements.
        for (size_t k = 0; k < sf.fn->params.size(); ++k) {
            if (sf.fn->params[k].name != "i") continue;
            const std::vector<bool> at_i = indexed_by_param(*f, k);
            for (size_t p = 0; p < at_i.size(); ++p) {
                const size_t idx =
                    std::find(names.begin(), names.end(), sf.fn->params[p].name) - names.begin();
                if (at_i[p] && idx < names.size()) indexed[idx] = true;
            }
        }
    }
    ScanSpec spec;
    spec.checked = options.bounds_check || options.check_finite;
    if (spec.checked) {
        // Named argument k's length is in slot kBoundsTableHeader + k, for every function.
        std::vector<ir::CheckedEntry> entries;
        for (const ScanFunction &sf : funcs) {
            ir::CheckedEntry e{sf.fn->name, std::vector<int64_t>(sf.fn->params.size(), -1)};
            e.check_return = sf.role == Role::Input; // the value scanned
            for (size_t k = 0; k < sf.fn->params.size(); ++k) {
                if (sf.fn->params[k].name == "i") e.index_param = static_cast<int>(k);
                const size_t idx =
                    std::find(names.begin(), names.end(), sf.fn->params[k].name) - names.begin();
                if (idx < names.size() && m->find(sf.fn->name)->params[k]->type.is_pointer())
                    e.length_slots[k] = ir::kBoundsTableHeader + static_cast<int64_t>(idx);
            }
            entries.push_back(std::move(e));
        }
        ir::BoundsChecked c =
            ir::bounds_check(*m, entries, options.bounds_check, options.check_finite);
        m = std::move(c.module);
        spec.sites = std::move(c.sites);
    }

    ScanWrapper w;
    w.dtype = acc;
    w.ops = combine.symbols;
    for (size_t k = 0; k < names.size(); ++k)
        w.params.push_back({names[k], *packed[k]});
    if (spec.checked) w.params.push_back({ir::kBoundsTableParam, Type::pointer(Scalar::I64)});
    for (const ScanFunction &sf : funcs) {
        const ir::Function *f = m->find(sf.fn->name);
        Call call;
        call.symbol = codegen::function_symbol(*m, sf.fn->name);
        call.result = f->return_type;
        for (size_t k = 0; k < sf.fn->params.size(); ++k) {
            const std::string &p = sf.fn->params[k].name;
            CallArg a;
            a.type = f->params[k]->type;
            if (p == "i")
                a.kind = CallArg::Kind::Index;
            else if (p == "N")
                a.kind = CallArg::Kind::N;
            else if (p == "item")
                a.kind = CallArg::Kind::Item;
            else if (p == "prev_item")
                a.kind = CallArg::Kind::PrevItem;
            else if (p == "last_item")
                a.kind = CallArg::Kind::LastItem;
            else
                a.param =
                    static_cast<int>(std::find(names.begin(), names.end(), p) - names.begin());
            call.args.push_back(a);
        }
        if (spec.checked)
            call.args.push_back(
                {CallArg::Kind::Param, static_cast<int>(names.size()), f->params.back()->type});
        if (sf.role != Role::Output && !(f->return_type.is_numeric() || f->return_type.is_bool()))
            throw UsageError(std::string("the ") + role_name(sf.role) + " function '" +
                             sf.fn->name + "' must return a value");
        if (sf.role == Role::Input)
            w.input = call;
        else if (sf.role == Role::Output)
            w.output = call;
        else
            w.segment = call;
    }
    for (const auto &p : funcs[1].fn->params)
        w.output_uses_last_item |= p.name == "last_item";

    std::string signature;
    for (const ScanFunction &sf : funcs)
        signature += sf.fn->name + ",";
    signature += "(" +
                 signature_text(names,
                                [&] {
                                    std::vector<Type> t;
                                    for (size_t k = 0; k < names.size(); ++k)
                                        t.push_back(w.params[k].type);
                                    return t;
                                }()) +
                 ");" + scan_expr + ";" + neutral + ";" + dtype_name(dtype) +
                 (options.precision == Precision::Single ? ";single" : "") +
                 (options.bounds_check ? ";bounds" : "") + (options.check_finite ? ";finite" : "");
    spec.indexed_at_item = std::move(indexed);
    for (const auto &p : w.params)
        spec.packed.push_back(p.type);
    spec.kernel =
        compile_unit(*backend, *target,
                     assemble_unit(*target, {m.get(), combine.combine.get(), combine.neutral.get()},
                                   target->scan_wrapper(w)),
                     "scan", signature, options, target->scan_entry_points(w));
    return spec;
}

} // namespace primitives

using primitives::ScanState;

Scan::Scan(const Program &program, std::string input_func, std::string output_func,
           std::string scan_expr, DType dtype, std::string neutral, std::string segment_func,
           Options options)
    : s_(std::make_unique<ScanState>(program)) {
    using primitives::Role;
    ScanState &s = *s_;
    s.scan_expr = std::move(scan_expr);
    s.neutral = std::move(neutral);
    s.options = primitives::with_environment(std::move(options));
    s.dtype = s.options.precision == Precision::Single && dtype == DType::Float64 ? DType::Float32
                                                                                  : dtype;
    s.backend = &primitives::resolve_backend(s.options);
    s.target = &primitives::primitive_target(*s.backend);
    const ast::Module &module = *program.data().module;
    auto add = [&](Role role, const std::string &name) {
        const ast::FunctionDef *fn = module.resolve_function(name);
        if (!fn) throw UsageError("no function named '" + name + "' in " + program.name());
        for (const auto &p : fn->params) {
            if (role != Role::Output && primitives::is_item_name(p.name))
                throw UsageError(std::string("the ") + primitives::role_name(role) + " function '" +
                                 name + "' cannot take '" + p.name +
                                 "': only the output function gets item, prev_item and last_item");
            if (!primitives::is_special(p.name) &&
                std::find(s.names.begin(), s.names.end(), p.name) == s.names.end())
                s.names.push_back(p.name);
        }
        s.funcs.push_back({role, fn, primitives::declared_param_types(module, *fn)});
    };
    add(Role::Input, input_func);
    add(Role::Output, output_func);
    if (!segment_func.empty()) add(Role::Segment, segment_func);
    for (const auto &p : s.funcs[0].fn->params)
        if (!primitives::is_special(p.name)) s.input_params.push_back(p.name);
    s.combine = primitives::compile_combine(s.scan_expr, "<scan_expr>", s.neutral,
                                            dtype_to_scalar(s.dtype), &module, [&] {
                                                CompileOptions o;
                                                o.precision = s.options.precision;
                                                o.backend = s.backend->name();
                                                return o;
                                            }());
}

Scan::~Scan() = default;
Scan::Scan(Scan &&) noexcept = default;
Scan &Scan::operator=(Scan &&) noexcept = default;

void Scan::operator()(const std::map<std::string, Arg> &named, int64_t n) {
    ScanState &s = *s_;
    profile::Scope profile(*s.backend, "Scan", s.funcs[0].fn->name);
    std::lock_guard<std::mutex> lock(s.mutex);
    s.argp.clear();
    for (const auto &name : s.names) {
        auto it = named.find(name);
        if (it == named.end()) {
            std::string owner;
            for (const auto &sf : s.funcs)
                for (const auto &p : sf.fn->params)
                    if (p.name == name && owner.empty()) owner = sf.fn->name;
            throw UsageError("Scan: no argument named '" + name + "' (a parameter of '" + owner +
                             "')");
        }
        s.argp.push_back(&it->second);
    }
    if (named.size() != s.names.size())
        for (const auto &[name, _] : named)
            if (std::find(s.names.begin(), s.names.end(), name) == s.names.end())
                throw UsageError("Scan: '" + name +
                                 "' is not a parameter of the input, output or segment function" +
                                 (primitives::is_special(name) ? " (the scan supplies it)" : ""));
    if (n < 0) {
        for (const auto &p : s.input_params) {
            const Arg &a = named.at(p);
            if (a.is_array()) {
                n = a.length();
                break;
            }
        }
        if (n < 0)
            throw UsageError("Scan: the input function '" + s.funcs[0].fn->name +
                             "' takes no array, so the item count is unknown: give n");
    }
    s.key.clear();
    for (const Arg *a : s.argp)
        primitives::append_type_key(s.key, *a);
    const primitives::ScanSpec &spec = s.specs.get(s.key, [&] { return s.specialise(s.argp); });
    primitives::check_lengths("the scan", s.names, s.argp, spec.indexed_at_item, n);
    if (!spec.checked) {
        primitives::pack_args(s.argp, spec.packed, s.names, *s.backend, s.kargs);
        s.target->run_scan(*s.backend, spec.kernel, n, s.kargs);
        return;
    }
    primitives::CheckedLaunch checked(s.argp, s.names, *s.backend);
    primitives::pack_args(checked.args, spec.packed, checked.names, *s.backend, s.kargs);
    s.target->run_scan(*s.backend, spec.kernel, n, s.kargs);
    checked.report(spec.sites);
}

const std::string &Scan::source() const {
    static const std::string none;
    const auto *spec = s_->specs.last();
    return spec ? spec->kernel.source : none;
}

} // namespace smelt
