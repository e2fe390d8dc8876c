#include "primitives/loop_function/plan.h"

#include "support/error.h"

#include <algorithm>
#include <functional>
#include <set>

namespace smelt::primitives::loops {

namespace {

using ir::Block;
using ir::Expr;
using ir::ExprKind;
using ir::Stmt;
using ir::StmtKind;

// Where a planning mistake stops compilation (the first one found).
struct PlanError {
    SourceLoc loc;
    std::string message;
};
[[noreturn]] void fail(SourceLoc loc, std::string message) {
    throw PlanError{loc, std::move(message)};
}

void for_each_expr(const ir::ExprPtr &e, const std::function<void(const Expr &)> &visit) {
    if (!e) return;
    visit(*e);
    for (const auto &a : e->args)
        for_each_expr(a, visit);
}

// Every expression of a statement itself (not of nested blocks).
void stmt_exprs(const Stmt &s, const std::function<void(const Expr &)> &visit) {
    for (const auto &e : {s.value, s.cond, s.start, s.stop, s.step})
        for_each_expr(e, visit);
    for (const auto &e : s.indices)
        for_each_expr(e, visit);
}

void for_each_stmt(const Block &b, const std::function<void(const Stmt &)> &visit) {
    for (const auto &s : b) {
        visit(*s);
        for_each_stmt(s->body, visit);
        for_each_stmt(s->orelse, visit);
    }
}

bool mentions(const Expr &e, const ir::Var *v) {
    if (e.var.get() == v) return true;
    for (const auto &a : e.args)
        if (mentions(*a, v)) return true;
    return false;
}

bool same_index(const ir::ExprPtr &a, const ir::ExprPtr &b) {
    if (a == b) return true;
    if (a->kind == ExprKind::Const && b->kind == ExprKind::Const)
        return a->type == b->type && a->int_value == b->int_value;
    if (a->kind == ExprKind::VarRef && b->kind == ExprKind::VarRef) return a->var == b->var;
    return false;
}

bool is_local(const ir::Var *v) {
    return v && v->role != ir::Var::Role::Param && !(v->type.is_pointer() || v->type.is_matrix());
}

// Reads of scalars before this block assigns them (upward-exposed uses), and the scalars it
// assigns. `defined` is what is certainly assigned on entry; on exit, after the block.
void exposed_uses(const Block &b, std::set<const ir::Var *> &defined,
                  std::set<const ir::Var *> &exposed, std::set<const ir::Var *> &written) {
    auto read = [&](const Expr &e) {
        if (e.kind == ExprKind::VarRef && is_local(e.var.get()) && !defined.count(e.var.get()))
            exposed.insert(e.var.get());
    };
    for (const auto &s : b) {
        stmt_exprs(*s, read);
        switch (s->kind) {
        case StmtKind::Assign:
            written.insert(s->var.get());
            defined.insert(s->var.get());
            break;
        case StmtKind::If: {
            auto a = defined, c = defined;
            exposed_uses(s->body, a, exposed, written);
            exposed_uses(s->orelse, c, exposed, written);
            for (const ir::Var *v : a)
                if (c.count(v)) defined.insert(v);
            break;
        }
        case StmtKind::While:
        case StmtKind::For: {
            auto inner = defined;
            if (s->kind == StmtKind::For) {
                inner.insert(s->var.get());
                written.insert(s->var.get());
            }
            exposed_uses(s->body, inner, exposed, written);
            break;
        }
        default:
            break;
        }
    }
}

std::string label_list(const std::vector<std::string> &labels) {
    std::string out;
    for (const auto &l : labels)
        out += (out.empty() ? "'" : ", '") + l + "'";
    return out.empty() ? "none" : out;
}

class Planner {
public:
    Planner(const ir::Function &f, const ParallelSpec &spec) : f_(f), spec_(spec) {
        // Hidden variables assigned a constant exactly once (range() limits bound before a loop
        // because they were not literals when lowered, e.g. range(N - 1) with N specialised).
        std::map<const ir::Var *, int> assignments;
        for_each_stmt(f.body, [&](const Stmt &s) {
            if (s.kind == StmtKind::Assign) ++assignments[s.var.get()];
            if (s.kind == StmtKind::Assign && s.var->role == ir::Var::Role::Hidden &&
                s.value->kind == ExprKind::Const && s.value->type.is_integer())
                constants_[s.var.get()] = s.value->int_value;
        });
        for (const auto &[v, n] : assignments)
            if (n != 1) constants_.erase(v);
    }

