#include "primitives/loop_function/outline.h"

#include "ir/rewrite.h"
#include "support/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace smelt::primitives::loops {

namespace {

using ir::BinaryOp;
using ir::Block;
using ir::Expr;
using ir::ExprPtr;
using ir::Stmt;
using ir::StmtKind;
using ir::StmtPtr;
using ir::VarPtr;

const Type kLong = Type::scalar(Scalar::I64);
const Type kInt = Type::scalar(Scalar::I32);

ExprPtr lit(int64_t v) {
    return Expr::int_const(kLong, v);
}
ExprPtr use(const VarPtr &v) {
    return Expr::var_ref(v);
}
ExprPtr bin(BinaryOp op, ExprPtr a, ExprPtr b) {
    return Expr::binary(op, std::move(a), std::move(b));
}
// A work-item builtin (LID_0, GID_0, LDIM_0, GDIM_0) as a long.
ExprPtr item(const char *name) {
    return Expr::cast(kLong, Expr::call(name, true, kInt, {}));
}
StmtPtr barrier() {
    return Stmt::eval(Expr::call("local_barrier", true, Type::void_(), {}));
}
VarPtr new_var(const std::string &name, const Type &t, ir::Var::Role role) {
    return std::make_shared<ir::Var>(ir::Var{name, t, role});
}
ExprPtr neutral(BinaryOp op, const Type &t) {
    if (t.is_float()) {
        const double inf = std::numeric_limits<double>::infinity();
        return Expr::float_const(t, op == BinaryOp::Add   ? 0.0
                                    : op == BinaryOp::Mul ? 1.0
                                    : op == BinaryOp::Min ? inf
                                                          : -inf);
    }
    if (op == BinaryOp::Add) return Expr::int_const(t, 0);
    if (op == BinaryOp::Mul) return Expr::int_const(t, 1);
    const int bits = scalar_bits(t.elem);
    const bool sig = scalar_is_signed(t.elem);
    const int64_t lo = sig ? (bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1))) : 0;
    const int64_t hi = sig ? (bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1)
                           : (bits == 64 ? int64_t(-1) : (int64_t(1) << bits) - 1);
    return Expr::int_const(t, op == BinaryOp::Min ? hi : lo);
}

int64_t pow2_floor(int64_t v) {
    int64_t p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}

// `continue` of the loop being outlined (outside the body's own loops) ends the iteration.
Block continue_to_return(const Block &b, bool &found) {
    Block out;
    for (const auto &s : b) {
        if (s->kind == StmtKind::Continue) {
            found = true;
            out.push_back(Stmt::return_(nullptr, s->loc));
        } else if (s->kind == StmtKind::If) {
            bool f1 = false, f2 = false;
            Block body = continue_to_return(s->body, f1),
                  orelse = continue_to_return(s->orelse, f2);
            if (f1 || f2) {
                found = true;
                out.push_back(Stmt::if_(s->cond, std::move(body), std::move(orelse), s->loc));
            } else {
                out.push_back(s);
            }
        } else {
            out.push_back(s);
        }
    }
    return out;
}

class Outliner {
public:
    Outliner(const ir::Module &m, const ir::Function &f, const Plan &plan, bool gpu)
        : m_(m), f_(f), plan_(plan), gpu_(gpu) {
        for (const auto &v : plan.frame) {
            VarPtr p =
                new_var("frame_" + v->name, Type::pointer(v->type.elem), ir::Var::Role::Param);
            frame_params_.push_back(p);
            frame_of_[v.get()] = p;
        }
        for (const auto &v : f.locals)
            if (!frame_of_.count(v.get())) locals_.push_back(v);
        out_.module = std::make_shared<ir::Module>();
        out_.module->source = m.source;
        out_.module->other_files = m.other_files;
        out_.module->bounds_checked = m.bounds_checked;
        out_.module->externals = m.externals; // their headers and code come first
        for (const auto &g : m.functions)
            if (g.get() != &f) out_.module->functions.push_back(g);
        for (const auto &v : plan.frame)
            out_.frame.push_back(Type::scalar(v->type.elem));
        out_.shared = f.params;
        for (const auto &p : frame_params_)
            out_.shared.push_back(p);
    }

