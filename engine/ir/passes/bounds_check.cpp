#include "ir/passes/bounds_check.h"

#include "ir/rewrite.h"
#include "support/error.h"

#include <functional>
#include <map>
#include <set>

namespace smelt::ir {

namespace {

Type i64() {
    return Type::scalar(Scalar::I64);
}

ExprPtr i64_const(int64_t v, SourceLoc loc) {
    return Expr::int_const(i64(), v, loc);
}

// No call or atomic inside: evaluating it once more changes nothing.
bool repeatable(const ExprPtr &e) {
    if (e->kind == ExprKind::Atomic || (e->kind == ExprKind::Call && !e->is_builtin)) return false;
    for (const auto &a : e->args)
        if (!repeatable(a)) return false;
    return true;
}

void for_each_expr(const ExprPtr &e, const std::function<void(const Expr &)> &visit) {
    if (!e) return;
    visit(*e);
    for (const auto &a : e->args)
        for_each_expr(a, visit);
}

void for_each_stmt(const Block &b, const std::function<void(const Stmt &)> &visit) {
    for (const auto &s : b) {
        visit(*s);
        for_each_stmt(s->body, visit);
        for_each_stmt(s->orelse, visit);
    }
}

void for_each_expr(const Block &b, const std::function<void(const Expr &)> &visit) {
    for_each_stmt(b, [&](const Stmt &s) {
        for (const ExprPtr &e : {s.value, s.cond, s.start, s.stop, s.step})
            for_each_expr(e, visit);
        for (const auto &e : s.indices)
            for_each_expr(e, visit);
    });
}

VarPtr new_var(std::string name, Type type, Var::Role role) {
    auto v = std::make_shared<Var>();
    v->name = std::move(name);
    v->type = std::move(type);
    v->role = role;
    return v;
}

// Rewrites one function into its checked form (see the header): the entry form when `entry` is
// given, else the helper form.
class FunctionChecker {
public:
    FunctionChecker(const Function &f, const CheckedEntry *entry,
                    const std::map<std::string, std::string> &call_targets,
                    const std::map<std::string, const Function *> &originals, bool check_index,
                    bool check_finite, std::vector<BoundsSite> &sites)
        : f_(f), entry_(entry), call_targets_(call_targets), originals_(originals),
          check_index_(check_index), check_finite_(check_finite), sites_(sites) {}

    std::shared_ptr<Function> run(const std::string &name) {
        auto out = std::make_shared<Function>(f_);
        out->name = name;
        table_ = new_var(kBoundsTableParam, Type::pointer(Scalar::I64), Var::Role::Param);
        for (size_t k = 0; k < f_.params.size(); ++k) {
            const VarPtr &p = f_.params[k];
            if (!p->type.is_pointer()) continue;
            if (entry_) {
                const int64_t slot = k < entry_->length_slots.size() ? entry_->length_slots[k] : -1;
                SMELT_INTERNAL_ASSERT(slot >= kBoundsTableHeader,
                                      "no length slot for '" << p->name << "' of " << f_.name);
                lengths_[p.get()] = Expr::load(table_, {i64_const(slot, f_.loc)}, f_.loc);
            } else {
                VarPtr len = new_var(p->name + "_len", i64(), Var::Role::Param);
                out->params.push_back(len);
                lengths_[p.get()] = Expr::var_ref(len, f_.loc);
            }
        }
        out->params.push_back(table_);

        // A pointer variable that is assigned keeps its current length in a local beside it
        // (a parameter's starts as the length it came with).
        Block prologue;
        std::set<const Var *> assigned;
        for_each_stmt(f_.body, [&](const Stmt &s) {
            if (s.kind == StmtKind::Assign && s.var->type.is_pointer())
                assigned.insert(s.var.get());
        });
        for (const auto &v : f_.params)
            if (assigned.count(v.get())) {
                VarPtr len = new_var(v->name + "_len", i64(), Var::Role::Hidden);
                out->locals.push_back(len);
                prologue.push_back(Stmt::assign(len, lengths_.at(v.get()), f_.loc));
                lengths_[v.get()] = Expr::var_ref(len, f_.loc);
            }
        for (const auto &v : f_.locals)
            if (assigned.count(v.get())) {
                VarPtr len = new_var(v->name + "_len", i64(), Var::Role::Hidden);
                out->locals.push_back(len);
                lengths_[v.get()] = Expr::var_ref(len, f_.loc);
            }

        Block body = rewrite_block(
            f_.body, [&](const ExprPtr &e) { return expr(e); },
            [&](const StmtPtr &s, Block &o) { stmt(s, o); });
        prologue.insert(prologue.end(), body.begin(), body.end());
        out->body = std::move(prologue);
        return out;
    }

private:
    // The current length of the array a pointer-typed expression gives.
    ExprPtr length_of(const ExprPtr &e) const {
        if (e->kind == ExprKind::VarRef) return length(e->var.get(), 0, e->loc);
        if (e->kind == ExprKind::Select && repeatable(e->args[0]))
            return Expr::select(e->args[0], length_of(e->args[1]), length_of(e->args[2]), e->loc);
        return i64_const(kUnknownLength, e->loc);
    }

