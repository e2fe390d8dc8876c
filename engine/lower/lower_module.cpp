// Drives lowering: one FunctionLowerer per specialisation, module constants, result types.
#include "frontend/imports.h"
#include "lower/annotations.h"
#include "lower/builtins.h"
#include "lower/lower.h"
#include "lower/lowering.h"
#include "support/backend_table.h"

#include <algorithm>
#include <functional>

namespace smelt::lower {

namespace {

void collect_assigned(const ast::Block &b, std::set<std::string> &out) {
    for (const auto &s : b) {
        for (const auto &t : s->targets)
            if (t->kind == ast::ExprKind::Name) out.insert(t->name);
        collect_assigned(s->body, out);
        collect_assigned(s->orelse, out);
    }
}

bool ends_in_return(const ir::Block &b) {
    return !b.empty() && b.back()->kind == ir::StmtKind::Return;
}

} // namespace

FunctionLowerer::FunctionLowerer(ModuleLowerer &mod, const ast::FunctionDef &fn,
                                 std::vector<Type> params, std::optional<Type> declared_result,
                                 std::string emitted_name)
    : mod_(mod), fn_(fn), sink_(mod.sink()), declared_result_(std::move(declared_result)) {
    out_ = std::make_shared<ir::Function>();
    out_->name = std::move(emitted_name);
    out_->loc = fn.loc;
    collect_assigned(fn.body, assigned_anywhere_);
    for (size_t k = 0; k < params.size(); ++k) {
        auto v = new_var(fn.params[k].name, params[k], ir::Var::Role::Param);
        out_->params.push_back(v);
        if (params[k].is_pointer() && params[k].space == AddrSpace::Local)
            out_->uses_local_memory = true;
    }
}

std::shared_ptr<ir::Function> FunctionLowerer::run() {
    block(fn_.body, out_->body);
    finish_returns();
    return out_;
}

// Decides the result type from the return statements (or the declaration), then rewrites each
// return so its value has exactly that type.
void FunctionLowerer::finish_returns() {
    Type result = Type::void_();
    const ReturnSite *first_value = nullptr, *first_bare = nullptr, *first_typed = nullptr;
    for (const auto &r : returns_) {
        if (!r.value)
            first_bare = first_bare ? first_bare : &r;
        else
            first_value = first_value ? first_value : &r;
        if (r.value && !r.value->weak && !first_typed) first_typed = &r;
    }
    if (declared_result_) {
        result = *declared_result_;
    } else if (first_value) {
        if (first_bare) {
            const ReturnSite *later =
                first_bare->loc.line > first_value->loc.line ? first_bare : first_value;
            const ReturnSite *other = later == first_bare ? first_value : first_bare;
            sink_.error(later->loc, "return paths disagree: this return " +
                                        std::string(later->value ? "has a value" : "has no value") +
                                        " but the one at line " + std::to_string(other->loc.line) +
                                        (other->value ? " has one" : " has none"));
            return;
        }
        if (first_typed) {
            result = first_typed->value->type();
            for (const auto &r : returns_)
                if (r.value && !r.value->weak && r.value->type() != result) {
                    sink_.error(r.loc, "return paths disagree in type: this returns " +
                                           r.value->type().str() + " but line " +
                                           std::to_string(first_typed->loc.line) + " returns " +
                                           result.str());
                    return;
                }
        } else {
            result = Type::scalar(Scalar::I64);
            for (const auto &r : returns_)
                if (r.value && r.value->type().is_float()) result = Type::scalar(default_float());
        }
    }
    out_->return_type = result;

    size_t next = 0;
    std::function<ir::Block(const ir::Block &)> rewrite = [&](const ir::Block &b) {
        ir::Block out;
        for (const auto &s : b) {
            switch (s->kind) {
            case ir::StmtKind::Return: {
                const ReturnSite &site = returns_.at(next++);
                ir::ExprPtr v;
                try {
                    if (site.value && result.is_void())
                        fail(site.loc,
                             "'" + fn_.name +
                                 "' is declared to return nothing, but this return has a value");
                    if (!site.value && !result.is_void())
                        fail(site.loc, "return without a value in '" + fn_.name +
                                           "', which returns " + result.str());
                    if (site.value)
                        v = implicit(*site.value, result, site.loc,
                                     "the result of '" + fn_.name + "'");
                } catch (const StatementFailed &) {}
                out.push_back(ir::Stmt::return_(v, s->loc));
                break;
            }
            case ir::StmtKind::If: {
                // Sequenced explicitly: returns are matched to their sites in source order.
                ir::Block body = rewrite(s->body);
                ir::Block orelse = rewrite(s->orelse);
                out.push_back(ir::Stmt::if_(s->cond, std::move(body), std::move(orelse), s->loc));
                break;
            }
            case ir::StmtKind::While:
                out.push_back(ir::Stmt::while_(s->cond, rewrite(s->body), s->loc));
                break;
            case ir::StmtKind::For:
                out.push_back(ir::Stmt::for_(s->var, s->start, s->stop, s->step, rewrite(s->body),
                                             s->loc, s->labels));
                break;
            default:
                out.push_back(s);
            }
        }
        return out;
    };
    out_->body = rewrite(out_->body);
    // Python returns None when control falls off the end; a typed kernel function returns zero.
    if (!result.is_void() && !ends_in_return(out_->body)) {
        ir::ExprPtr zero = result.is_float()  ? ir::Expr::float_const(result, 0.0)
                           : result.is_bool() ? ir::Expr::bool_const(false)
                                              : ir::Expr::int_const(result, 0);
        out_->body.push_back(ir::Stmt::return_(zero, fn_.loc));
    }
}

ModuleLowerer::ModuleLowerer(const ast::Module &m, const CompileOptions &opts, DiagnosticSink &sink)
    : ast_(m), opts_(opts), sink_(sink) {
    for (const ast::Module *file : m.program_modules())
        for (const auto &fn : file->functions)
            function_names_.insert(fn->name);
}

const ast::Module &FunctionLowerer::scope() const {
    return fn_.module ? *fn_.module : mod_.ast();
}

std::string import_problem(const std::string &name, const ast::Binding &b) {
    const ast::Import &imp = *b.import;
    const std::string line = " (line " + std::to_string(imp.loc.line) + ")";
    if (imp.resolved)
        return "'" + name + "' is imported from " + imp.resolved->source->name() + line +
               ", where it is neither a function nor a numeric constant";
    std::string from = std::string(imp.level, '.') + imp.module;
    const std::string rule = "'" + name + "' is imported from '" + from + "'" + line +
                             ", which is not a kernel file: kernels can only use builtins and "
                             "the functions and constants of kernel files";
    if (imp.level == 0 && frontend::is_python_only_module(imp.module)) return rule;
    std::string file = imp.module;
    for (char &c : file)
        if (c == '.') c = '/';
    std::string dirs;
    for (const auto &d : imp.searched)
        dirs += (dirs.empty() ? "" : ", ") + d;
    return rule + ", and no " + (file.empty() ? std::string("module file") : file + ".py") +
           " was found in " + (dirs.empty() ? std::string("any directory") : dirs) +
           " (add its directory to the kernel search path: ProgramOptions::kernel_path, "
           "smelt --path DIR, or SMELT_KERNEL_PATH)";
}

std::optional<TExpr> ModuleLowerer::constant(const ast::Module &scope, const std::string &name) {
    const ast::Constant *c = scope.resolve_constant(name);
    if (!c) return std::nullopt;
    auto cached = constants_.find(c);
    if (cached != constants_.end()) {
        if (!cached->second) throw StatementFailed{};
        return cached->second;
    }
    constants_[c] = std::nullopt; // guards against a constant defined through itself
    Scalar fdefault = single() ? Scalar::F32 : Scalar::F64;
    // Names in a constant's value mean what they mean in the constant's own file.
    std::function<std::optional<ConstValue>(const ast::Expr &, const ast::Module &)> eval =
        [&](const ast::Expr &e, const ast::Module &in) -> std::optional<ConstValue> {
        std::string err;
        switch (e.kind) {
        case ast::ExprKind::Int:
            return int64_t(e.int_value);
        case ast::ExprKind::Float:
            return e.float_value;
        case ast::ExprKind::Bool:
            return int64_t(e.bool_value);
        case ast::ExprKind::Name: {
            if (auto f = builtin_float_constant(e.name)) return *f;
            const ast::Constant *other = in.resolve_constant(e.name);
            if (!other || (constants_.count(other) && !constants_[other])) return std::nullopt;
            return eval(*other->value, other->module ? *other->module : in);
        }
        case ast::ExprKind::Unary:
            if (auto a = eval(*e.args[0], in)) return fold_unary(e.op, *a, err);
            return std::nullopt;
        case ast::ExprKind::Binary: {
            auto a = eval(*e.args[0], in), b = eval(*e.args[1], in);
            if (a && b) return fold_binary(e.op, *a, *b, err);
            return std::nullopt;
        }
        default:
            return std::nullopt;
        }
    };
    auto v = eval(*c->value, c->module ? *c->module : scope);
    if (!v) {
        sink_.error(c->loc, "module constant '" + c->name +
                                "' used by a kernel must be a numeric "
                                "constant expression");
        throw StatementFailed{};
    }
    TExpr t;
    if (c->value->kind == ast::ExprKind::Bool)
        t = TExpr{ir::Expr::bool_const(c->value->bool_value, c->loc), false};
    else if (std::holds_alternative<int64_t>(*v))
        t = TExpr{ir::Expr::int_const(Type::scalar(Scalar::I64), std::get<int64_t>(*v), c->loc),
                  true};
    else
        t = TExpr{ir::Expr::float_const(Type::scalar(fdefault), std::get<double>(*v), c->loc),
                  true};
    constants_[c] = t;
    return t;
}

CalleeRef ModuleLowerer::lower_spec(const ast::FunctionDef &fn, std::vector<Type> params,
                                    std::optional<Type> declared, const std::string &emitted) {
    if (reported_parse_errors_.insert(&fn).second)
        for (const auto &d : fn.errors)
            sink_.error(d.loc, d.message);
    in_progress_.push_back(emitted);
    FunctionLowerer fl(*this, fn, params, declared, emitted);
    auto out = fl.run();
    in_progress_.pop_back();
    done_.push_back(out);
    if (fn.module) files_.push_back(fn.module->source);
    return {emitted, out->return_type, params};
}

std::string ModuleLowerer::fresh_emitted_name(const ast::FunctionDef &fn) {
    // A function's own name, unless a specialisation already took it; suffixed names must not be
    // the name of any function of the program, which may be reached later under its own name.
    auto taken = [&](const std::string &n) {
        return emitted_names_.count(n) > 0 || (n != fn.name && function_names_.count(n) > 0);
    };
    std::string emitted = fn.name;
    for (int k = 2; taken(emitted); ++k)
        emitted = fn.name + "_v" + std::to_string(k);
    emitted_names_.insert(emitted);
    return emitted;
}

CalleeRef ModuleLowerer::specialise(const ast::FunctionDef &fn, const std::vector<TExpr> &args,
                                    const std::vector<SourceLoc> &arg_locs, SourceLoc loc,
                                    FunctionLowerer &caller) {
    DeclaredTypes declared = read_declared_types(fn, single(), sink_);
    std::vector<Type> params;
    for (size_t k = 0; k < args.size(); ++k) {
        const Type &given = args[k].type(); // a literal: long or the default float
        const auto &decl = declared.params[k];
        if (given.is_matrix() && decl) {
            // The callee indexes the caller's matrix in place (private memory, the group's
            // local memory, or a shaped array parameter's global memory): its parameter is that
            // matrix, dimensions included.
            const std::string who = "parameter '" + fn.params[k].name + "' of '" + fn.name + "'";
            const std::string what =
                given.space == AddrSpace::Global ? "an array" : "a local array";
            if (!decl->is_pointer() || decl->elem != given.elem)
                caller.fail(arg_locs[k],
                            what + " (" + given.str() + ") cannot be passed to " + who +
                                ", declared " + decl->str() + "; it takes " +
                                (decl->is_pointer()
                                     ? "arrays of " + std::string(scalar_name(decl->elem))
                                     : std::string("a number")));
            if (decl->space == AddrSpace::Local && given.space == AddrSpace::Global)
                caller.fail(arg_locs[k], "an array in global memory (" + given.str() +
                                             ") cannot be passed to " + who + ", declared " +
                                             decl->str() + " (local memory)");
            if (decl->space == AddrSpace::Local && given.space != AddrSpace::Local)
                caller.fail(arg_locs[k], "a local array in private memory (" + given.str() +
                                             ") cannot be passed to " + who + ", declared " +
                                             decl->str() +
                                             " (local memory); declare it LOCAL_MEM or annotate "
                                             "the parameter " +
                                             scalar_name(decl->elem) + "p");
            params.push_back(given);
        } else {
            params.push_back(decl ? *decl : given);
        }
    }
    auto &specs = specs_[&fn];
    for (auto &s : specs) {
        if (s.params != params) continue;
        if (s.done) return {s.emitted, *s.result, params};
        bool running = false;
        for (const auto &n : in_progress_)
            running = running || n == s.emitted;
        if (!running) break; // registered for a request but not lowered yet: lower it now
        if (const BackendRow *row = find_backend_row(opts_.backend); row && !row->recursion)
            caller.fail(loc, "recursion is not supported on the " + std::string(row->family) +
                                 " backend ('" + fn.name + "' calls itself)");
        if (!s.result)
            caller.fail(loc, "the recursive function '" + fn.name +
                                 "' needs a declared return type, e.g. "
                                 "@annotate(..., return_='double')");
        if (in_progress_.back() != s.emitted)
            caller.fail(loc, "mutual recursion ('" + fn.name +
                                 "' is called while it is being compiled) is "
                                 "not supported; only a function calling itself is");
        return {s.emitted, *s.result, params};
    }
    std::string emitted;
    for (auto &s : specs)
        if (s.params == params) emitted = s.emitted; // registered by a request, not lowered yet
    if (emitted.empty()) {
        emitted = fresh_emitted_name(fn);
        specs.push_back({emitted, params, declared.result, false});
    }
    CalleeRef ref = lower_spec(fn, params, declared.result, emitted);
    for (auto &s : specs_[&fn])
        if (s.emitted == emitted) {
            s.done = true;
            s.result = ref.result;
        }
    return ref;
}

void ModuleLowerer::request(const KernelRequest &req) {
    ast::Binding binding = ast_.resolve(req.name);
    const ast::FunctionDef *fn = binding.function;
    if (!fn && binding.import) throw UsageError(import_problem(req.name, binding));
    if (!fn) throw UsageError("no function named '" + req.name + "' in " + ast_.source->name());
    for (const auto &[pname, _] : req.arg_types) {
        bool found = false;
        for (const auto &p : fn->params)
            found = found || p.name == pname;
        if (!found) throw UsageError("'" + pname + "' is not a parameter of '" + req.name + "'");
    }
    DeclaredTypes declared = read_declared_types(*fn, single(), sink_);
    std::vector<Type> params;
    bool complete = true;
    for (size_t k = 0; k < fn->params.size(); ++k) {
        const auto &p = fn->params[k];
        std::optional<Type> given;
        if (auto it = req.arg_types.find(p.name); it != req.arg_types.end())
            given = single() ? demote_to_single(it->second) : it->second;
        const auto &decl = declared.params[k];
        if (decl && given && *decl != *given &&
            !(decl->is_pointer() && given->is_pointer() && decl->elem == given->elem))
            throw UsageError("parameter '" + p.name + "' of '" + fn->name + "' is declared " +
                             decl->str() + " but is given " + given->str());
        std::optional<Type> t = decl ? decl : given;
        if (!t) t = declared.defaults[k]; // a default value only suggests a type (Compyle's rule)
        if (!t && (p.name == "i" || p.name == "N")) t = Type::scalar(Scalar::I64);
        if (!t) {
            complete = false;
            if (p.name == "item" || p.name == "prev_item" || p.name == "last_item")
                sink_.error(
                    p.loc,
                    "parameter '" + p.name +
                        "' has no type: it takes the scan's dtype "
                        "when called through Scan; annotate it to compile the function alone");
            else
                sink_.error(p.loc, "parameter '" + p.name + "' of '" + fn->name +
                                       "' has no type: annotate "
                                       "it (e.g. @annotate(" +
                                       p.name + "='doublep')) or give it at the call (JIT)");
            continue;
        }
        params.push_back(*t);
    }
    if (!complete) return;
    // Requested functions keep the names they are requested by, so they are registered before
    // anything is lowered: a callee specialisation met earlier then gets a suffixed name instead.
    auto &specs = specs_[fn];
    if (std::none_of(specs.begin(), specs.end(),
                     [&](const Spec &s) { return s.params == params && s.emitted == req.name; })) {
        specs.push_back({req.name, params, declared.result, false});
        emitted_names_.insert(req.name);
    }
    pending_.push_back({fn, req.name});
}

void ModuleLowerer::lower_pending() {
    for (const Pending &p : pending_) {
        for (auto &s : specs_[p.fn]) {
            if (s.emitted != p.emitted || s.done) continue;
            std::vector<Type> params = s.params;
            auto declared = s.result;
            CalleeRef ref = lower_spec(*p.fn, params, declared, p.emitted);
            for (auto &t : specs_[p.fn])
                if (t.emitted == p.emitted) {
                    t.done = true;
                    t.result = ref.result;
                }
            break;
        }
    }
}

void ModuleLowerer::use_external(const External &x) {
    for (const auto &d : externals_)
        if (d.name == x.name) return;
    auto code = x.code.find(opts_.backend.substr(0, opts_.backend.find(':')));
    if (code == x.code.end()) code = x.code.find("");
    externals_.push_back({x.name, x.header, code == x.code.end() ? "" : code->second});
}

std::shared_ptr<ir::Module> ModuleLowerer::result() {
    auto m = std::make_shared<ir::Module>();
    m->source = ast_.source;
    m->functions = done_;
    m->externals = externals_;
    for (const auto &f : files_)
        if (f != ast_.source &&
            std::find(m->other_files.begin(), m->other_files.end(), f) == m->other_files.end())
            m->other_files.push_back(f);
    return m;
}

std::shared_ptr<ir::Module> lower_module(const ast::Module &module,
                                         const std::vector<KernelRequest> &requests,
                                         const CompileOptions &options) {
    DiagnosticSink sink(module.source);
    ModuleLowerer lowerer(module, options, sink);
    for (const auto &r : requests)
        lowerer.request(r);
    lowerer.lower_pending();
    if (sink.has_errors()) {
        bool syntax = true;
        for (const auto &d : sink.diagnostics()) {
            bool is_parse = false;
            for (const ast::Module *file : module.program_modules())
                for (const auto &fn : file->functions)
                    for (const auto &pe : fn->errors)
                        is_parse = is_parse || pe.loc.same_place(d.loc);
            syntax = syntax && is_parse;
        }
        // Report in file order, whatever order the functions were reached in.
        std::vector<Diagnostic> diags = sink.take();
        sort_diagnostics(diags, module.source->name());
        CompileError err(std::move(diags));
        err.set_syntax_error(syntax);
        throw err;
    }
    return lowerer.result();
}

} // namespace smelt::lower