    Outlined run() {
        for (size_t k = 0; k < plan_.segments.size(); ++k) {
            out_.segments.push_back(segment(plan_.segments[k], "smelt_seg" + std::to_string(k),
                                            "smelt_k" + std::to_string(k)));
            out_.segments.back().kind = plan_.segments[k].kind;
        }
        return std::move(out_);
    }

private:
    // A function taking `lead`, the loop function's parameters, the frame, then `tail`.
    std::shared_ptr<ir::Function> function(const std::string &name, const Type &result,
                                           std::vector<VarPtr> lead, std::vector<VarPtr> tail,
                                           std::vector<VarPtr> extra_locals = {}) {
        auto g = std::make_shared<ir::Function>();
        g->name = name;
        g->loc = f_.loc;
        g->return_type = result;
        g->params = std::move(lead);
        for (const auto &p : f_.params)
            g->params.push_back(p);
        for (const auto &p : frame_params_)
            g->params.push_back(p);
        for (const auto &p : tail)
            g->params.push_back(p);
        for (const auto &p : g->params)
            g->uses_local_memory |= p->type.is_pointer() && p->type.space == AddrSpace::Local;
        g->locals = locals_;
        for (const auto &v : extra_locals)
            g->locals.push_back(v);
        return g;
    }
    void add(const std::shared_ptr<ir::Function> &g, bool kernel = false) {
        out_.module->functions.push_back(g);
        if (kernel) out_.kernels.push_back(g->name);
    }
    // Arguments forwarding `g`'s shared parameters (the loop function's and the frame).
    std::vector<ExprPtr> shared_args() const {
        std::vector<ExprPtr> a;
        for (const auto &p : f_.params)
            a.push_back(use(p));
        for (const auto &p : frame_params_)
            a.push_back(use(p));
        return a;
    }
    ExprPtr call(const std::string &name, const Type &result, std::vector<ExprPtr> lead,
                 std::vector<ExprPtr> tail = {}) const {
        std::vector<ExprPtr> args = std::move(lead);
        for (auto &a : shared_args())
            args.push_back(a);
        for (auto &a : tail)
            args.push_back(a);
        return Expr::call(name, false, result, std::move(args));
    }

    // Frame scalars read and written through their pointers.
    Block framed(const Block &b) const {
        return ir::rewrite_block(
            b, [&](const ExprPtr &e) { return framed_expr(e); },
            [&](const StmtPtr &s, Block &out) {
                auto it = frame_of_.find(s->var.get());
                if (s->kind == StmtKind::Assign && it != frame_of_.end())
                    out.push_back(Stmt::store(it->second, {lit(0)}, s->value, s->loc));
                else
                    out.push_back(s);
            });
    }
    ExprPtr framed_expr(const ExprPtr &e) const {
        return ir::rewrite_expr(e, [&](const ExprPtr &x) -> ExprPtr {
            if (x->kind != ir::ExprKind::VarRef) return x;
            auto it = frame_of_.find(x->var.get());
            return it == frame_of_.end() ? x : Expr::load(it->second, {lit(0)}, x->loc);
        });
    }

    // counter_d = start_d + ((t / inner) % count_d) * step_d for each collapsed loop.
    Block decode(const Segment &seg, const VarPtr &t) const {
        Block out;
        for (size_t d = 0; d < seg.dims.size(); ++d) {
            int64_t inner = 1;
            for (size_t e = d + 1; e < seg.dims.size(); ++e)
                inner *= seg.dims[e].count;
            ExprPtr idx = use(t);
            if (inner > 1) idx = bin(BinaryOp::FloorDiv, idx, lit(inner));
            if (d > 0) idx = bin(BinaryOp::Mod, idx, lit(seg.dims[d].count));
            const Dim &dim = seg.dims[d];
            ExprPtr v = dim.step == 1 ? idx : bin(BinaryOp::Mul, idx, lit(dim.step));
            if (dim.start != 0) v = bin(BinaryOp::Add, lit(dim.start), v);
            out.push_back(Stmt::assign(dim.counter, Expr::cast(dim.counter->type, v), seg.loc));
        }
        return out;
    }