    // The length of `v` along dimension `dim`: the declared extent of a matrix, else what the
    // function knows of the pointer.
    ExprPtr length(const Var *v, size_t dim, SourceLoc loc) const {
        if (v->type.is_matrix()) return i64_const(v->type.dims.at(dim), loc);
        auto it = lengths_.find(v);
        return it != lengths_.end() ? it->second : i64_const(kUnknownLength, loc);
    }

    std::vector<ExprPtr> checked(const VarPtr &v, const std::vector<ExprPtr> &indices,
                                 SourceLoc loc) {
        if (!check_index_) return indices;
        std::vector<ExprPtr> out;
        for (size_t d = 0; d < indices.size(); ++d) {
            const int64_t site = static_cast<int64_t>(sites_.size());
            sites_.push_back({BoundsSite::Kind::Index, loc, v->name, f_.name, static_cast<int>(d),
                              static_cast<int>(indices.size())});
            ExprPtr index = indices[d];
            if (index->type != i64()) index = Expr::cast(i64(), index, loc);
            out.push_back(Expr::call(
                "smelt_checked_index", true, i64(),
                {index, length(v.get(), d, loc), Expr::var_ref(table_, loc), i64_const(site, loc)},
                loc));
        }
        return out;
    }

    ExprPtr expr(const ExprPtr &e) {
        if (e->kind == ExprKind::Load)
            return Expr::load(e->var, checked(e->var, e->args, e->loc), e->loc);
        if (e->kind == ExprKind::Atomic && check_index_) {
            auto ix = checked(e->var, {e->args[0]}, e->loc);
            return Expr::atomic(e->atomic_op, e->var, ix[0],
                                e->args.size() > 1 ? e->args[1] : nullptr, e->loc);
        }
        if (e->kind == ExprKind::Call && !e->is_builtin) {
            auto target = call_targets_.find(e->callee);
            auto callee = originals_.find(e->callee);
            SMELT_INTERNAL_ASSERT(target != call_targets_.end() && callee != originals_.end(),
                                  "call of '" << e->callee << "' outside the checked module");
            std::vector<ExprPtr> args = e->args;
            const auto &params = callee->second->params;
            for (size_t k = 0; k < params.size() && k < e->args.size(); ++k)
                if (params[k]->type.is_pointer()) args.push_back(length_of(e->args[k]));
            args.push_back(Expr::var_ref(table_, e->loc));
            return Expr::call(target->second, false, e->type, std::move(args), e->loc);
        }
        return e;
    }

    void stmt(const StmtPtr &s, Block &out) {
        if (s->kind == StmtKind::Store) {
            out.push_back(
                Stmt::store(s->var, checked(s->var, s->indices, s->loc), finite(*s), s->loc));
            return;
        }
        if (s->kind == StmtKind::Assign && s->var->type.is_pointer()) {
            // The length first: the value's condition cannot read the hidden local.
            const ExprPtr &len = lengths_.at(s->var.get());
            out.push_back(Stmt::assign(len->var, length_of(s->value), s->loc));
        }
        if (s->kind == StmtKind::Return && entry_ && entry_->check_return && check_finite_ &&
            s->value && s->value->type.is_float()) {
            ExprPtr index = i64_const(-1, s->loc);
            if (entry_->index_param >= 0) {
                const VarPtr &p = f_.params.at(static_cast<size_t>(entry_->index_param));
                index = Expr::var_ref(p, s->loc);
                if (p->type != i64()) index = Expr::cast(i64(), index, s->loc);
            }
            out.push_back(Stmt::return_(
                checked_finite(s->value, index, {BoundsSite::Kind::Return, s->loc, "", f_.name}),
                s->loc));
            return;
        }
        out.push_back(s);
    }