    Plan run() {
        std::vector<std::string> found;
        for_each_stmt(f_.body, [&](const Stmt &s) {
            if (s.kind == StmtKind::Return)
                fail(s.loc, "a loop-parallel function cannot return; write its results into "
                            "array arguments");
            for (const auto &l : s.labels)
                if (std::find(found.begin(), found.end(), l) == found.end()) found.push_back(l);
        });
        std::vector<std::string> spec_labels;
        for (const auto &[l, _] : spec_)
            spec_labels.push_back(l);
        for (const auto &l : spec_labels)
            if (std::find(found.begin(), found.end(), l) == found.end())
                fail(f_.loc, "the parallel spec names label '" + l + "', but no loop of '" +
                                 f_.name + "' has it (labels found: " + label_list(found) + ")");

        Plan plan;
        for (const auto &s : f_.body) {
            if (!is_parallel(*s)) {
                if (plan.segments.empty() || plan.segments.back().kind != SegmentKind::Sequential) {
                    plan.segments.emplace_back();
                    plan.segments.back().loc = s->loc;
                }
                plan.segments.back().stmts.push_back(s);
                continue;
            }
            plan.segments.push_back(parallel_segment(*s));
        }
        for (Segment &seg : plan.segments)
            if (seg.kind == SegmentKind::Sequential) reject_nested_parallel(seg.stmts);
        bool any = false;
        for (const Segment &seg : plan.segments)
            any = any || seg.kind != SegmentKind::Sequential;
        if (!any)
            fail(f_.loc, "nothing in '" + f_.name +
                             "' runs in parallel under the given spec: a parallel loop is a "
                             "top-level for loop (or slice statement) labelled with a label of "
                             "the spec (labels found: " +
                             label_list(found) + "; spec: " + label_list(spec_labels) + ")");
        find_frame(plan);
        return plan;
    }

private:
    const LoopPar *par_of(const Stmt &s) const {
        if (s.kind != StmtKind::For) return nullptr;
        for (const auto &l : s.labels)
            if (auto it = spec_.find(l); it != spec_.end()) return &it->second;
        return nullptr;
    }
    std::string spec_label(const Stmt &s) const {
        for (const auto &l : s.labels)
            if (spec_.count(l)) return l;
        return "";
    }
    bool is_parallel(const Stmt &s) const { return par_of(s) != nullptr; }

    int64_t constant(const ir::ExprPtr &e, const Stmt &loop, const char *what) const {
        if (e->kind == ExprKind::Const) return e->int_value;
        if (e->kind == ExprKind::VarRef)
            if (auto it = constants_.find(e->var.get()); it != constants_.end()) return it->second;
        fail(loop.loc, std::string("the ") + what + " of the parallel loop '" + spec_label(loop) +
                           "' must be known when the function is specialised: use integer "
                           "arguments, constants and array extents (scalars are specialised "
                           "on their values)");
    }

    Dim dim_of(const Stmt &loop) const {
        Dim d;
        d.counter = loop.var;
        d.label = spec_label(loop);
        d.start = constant(loop.start, loop, "start");
        const int64_t stop = constant(loop.stop, loop, "stop");
        d.step = constant(loop.step, loop, "step");
        const int64_t span = d.step > 0 ? stop - d.start : d.start - stop;
        const int64_t step = d.step > 0 ? d.step : -d.step;
        d.count = span <= 0 ? 0 : (span + step - 1) / step;
        return d;
    }