    // Stores (and atomics) of `b` done by item 0 of the group only.
    Block on_item_zero(const Block &b) const {
        return ir::rewrite_block(
            b, [](const ExprPtr &e) { return e; },
            [&](const StmtPtr &s, Block &out) {
                const bool effect =
                    s->kind == StmtKind::Store ||
                    (s->kind == StmtKind::Eval && s->value->kind == ir::ExprKind::Atomic);
                if (!effect) return out.push_back(s);
                out.push_back(Stmt::if_(bin(BinaryOp::Eq, item("LID_0"), lit(0)), {s}, {}, s->loc));
            });
    }

    // The ordered tree over buf[0, LDIM_0): buf[0] holds the group's result after it.
    void tree(Block &out, const VarPtr &buf, BinaryOp op, std::vector<VarPtr> &locals,
              SourceLoc loc) const {
        VarPtr s =
            new_var("smelt_half" + std::to_string(locals.size()), kLong, ir::Var::Role::Hidden);
        locals.push_back(s);
        out.push_back(Stmt::assign(s, bin(BinaryOp::FloorDiv, item("LDIM_0"), lit(2)), loc));
        ExprPtr lid = item("LID_0");
        Block body;
        Block pair;
        pair.push_back(Stmt::store(
            buf, {lid},
            bin(op, Expr::load(buf, {lid}), Expr::load(buf, {bin(BinaryOp::Add, lid, use(s))})),
            loc));
        body.push_back(Stmt::if_(bin(BinaryOp::Lt, lid, use(s)), std::move(pair), {}, loc));
        body.push_back(barrier());
        body.push_back(Stmt::assign(s, bin(BinaryOp::FloorDiv, use(s), lit(2)), loc));
        out.push_back(Stmt::while_(bin(BinaryOp::Gt, use(s), lit(0)), std::move(body), loc));
    }

    // `loop` with its iterations split over the items of the group (item LID_0 takes
    // iterations LID_0, LID_0 + LDIM_0, ...).
    Block strided(const Stmt &loop, std::vector<VarPtr> &locals) const {
        VarPtr step = new_var("smelt_step" + std::to_string(locals.size()), loop.var->type,
                              ir::Var::Role::Hidden);
        locals.push_back(step);
        ExprPtr start =
            bin(BinaryOp::Add, loop.start,
                bin(BinaryOp::Mul, Expr::cast(loop.var->type, item("LID_0")), loop.step));
        Block body;
        body.push_back(Stmt::assign(
            step, bin(BinaryOp::Mul, loop.step, Expr::cast(loop.var->type, item("LDIM_0"))),
            loop.loc));
        body.push_back(Stmt::for_(loop.var, start, loop.stop, use(step), loop.body, loop.loc));
        return body;
    }

    // The reduce loop `loop` (ending with `u`) split over the items of the group.
    Block group_reduction(const Stmt &loop, const ReduceUpdate &u, const VarPtr &buf,
                          std::vector<VarPtr> &locals) const {
        Block out;
        const SourceLoc loc = loop.loc;
        const std::string n = std::to_string(locals.size());
        VarPtr part = new_var("smelt_part" + n, u.type, ir::Var::Role::Hidden);
        VarPtr step = new_var("smelt_step" + n, loop.var->type, ir::Var::Role::Hidden);
        locals.push_back(part);
        locals.push_back(step);
        out.push_back(Stmt::assign(part, neutral(u.op, u.type), loc));
        out.push_back(Stmt::assign(
            step, bin(BinaryOp::Mul, loop.step, Expr::cast(loop.var->type, item("LDIM_0"))), loc));
        Block body(loop.body.begin(), loop.body.end() - 1);
        body.push_back(Stmt::assign(part, bin(u.op, use(part), u.term), loc));
        ExprPtr start =
            bin(BinaryOp::Add, loop.start,
                bin(BinaryOp::Mul, Expr::cast(loop.var->type, item("LID_0")), loop.step));
        out.push_back(Stmt::for_(loop.var, start, loop.stop, use(step), std::move(body), loc));
        out.push_back(Stmt::store(buf, {item("LID_0")}, use(part), loc));
        out.push_back(barrier());
        tree(out, buf, u.op, locals, loc);
        ExprPtr total = Expr::load(buf, {lit(0)});
        if (u.acc) {
            out.push_back(Stmt::assign(u.acc, bin(u.op, use(u.acc), total), loc));
        } else {
            Block store;
            store.push_back(Stmt::store(u.array, u.indices,
                                        bin(u.op, Expr::load(u.array, u.indices), total), loc));
            out.push_back(
                Stmt::if_(bin(BinaryOp::Eq, item("LID_0"), lit(0)), std::move(store), {}, loc));
        }
        // Every item has read buf[0] before the next iteration's items write buf.
        out.push_back(barrier());
        return out;
    }

