// Elementwise: f(i, args...) for i in [0, n), specialised on the argument types at the call.
#include "codegen/c_like.h"
#include "primitives/binding.h"
#include "primitives/checked_run.h"
#include "primitives/elementwise_unit.h"
#include "primitives/length_check.h"
#include "primitives/profile.h"
#include "primitives/program_data.h"
#include "primitives/spec_cache.h"
#include "primitives/translation_unit.h"

#include <mutex>
#include <set>

namespace smelt {
namespace primitives {

namespace {

// Calls on_stmt for every statement of `b`, nested ones included, and on_expr for every
// expression in them, subexpressions included.
template <class OnStmt, class OnExpr>
void walk(const ir::Block &b, const OnStmt &on_stmt, const OnExpr &on_expr) {
    auto expr = [&](const auto &self, const ir::ExprPtr &e) -> void {
        if (!e) return;
        on_expr(*e);
        for (const auto &a : e->args)
            self(self, a);
    };
    for (const auto &st : b) {
        on_stmt(*st);
        for (const auto &e : {st->value, st->cond, st->start, st->stop, st->step})
            expr(expr, e);
        for (const auto &e : st->indices)
            expr(expr, e);
        walk(st->body, on_stmt, on_expr);
        walk(st->orelse, on_stmt, on_expr);
    }
}

// Whether `f` reads `p` at f's own index: a load p[i] with i = f's first parameter, and neither
// p nor i assigned anywhere (so p[i] in f is the item's element).
bool reads_at_index(const ir::Function &f, const ir::Var *p) {
    const ir::Var *i = f.params[0].get();
    bool found = false, assigned = false;
    walk(
        f.body,
        [&](const ir::Stmt &st) {
            if (st.kind == ir::StmtKind::Assign && (st.var.get() == i || st.var.get() == p))
                assigned = true;
        },
        [&](const ir::Expr &e) {
            if (e.kind == ir::ExprKind::Load && e.var.get() == p && e.args.size() == 1 &&
                e.args[0]->kind == ir::ExprKind::VarRef && e.args[0]->var.get() == i)
                found = true;
        });
    return found && !assigned;
}

// Whether `f` or a module function it calls (transitively) has a for or while loop.
bool loops(const ir::Module &m, const ir::Function &f, std::set<const ir::Function *> &seen) {
    if (!seen.insert(&f).second) return false;
    bool found = false;
    std::vector<const ir::Function *> callees;
    walk(
        f.body,
        [&](const ir::Stmt &st) {
            found = found || st.kind == ir::StmtKind::For || st.kind == ir::StmtKind::While;
        },
        [&](const ir::Expr &e) {
            if (e.kind == ir::ExprKind::Call && !e.is_builtin)
                if (const ir::Function *g = m.find(e.callee)) callees.push_back(g);
        });
    for (const ir::Function *g : callees)
        found = found || loops(m, *g, seen);
    return found;
}

// True when no two array arguments share memory. Buffers of different handles are different
// allocations, except where handles are host pointers (wrapped host memory may overlap).
bool distinct_arrays(const std::vector<const Arg *> &args, const Backend &backend) {
    std::vector<const Buffer *> bufs;
    for (const Arg *a : args)
        if (a->is_array()) bufs.push_back(&a->array().buffer());
    for (size_t x = 0; x < bufs.size(); ++x)
        for (size_t y = x + 1; y < bufs.size(); ++y) {
            if (bufs[x]->handle == bufs[y]->handle) return false;
            if (backend.host_addressable()) {
                auto lo = [](const Buffer *b) { return static_cast<const char *>(b->handle); };
                if (lo(bufs[x]) < lo(bufs[y]) + bufs[y]->bytes &&
                    lo(bufs[y]) < lo(bufs[x]) + bufs[x]->bytes)
                    return false;
            }
        }
    return true;
}

} // namespace

size_t elementwise_arity(const ast::Module &module, const std::string &func) {
    const ast::FunctionDef *fn = module.resolve_function(func);
    if (!fn) throw UsageError("no function named '" + func + "' in " + module.source->name());
    if (fn->params.empty())
        throw UsageError("'" + func +
                         "' takes no parameters; an elementwise function takes the "
                         "index i first");
    return fn->params.size() - 1;
}

ElementwiseUnit elementwise_unit(const ast::Module &module, const std::string &func,
                                 const std::vector<std::optional<Type>> &given, Precision precision,
                                 const PrimitiveTarget &target, const std::string &backend_name,
                                 const ElementwiseArgLayout &layout, bool check_index,
                                 bool check_finite) {
    const bool bounds_check = check_index || check_finite;
    const size_t arity = elementwise_arity(module, func);
    if (given.size() != arity)
        throw UsageError("'" + func + "' takes " + std::to_string(arity) +
                         " argument(s) after the index, but " + std::to_string(given.size()) +
                         " were given");
    const ast::FunctionDef &fn = *module.resolve_function(func);
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
    // Before the bounds check rewrites the indices it looks for.
    unit.indexed_at_item = indexed_at_item(*m->find(func));
    if (bounds_check) {
        ir::BoundsChecked checked = ir::bounds_check(
            *m, {ir::entry_with_consecutive_slots(*m->find(func), 1)}, check_index, check_finite);
        m = std::move(checked.module);
        unit.bounds_checked = true;
        unit.bounds_sites = std::move(checked.sites);
    }
    const ir::Function *f = m->find(func);
    SMELT_INTERNAL_ASSERT(f && f->params.size() == arity + 1 + (bounds_check ? 1 : 0),
                          "specialisation of " << func);

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
    if (bounds_check) {
        const Type &t = f->params[arity + 1]->type;
        w.params.push_back({ir::kBoundsTableParam, t});
        w.func.args.push_back({CallArg::Kind::Param, static_cast<int>(arity), t});
        unit.packed.push_back(t);
    }
    w.distinct_arrays = layout.distinct_arrays;
    w.preload.assign(w.params.size(), false);
    if (w.distinct_arrays)
        for (size_t k = 0; k < arity; ++k)
            w.preload[k] = k < layout.covers_n.size() && layout.covers_n[k] &&
                           f->params[k + 1]->type.is_pointer() &&
                           reads_at_index(*f, f->params[k + 1].get());
    std::set<const ir::Function *> seen;
    w.loops = loops(*m, *f, seen);
    unit.items_per_thread = target.elementwise_items_per_thread(w);
    unit.entries = target.elementwise_entry_points(w);
    unit.source = assemble_unit(target, {m.get()}, target.elementwise_wrapper(w));
    unit.signature = func + "(" + signature_text(unit.names, unit.packed) + ")" +
                     (precision == Precision::Single ? ";single" : "") +
                     (check_index ? ";bounds" : "") + (check_finite ? ";finite" : "");
    return unit;
}

struct ElementwiseSpec {
    CompiledKernel kernel;
    std::vector<Type> packed;
    std::vector<bool> indexed_at_item;
    bool bounds_checked = false;
    std::vector<ir::BoundsSite> bounds_sites;
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
    ElementwiseArgLayout layout;
};

} // namespace primitives

using primitives::ElementwiseState;

Elementwise::Elementwise(const Program &program, const std::string &func, Options options)
    : s_(std::make_unique<ElementwiseState>(program)) {
    s_->func = func;
    s_->options = primitives::with_environment(std::move(options));
    const ast::Module &module = *program.data().module;
    const size_t arity = primitives::elementwise_arity(module, func);
    const ast::FunctionDef &fn = *module.resolve_function(func);
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
        if (a.is_array()) return (*this)(a.length(), args);
    throw UsageError("'" + s_->func +
                     "' is given no array, so the item count is unknown: call "
                     "it with n first");
}

void Elementwise::operator()(int64_t n, const std::vector<Arg> &args) {
    ElementwiseState &s = *s_;
    profile::Scope profile(*s.backend, "Elementwise", s.func);
    if (n < 0) throw UsageError("the item count must not be negative, not " + std::to_string(n));
    std::lock_guard<std::mutex> lock(s.mutex);
    if (args.size() != s.names.size())
        throw UsageError("'" + s.func + "' takes " + std::to_string(s.names.size()) +
                         " argument(s) after the index, but " + std::to_string(args.size()) +
                         " were given");
    s.argp.clear();
    for (const Arg &a : args)
        s.argp.push_back(&a);
    // The key: argument types, then whether the arrays are distinct and which hold n items
    // (the wrapper may then use restrict pointers and load ahead; see ElementwiseWrapper).
    primitives::ElementwiseArgLayout &layout = s.layout;
    layout.distinct_arrays = primitives::distinct_arrays(s.argp, *s.backend);
    layout.covers_n.clear();
    s.key.clear();
    for (const Arg &a : args) {
        primitives::append_type_key(s.key, a);
        layout.covers_n.push_back(a.is_array() && a.array().size() >= static_cast<size_t>(n));
    }
    s.key.push_back(layout.distinct_arrays ? 'R' : 'A');
    for (bool c : layout.covers_n)
        s.key.push_back(c ? '1' : '0');
    const primitives::ElementwiseSpec &spec = s.specs.get(s.key, [&] {
        std::vector<std::optional<Type>> given;
        for (const Arg &a : args)
            given.push_back(a.type());
        primitives::ElementwiseUnit unit = primitives::elementwise_unit(
            *s.program.data().module, s.func, given, s.options.precision, *s.target,
            s.backend->name(), layout, s.options.bounds_check, s.options.check_finite);
        primitives::ElementwiseSpec out;
        out.kernel =
            primitives::compile_unit(*s.backend, *s.target, std::move(unit.source), "elementwise",
                                     unit.signature, s.options, std::move(unit.entries));
        out.packed = std::move(unit.packed);
        out.kernel.items_per_thread = unit.items_per_thread;
        out.indexed_at_item = std::move(unit.indexed_at_item);
        out.bounds_checked = unit.bounds_checked;
        out.bounds_sites = std::move(unit.bounds_sites);
        return out;
    });
    primitives::check_lengths("'" + s.func + "'", s.names, s.argp, spec.indexed_at_item, n);
    if (!spec.bounds_checked) {
        primitives::pack_args(s.argp, spec.packed, s.names, *s.backend, s.kargs);
        s.target->run_elementwise(*s.backend, spec.kernel, n, s.kargs);
        return;
    }
    primitives::CheckedLaunch checked(s.argp, s.names, *s.backend);
    primitives::pack_args(checked.args, spec.packed, checked.names, *s.backend, s.kargs);
    s.target->run_elementwise(*s.backend, spec.kernel, n, s.kargs);
    checked.report(spec.bounds_sites);
}

void Elementwise::operator()(const NamedArgs &named, int64_t n) {
    std::vector<Arg> args =
        primitives::order_named(named.entries(), s_->names, "'" + s_->func + "'");
    if (n < 0) return (*this)(args);
    (*this)(n, args);
}

const std::string &Elementwise::source() const {
    static const std::string none;
    const auto *spec = s_->specs.last();
    return spec ? spec->kernel.source : none;
}

} // namespace smelt