    // Reduce loops must end with their update and assign nothing read after them.
    ReduceUpdate reduce_update(const Stmt &loop) const {
        const std::string label = spec_label(loop);
        auto bad = [&](SourceLoc loc, const std::string &why) {
            fail(loc, "the loop labelled '" + label + "' is a reduce loop, so " + why);
        };
        if (loop.body.empty()) bad(loop.loc, "its body must end with `acc op= term`");
        auto u = match_update(*loop.body.back());
        if (!u)
            bad(loop.body.back()->loc,
                "its body must end with one update of an accumulator (s += ..., s *= ..., "
                "s = max(s, ...), x[0] += ...)");
        const ir::Var *acc = u->acc ? u->acc.get() : u->array.get();
        for (size_t k = 0; k + 1 < loop.body.size(); ++k)
            for_each_stmt({loop.body[k]}, [&](const Stmt &s) {
                if (s.kind == StmtKind::Store)
                    bad(s.loc, "its body may store nothing but the accumulator");
                if (s.kind == StmtKind::Break || s.kind == StmtKind::Continue)
                    bad(s.loc, "its body cannot break or continue");
                stmt_exprs(s, [&](const Expr &e) {
                    if (e.var.get() == acc)
                        bad(s.loc, "its accumulator '" + acc->name +
                                       "' can only be read by the update that ends the body");
                    if (e.kind == ExprKind::Atomic)
                        bad(s.loc, "its body may store nothing but the accumulator");
                });
            });
        return *u;
    }

    Segment parallel_segment(const Stmt &outer) {
        Segment seg;
        seg.loc = outer.loc;
        seg.par = *par_of(outer);
        // Collapse directly nested loops with non-reduce spec labels: the body between them may
        // hold only the loop variable's assignment and constant range() limits.
        const Stmt *loop = &outer;
        for (;;) {
            seg.dims.push_back(dim_of(*loop));
            const Block &body = loop->body;
            const Stmt *inner = nullptr;
            bool only_headers = !seg.par.reduce;
            for (const auto &s : body) {
                if (s->kind == StmtKind::For && !inner) {
                    inner = s.get();
                    continue;
                }
                const bool header =
                    s->kind == StmtKind::Assign &&
                    (s->value->kind == ExprKind::VarRef || constants_.count(s->var.get()));
                only_headers = only_headers && header && !inner;
            }
            const LoopPar *ip = inner ? par_of(*inner) : nullptr;
            if (!only_headers || !ip || ip->reduce) {
                seg.body.insert(seg.body.end(), body.begin(), body.end());
                break;
            }
            for (const auto &s : body)
                if (s.get() != inner) seg.body.push_back(s);
            loop = inner;
        }
        for_each_stmt(seg.body, [&](const Stmt &s) {
            if (s.kind == StmtKind::Break && breaks_out(seg.body, &s))
                fail(s.loc, "break cannot leave the parallel loop '" + seg.dims[0].label + "'");
        });
        if (seg.par.reduce) {
            if (seg.dims.size() != 1)
                fail(outer.loc, "a reduce loop cannot be collapsed with the loops inside it");
            seg.kind = SegmentKind::Reduce;
            seg.update = reduce_update(*loop);
            return seg;
        }
        seg.kind = SegmentKind::Map;
        for (size_t k = 0; k < seg.body.size(); ++k) {
            const LoopPar *ip = par_of(*seg.body[k]);
            if (!ip) continue;
            if (ip->reduce) {
                seg.group_loops.push_back({k, *ip, reduce_update(*seg.body[k])});
                continue;
            }
            // A parpy reduction (its accumulator is the lowering's own) labelled with a map label
            // reduces over the group too, as in ParPy.
            const Block &lb = seg.body[k]->body;
            auto u = lb.size() == 1 ? match_update(*lb.back()) : std::nullopt;
            if (u && u->acc && u->acc->role == ir::Var::Role::Hidden)
                seg.group_loops.push_back({k, *ip, *u});
        }
        for (size_t k = seg.body.size(); !seg.group_loops.empty() && k-- > 0;) {
            const LoopPar *ip = par_of(*seg.body[k]);
            const bool grouped =
                std::any_of(seg.group_loops.begin(), seg.group_loops.end(),
                            [&](const Segment::GroupLoop &g) { return g.index == k; });
            if (!ip || ip->reduce || grouped || breaks_out(seg.body[k]->body, nullptr)) break;
            seg.strided_loops.insert(seg.strided_loops.begin(), k);
        }
        return seg;
    }

    // True when `brk` is in `body` outside any loop of it (so it would leave the parallel loop);
    // with `brk` null, when any break is.
    static bool breaks_out(const Block &body, const Stmt *brk) {
        for (const auto &s : body) {
            if (s.get() == brk || (!brk && s->kind == StmtKind::Break)) return true;
            if (s->kind == StmtKind::If && (breaks_out(s->body, brk) || breaks_out(s->orelse, brk)))
                return true;
        }
        return false;
    }