    SegmentCode segment(const Segment &seg, const std::string &name, const std::string &kname) {
        SegmentCode code;
        code.total = seg.total();
        switch (seg.kind) {
        case SegmentKind::Sequential: {
            auto g = function(name, Type::void_(), {}, {});
            g->body = framed(seg.stmts);
            add(g, gpu_);
            code.body = name;
            code.launches.push_back({name, 1, 1, false, {}});
            return code;
        }
        case SegmentKind::Map:
            return map_segment(seg, name, kname);
        case SegmentKind::Reduce:
            return reduce_segment(seg, name, kname);
        }
        return code;
    }

    SegmentCode map_segment(const Segment &seg, const std::string &name, const std::string &kname) {
        SegmentCode code;
        code.total = seg.total();
        code.body = name;
        bool continues = false;
        Block body = continue_to_return(seg.body, continues);
        VarPtr t = new_var("smelt_t", kLong, ir::Var::Role::Param);
        // A `continue` before the group's barriers would leave items behind: such bodies keep
        // their reduce loop sequential in each item.
        const bool group = gpu_ && !seg.group_loops.empty() && !continues;
        std::vector<VarPtr> bufs;
        if (group)
            for (const auto &g : seg.group_loops)
                bufs.push_back(new_var("smelt_buf" + std::to_string(bufs.size()),
                                       Type::pointer(g.update.type.elem, AddrSpace::Local),
                                       ir::Var::Role::Param));
        if (!group) {
            auto g = function(name, Type::void_(), {t}, {});
            g->body = decode(seg, t);
            for (auto &s : framed(body))
                g->body.push_back(s);
            add(g);
        } else {
            std::vector<VarPtr> extra;
            Block b = decode(seg, t);
            size_t next = 0;
            // Item 0 stores what the statements between the split loops compute, and a split
            // loop's items store their own iterations: a barrier before and after each split
            // loop lets every item read those stores (softmax's sum over the row it just wrote).
            for (size_t k = 0; k < body.size(); ++k) {
                if (next < seg.group_loops.size() && seg.group_loops[next].index == k) {
                    if (k > 0) b.push_back(barrier());
                    for (auto &s :
                         group_reduction(*body[k], seg.group_loops[next].update, bufs[next], extra))
                        b.push_back(s);
                    ++next;
                    continue;
                }
                if (std::count(seg.strided_loops.begin(), seg.strided_loops.end(), k)) {
                    if (k > 0) b.push_back(barrier());
                    for (auto &st : strided(*body[k], extra))
                        b.push_back(st);
                    if (k + 1 < body.size()) b.push_back(barrier());
                    continue;
                }
                for (auto &s : on_item_zero({body[k]}))
                    b.push_back(s);
            }
            auto g = function(name, Type::void_(), {t}, bufs, extra);
            g->body = framed(b);
            add(g);
        }
        if (!gpu_) return code;

        // The kernel: iterations over work-items (or work-groups), grid-stride.
        Launch launch;
        launch.kernel = kname;
        VarPtr kt = new_var("smelt_t", kLong, ir::Var::Role::Hidden);
        VarPtr stride = new_var("smelt_stride", kLong, ir::Var::Role::Hidden);
        std::vector<VarPtr> tail;
        std::vector<VarPtr> kbufs;
        if (group) {
            const LoopPar &gp = seg.group_loops[0].par;
            int64_t tpb = gp.tpb > 0 ? gp.tpb : gp.threads > 0 ? gp.threads : 256;
            launch.group_size = std::clamp<int64_t>(pow2_floor(tpb), 1, 1024);
            int64_t groups =
                seg.par.threads > 0 ? std::min(seg.par.threads, code.total) : code.total;
            launch.groups = std::clamp<int64_t>(groups, 1, int64_t(1) << 20);
            for (const auto &g : seg.group_loops) {
                kbufs.push_back(new_var("smelt_buf" + std::to_string(kbufs.size()),
                                        Type::pointer(g.update.type.elem, AddrSpace::Local),
                                        ir::Var::Role::Param));
                tail.push_back(kbufs.back());
                launch.local_bytes.push_back(size_t(launch.group_size) *
                                             size_t(scalar_bits(g.update.type.elem) / 8));
            }
        } else {
            launch.group_size = seg.par.tpb > 0 ? std::min<int64_t>(seg.par.tpb, 1024) : 256;
            int64_t items =
                seg.par.threads > 0 ? std::min(seg.par.threads, code.total) : code.total;
            launch.groups = std::clamp<int64_t>((items + launch.group_size - 1) / launch.group_size,
                                                1, int64_t(1) << 20);
        }
        auto k = function(kname, Type::void_(), {}, tail, {});
        k->locals = {kt, stride};
        ExprPtr start = group
                            ? item("GID_0")
                            : bin(BinaryOp::Add, bin(BinaryOp::Mul, item("GID_0"), item("LDIM_0")),
                                  item("LID_0"));
        ExprPtr step = group ? item("GDIM_0") : bin(BinaryOp::Mul, item("GDIM_0"), item("LDIM_0"));
        k->body.push_back(Stmt::assign(stride, step, seg.loc));
        Block loop;
        std::vector<ExprPtr> tail_args;
        for (const auto &kb : kbufs)
            tail_args.push_back(use(kb));
        loop.push_back(Stmt::eval(call(name, Type::void_(), {use(kt)}, tail_args), seg.loc));
        k->body.push_back(
            Stmt::for_(kt, start, lit(code.total), use(stride), std::move(loop), seg.loc));
        add(k, true);
        code.launches.push_back(launch);
        return code;
    }

