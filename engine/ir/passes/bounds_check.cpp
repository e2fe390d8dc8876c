#include "ir/passes/bounds_check.h"

#include "ir/rewrite.h"
#include "support/error.h"

namespace smelt::ir {

namespace {

class Checker {
public:
    Checker(const Function &f, VarPtr table, bool check_index, bool check_finite)
        : f_(f), table_(std::move(table)), check_index_(check_index), check_finite_(check_finite) {}

    std::vector<BoundsSite> sites;

    // The length of `v` along dimension `dim`: a slot of the table for a parameter, the
    // declared extent for a local matrix; null when v is neither (left unchecked).
    ExprPtr length(const Var *v, size_t dim, SourceLoc loc) const {
        const Type i64 = Type::scalar(Scalar::I64);
        if (v->type.is_matrix()) return Expr::int_const(i64, v->type.dims.at(dim), loc);
        for (size_t k = 0; k < f_.params.size(); ++k)
            if (f_.params[k].get() == v)
                return Expr::load(table_, {Expr::int_const(i64, kBoundsTableHeader + k, loc)}, loc);
        return nullptr;
    }

    std::vector<ExprPtr> checked(const VarPtr &v, const std::vector<ExprPtr> &indices,
                                 SourceLoc loc) {
        if (!check_index_) return indices;
        std::vector<ExprPtr> out;
        for (size_t d = 0; d < indices.size(); ++d) {
            ExprPtr len = length(v.get(), d, loc);
            if (!len) {
                out.push_back(indices[d]);
                continue;
            }
            const Type i64 = Type::scalar(Scalar::I64);
            const int64_t site = static_cast<int64_t>(sites.size());
            sites.push_back({BoundsSite::Kind::Index, loc, v->name});
            out.push_back(Expr::call(
                "smelt_checked_index", true, i64,
                {indices[d], len, Expr::var_ref(table_, loc), Expr::int_const(i64, site, loc)},
                loc));
        }
        return out;
    }

    ExprPtr expr(const ExprPtr &e) {
        if (e->kind == ExprKind::Load && e->var != table_)
            return Expr::load(e->var, checked(e->var, e->args, e->loc), e->loc);
        if (e->kind == ExprKind::Atomic && check_index_) {
            auto ix = checked(e->var, {e->args[0]}, e->loc);
            return Expr::atomic(e->atomic_op, e->var, ix[0],
                                e->args.size() > 1 ? e->args[1] : nullptr, e->loc);
        }
        // The entry calling itself passes the table on.
        if (e->kind == ExprKind::Call && !e->is_builtin && e->callee == f_.name) {
            std::vector<ExprPtr> args = e->args;
            args.push_back(Expr::var_ref(table_, e->loc));
            return Expr::call(e->callee, false, e->type, std::move(args), e->loc);
        }
        return e;
    }

    void stmt(const StmtPtr &s, Block &out) {
        if (s->kind == StmtKind::Store) {
            out.push_back(
                Stmt::store(s->var, checked(s->var, s->indices, s->loc), finite(*s), s->loc));
            return;
        }
        out.push_back(s);
    }

private:
    // No call or atomic inside: evaluating it once more changes nothing.
    static bool repeatable(const ExprPtr &e) {
        if (e->kind == ExprKind::Atomic || (e->kind == ExprKind::Call && !e->is_builtin))
            return false;
        for (const auto &a : e->args)
            if (!repeatable(a)) return false;
        return true;
    }

    // The stored value, through smelt_checked_finite_* when it is a float going into an array
    // parameter.
    ExprPtr finite(const Stmt &s) {
        const ExprPtr &v = s.value;
        if (!check_finite_ || !v->type.is_float() || !s.var->type.is_pointer()) return v;
        const Type i64 = Type::scalar(Scalar::I64);
        ExprPtr index = s.indices.size() == 1 && repeatable(s.indices[0])
                            ? s.indices[0]
                            : Expr::int_const(i64, -1, s.loc);
        if (index->type != i64) index = Expr::cast(i64, index, s.loc);
        const int64_t site = static_cast<int64_t>(sites.size());
        sites.push_back({BoundsSite::Kind::Finite, s.loc, s.var->name});
        const std::string fn =
            v->type.elem == Scalar::F32 ? "smelt_checked_finite_f32" : "smelt_checked_finite_f64";
        return Expr::call(
            fn, true, v->type,
            {v, index, Expr::var_ref(table_, s.loc), Expr::int_const(i64, site, s.loc)}, s.loc);
    }

    const Function &f_;
    VarPtr table_;
    bool check_index_, check_finite_;
};

} // namespace

BoundsChecked bounds_check(const Module &m, const std::string &entry, bool check_index,
                           bool check_finite) {
    BoundsChecked out;
    out.module = std::make_shared<Module>(m);
    out.module->bounds_checked = true;
    for (auto &fp : out.module->functions) {
        if (fp->name != entry) continue;
        auto f = std::make_shared<Function>(*fp);
        auto table = std::make_shared<Var>();
        table->name = kBoundsTableParam;
        table->type = Type::pointer(Scalar::I64);
        table->role = Var::Role::Param;
        f->params.push_back(table);
        Checker c(*fp, table, check_index, check_finite);
        f->body = rewrite_block(
            fp->body, [&](const ExprPtr &e) { return c.expr(e); },
            [&](const StmtPtr &s, Block &o) { c.stmt(s, o); });
        out.sites = std::move(c.sites);
        fp = f;
        return out;
    }
    SMELT_INTERNAL_ASSERT(false, "bounds_check: no function '" << entry << "' in the module");
}

} // namespace smelt::ir