    void reject_nested_parallel(const Block &b) const {
        for (const auto &s : b) {
            if (s->kind == StmtKind::For && is_parallel(*s))
                fail(s->loc, "the loop labelled '" + spec_label(*s) +
                                 "' is inside sequential code; parallel loops must be top-level "
                                 "statements of the function (or directly inside one)");
            reject_nested_parallel(s->body);
            reject_nested_parallel(s->orelse);
        }
    }

    void find_frame(Plan &plan) const {
        std::set<const ir::Var *> frame;
        std::vector<std::set<const ir::Var *>> writes(plan.segments.size());
        for (size_t k = 0; k < plan.segments.size(); ++k) {
            const Segment &seg = plan.segments[k];
            std::set<const ir::Var *> defined, exposed;
            Block all = seg.kind == SegmentKind::Sequential ? seg.stmts : seg.body;
            for (const Dim &d : seg.dims)
                defined.insert(d.counter.get());
            exposed_uses(all, defined, exposed, writes[k]);
            frame.insert(exposed.begin(), exposed.end());
        }
        // Every variable of the function, so the frame keeps the function's order.
        std::vector<ir::VarPtr> locals = f_.locals;
        for (const auto &v : locals)
            if (frame.count(v.get())) plan.frame.push_back(v);
        for (size_t k = 0; k < plan.segments.size(); ++k) {
            const Segment &seg = plan.segments[k];
            if (seg.kind == SegmentKind::Sequential) continue;
            for (const ir::Var *v : writes[k]) {
                if (!frame.count(v)) continue;
                if (seg.kind == SegmentKind::Reduce && seg.update.acc.get() == v) continue;
                fail(seg.loc, "'" + v->name + "' is assigned in the parallel loop '" +
                                  seg.dims[0].label +
                                  "' and used outside it: iterations of a parallel loop can pass "
                                  "values out only through arrays or a reduce loop");
            }
        }
    }

    const ir::Function &f_;
    const ParallelSpec &spec_;
    std::map<const ir::Var *, int64_t> constants_;
};

} // namespace

std::optional<ReduceUpdate> match_update(const Stmt &s) {
    using B = ir::BinaryOp;
    auto reducing = [](const ir::ExprPtr &e) {
        return e->kind == ExprKind::Binary && (e->binary_op == B::Add || e->binary_op == B::Mul ||
                                               e->binary_op == B::Min || e->binary_op == B::Max);
    };
    if (s.kind == StmtKind::Assign && reducing(s.value)) {
        const ir::ExprPtr &v = s.value;
        for (int side = 0; side < 2; ++side) {
            const ir::ExprPtr &self = v->args[side], &term = v->args[1 - side];
            if (self->kind == ExprKind::VarRef && self->var == s.var &&
                !mentions(*term, s.var.get()))
                return ReduceUpdate{v->binary_op, s.var->type, s.var, nullptr, {}, term};
        }
    }
    if (s.kind == StmtKind::Store && reducing(s.value)) {
        const ir::ExprPtr &v = s.value;
        for (int side = 0; side < 2; ++side) {
            const ir::ExprPtr &self = v->args[side], &term = v->args[1 - side];
            if (self->kind != ExprKind::Load || self->var != s.var ||
                self->args.size() != s.indices.size() || mentions(*term, s.var.get()))
                continue;
            bool same = true;
            for (size_t k = 0; k < s.indices.size(); ++k)
                same = same && same_index(self->args[k], s.indices[k]);
            if (same)
                return ReduceUpdate{
                    v->binary_op, Type::scalar(s.var->type.elem), nullptr, s.var, s.indices, term};
        }
    }
    return std::nullopt;
}

Plan make_plan(const ir::Module &m, const ir::Function &f, const ParallelSpec &spec) {
    try {
        return Planner(f, spec).run();
    } catch (const PlanError &e) {
        DiagnosticSink sink(m.source);
        sink.error(e.loc, e.message);
        sink.throw_if_errors();
    }
    SMELT_INTERNAL_ASSERT(false, "unreachable");
}

} // namespace smelt::primitives::loops