    SegmentCode reduce_segment(const Segment &seg, const std::string &name,
                               const std::string &kname) {
        SegmentCode code;
        code.total = seg.total();
        const ReduceUpdate &u = seg.update;
        const Type T = u.type;
        code.acc = T.elem;
        code.body = name + "_term";
        code.apply = name + "_apply";
        code.combine = name + "_combine";
        code.neutral = name + "_neutral";

        VarPtr t = new_var("smelt_t", kLong, ir::Var::Role::Param);
        auto term = function(code.body, T, {t}, {});
        term->body = decode(seg, t);
        for (auto &s : framed(Block(seg.body.begin(), seg.body.end() - 1)))
            term->body.push_back(s);
        term->body.push_back(Stmt::return_(framed_expr(u.term), seg.loc));
        add(term);

        VarPtr total = new_var("smelt_total", T, ir::Var::Role::Param);
        auto apply = function(code.apply, Type::void_(), {total}, {});
        if (u.acc) {
            apply->body.push_back(Stmt::assign(u.acc, bin(u.op, use(u.acc), use(total)), seg.loc));
        } else {
            apply->body.push_back(Stmt::store(u.array, u.indices,
                                              bin(u.op, Expr::load(u.array, u.indices), use(total)),
                                              seg.loc));
        }
        apply->body = framed(apply->body);
        add(apply);

        VarPtr a = new_var("a", T, ir::Var::Role::Param), b = new_var("b", T, ir::Var::Role::Param);
        auto combine = std::make_shared<ir::Function>();
        combine->name = code.combine;
        combine->loc = f_.loc;
        combine->return_type = T;
        combine->params = {a, b};
        combine->body.push_back(Stmt::return_(bin(u.op, use(a), use(b)), seg.loc));
        add(combine);
        auto neutral_fn = std::make_shared<ir::Function>();
        neutral_fn->name = code.neutral;
        neutral_fn->loc = f_.loc;
        neutral_fn->return_type = T;
        neutral_fn->body.push_back(Stmt::return_(neutral(u.op, T), seg.loc));
        add(neutral_fn);
        if (!gpu_) return code;

        const int64_t tpb =
            std::clamp<int64_t>(pow2_floor(seg.par.tpb > 0 ? seg.par.tpb : 256), 1, 1024);
        int64_t items = seg.par.threads > 0 ? std::min(seg.par.threads, code.total) : code.total;
        const int64_t groups = std::clamp<int64_t>((items + tpb - 1) / tpb, 1, 1024);
        code.parts = groups;
        const size_t local = size_t(tpb) * size_t(scalar_bits(T.elem) / 8);
        for (int pass = 0; pass < 2; ++pass) {
            VarPtr parts = new_var("smelt_parts", Type::pointer(T.elem), ir::Var::Role::Param);
            VarPtr buf =
                new_var("smelt_buf", Type::pointer(T.elem, AddrSpace::Local), ir::Var::Role::Param);
            VarPtr p = new_var("smelt_p", T, ir::Var::Role::Hidden);
            VarPtr kt = new_var("smelt_t", kLong, ir::Var::Role::Hidden);
            VarPtr stride = new_var("smelt_step", kLong, ir::Var::Role::Hidden);
            std::vector<VarPtr> locals{p, kt, stride};
            const std::string kn = kname + (pass == 0 ? "a" : "b");
            auto k = function(kn, Type::void_(), {}, {parts, buf});
            Block body;
            body.push_back(Stmt::assign(p, neutral(u.op, T), seg.loc));
            Block step;
            ExprPtr start, stop;
            if (pass == 0) {
                body.push_back(Stmt::assign(
                    stride, bin(BinaryOp::Mul, item("GDIM_0"), item("LDIM_0")), seg.loc));
                start = bin(BinaryOp::Add, bin(BinaryOp::Mul, item("GID_0"), item("LDIM_0")),
                            item("LID_0"));
                stop = lit(code.total);
                step.push_back(
                    Stmt::assign(p, bin(u.op, use(p), call(code.body, T, {use(kt)})), seg.loc));
            } else {
                body.push_back(Stmt::assign(stride, item("LDIM_0"), seg.loc));
                start = item("LID_0");
                stop = lit(groups);
                step.push_back(
                    Stmt::assign(p, bin(u.op, use(p), Expr::load(parts, {use(kt)})), seg.loc));
            }
            body.push_back(Stmt::for_(kt, start, stop, use(stride), std::move(step), seg.loc));
            body.push_back(Stmt::store(buf, {item("LID_0")}, use(p), seg.loc));
            body.push_back(barrier());
            tree(body, buf, u.op, locals, seg.loc);
            Block last;
            if (pass == 0)
                last.push_back(
                    Stmt::store(parts, {item("GID_0")}, Expr::load(buf, {lit(0)}), seg.loc));
            else
                last.push_back(Stmt::eval(
                    call(code.apply, Type::void_(), {Expr::load(buf, {lit(0)})}), seg.loc));
            body.push_back(
                Stmt::if_(bin(BinaryOp::Eq, item("LID_0"), lit(0)), std::move(last), {}, seg.loc));
            k->locals = locals;
            k->body = std::move(body);
            add(k, true);
            code.launches.push_back({kn, pass == 0 ? groups : 1, tpb, true, {local}});
        }
        return code;
    }

    const ir::Module &m_;
    const ir::Function &f_;
    const Plan &plan_;
    const bool gpu_;
    std::vector<VarPtr> frame_params_;
    std::map<const ir::Var *, VarPtr> frame_of_;
    std::vector<VarPtr> locals_;
    Outlined out_;
};

} // namespace

Outlined outline(const ir::Module &m, const ir::Function &f, const Plan &plan, bool gpu) {
    return Outliner(m, f, plan, gpu).run();
}

} // namespace smelt::primitives::loops