    // The stored value, through smelt_checked_finite_* when it is a float going into an array.
    ExprPtr finite(const Stmt &s) {
        const ExprPtr &v = s.value;
        if (!check_finite_ || !v->type.is_float() || !s.var->type.is_buffer()) return v;
        ExprPtr index =
            s.indices.size() == 1 && repeatable(s.indices[0]) ? s.indices[0] : i64_const(-1, s.loc);
        if (index->type != i64()) index = Expr::cast(i64(), index, s.loc);
        return checked_finite(v, index, {BoundsSite::Kind::Finite, s.loc, s.var->name, f_.name});
    }

    ExprPtr checked_finite(const ExprPtr &v, const ExprPtr &index, BoundsSite where) {
        const SourceLoc loc = where.loc;
        const int64_t site = static_cast<int64_t>(sites_.size());
        sites_.push_back(std::move(where));
        const std::string fn =
            v->type.elem == Scalar::F32 ? "smelt_checked_finite_f32" : "smelt_checked_finite_f64";
        return Expr::call(fn, true, v->type,
                          {v, index, Expr::var_ref(table_, loc), i64_const(site, loc)}, loc);
    }

    const Function &f_;
    const CheckedEntry *entry_;
    const std::map<std::string, std::string> &call_targets_;
    const std::map<std::string, const Function *> &originals_;
    bool check_index_, check_finite_;
    std::vector<BoundsSite> &sites_;
    VarPtr table_;
    std::map<const Var *, ExprPtr> lengths_;
};

} // namespace

CheckedEntry entry_with_consecutive_slots(const Function &f, size_t first_param) {
    CheckedEntry e{f.name, std::vector<int64_t>(f.params.size(), -1)};
    if (first_param == 1) e.index_param = 0;
    for (size_t k = first_param; k < f.params.size(); ++k)
        if (f.params[k]->type.is_pointer())
            e.length_slots[k] = kBoundsTableHeader + static_cast<int64_t>(k - first_param);
    return e;
}

BoundsChecked bounds_check(const Module &m, const std::vector<CheckedEntry> &entries,
                           bool check_index, bool check_finite) {
    std::map<std::string, const CheckedEntry *> entry_of;
    for (const auto &e : entries) {
        SMELT_INTERNAL_ASSERT(m.find(e.func), "bounds_check: no function '" << e.func << "'");
        entry_of[e.func] = &e;
    }
    std::map<std::string, const Function *> originals;
    std::set<std::string> called;
    for (const auto &f : m.functions) {
        originals[f->name] = f.get();
        for_each_expr(f->body, [&](const Expr &e) {
            if (e.kind == ExprKind::Call && !e.is_builtin) called.insert(e.callee);
        });
    }
    // Calls go to the helper form: the function itself, or the copy of an entry.
    std::map<std::string, std::string> call_targets;
    for (const auto &f : m.functions) {
        std::string target = f->name;
        if (entry_of.count(f->name) && called.count(f->name))
            for (int k = 0; target == f->name || originals.count(target); ++k)
                target = f->name + "_checked" + (k ? std::to_string(k) : std::string());
        call_targets[f->name] = target;
    }

    BoundsChecked out;
    out.module = std::make_shared<Module>(m);
    out.module->bounds_checked = true;
    out.module->functions.clear();
    for (const auto &f : m.functions) {
        auto entry = entry_of.find(f->name);
        if (entry == entry_of.end() || called.count(f->name))
            out.module->functions.push_back(FunctionChecker(*f, nullptr, call_targets, originals,
                                                            check_index, check_finite, out.sites)
                                                .run(call_targets[f->name]));
        if (entry != entry_of.end())
            out.module->functions.push_back(FunctionChecker(*f, entry->second, call_targets,
                                                            originals, check_index, check_finite,
                                                            out.sites)
                                                .run(f->name));
    }
    return out;
}

} // namespace smelt::ir
