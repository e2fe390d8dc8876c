// Typing rules for ParPy's loop-parallel syntax (docs/LANGUAGE.md, "Loop-parallel functions"):
// parpy.label statements, reductions over slices (parpy.sum/prod/min/max), slice statements
// (out[:] = a * x[:]) and casts (parpy.float32(x)). Everything here lowers to ordinary IR:
// labelled for loops, accumulators and loads; primitives/loop_function decides what runs in
// parallel.
#include "lower/lowering.h"

#include <cmath>
#include <limits>

namespace smelt::lower {

namespace {

const Type kLong = Type::scalar(Scalar::I64);

// The array a (chained) subscript indexes, with its index nodes in order.
const ast::Expr *subscript_parts(const ast::Expr &e, std::vector<const ast::Expr *> &indices) {
    const ast::Expr *base = &e;
    while (base->kind == ast::ExprKind::Subscript) {
        indices.insert(indices.begin(), base->args[1].get());
        base = base->args[0].get();
    }
    return base;
}

bool has_slice(const std::vector<const ast::Expr *> &indices) {
    for (const ast::Expr *ix : indices)
        if (ix->kind == ast::ExprKind::Slice) return true;
    return false;
}

std::optional<Scalar> cast_scalar(const std::string &n) {
    if (n == "float32") return Scalar::F32;
    if (n == "float64") return Scalar::F64;
    if (n == "int8") return Scalar::I8;
    if (n == "int16") return Scalar::I16;
    if (n == "int32") return Scalar::I32;
    if (n == "int64") return Scalar::I64;
    if (n == "uint8") return Scalar::U8;
    if (n == "uint16") return Scalar::U16;
    if (n == "uint32") return Scalar::U32;
    if (n == "uint64") return Scalar::U64;
    if (n == "bool") return Scalar::Bool;
    return std::nullopt;
}

ir::ExprPtr neutral_of(ir::BinaryOp op, const Type &t, SourceLoc loc) {
    using B = ir::BinaryOp;
    if (t.is_float()) {
        const double inf = std::numeric_limits<double>::infinity();
        double v = op == B::Add ? 0.0 : op == B::Mul ? 1.0 : op == B::Min ? inf : -inf;
        return ir::Expr::float_const(t, v, loc);
    }
    if (op == B::Add) return ir::Expr::int_const(t, 0, loc);
    if (op == B::Mul) return ir::Expr::int_const(t, 1, loc);
    const int bits = scalar_bits(t.elem);
    const bool sig = scalar_is_signed(t.elem);
    int64_t lo = sig ? (bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1))) : 0;
    int64_t hi = sig ? (bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1)
                     : (bits == 64 ? int64_t(-1) : (int64_t(1) << bits) - 1);
    return ir::Expr::int_const(t, op == B::Min ? hi : lo, loc);
}

} // namespace

bool FunctionLowerer::is_parpy_call(const ast::Expr &e, const char *attr) const {
    if (e.kind != ast::ExprKind::Call) return false;
    const ast::Expr &callee = *e.args[0];
    if (callee.kind != ast::ExprKind::Attribute || callee.args.empty() ||
        callee.args[0]->kind != ast::ExprKind::Name)
        return false;
    const std::string &module = callee.args[0]->name;
    if (!scope().parpy_names.count(module) || vars_.count(module)) return false;
    return !attr || callee.name == attr;
}

bool FunctionLowerer::take_label_statement(const ast::Stmt &s) {
    if (s.kind != ast::StmtKind::ExprStmt || !is_parpy_call(*s.value, "label")) return false;
    const ast::Expr &call = *s.value;
    if (call.args.size() != 2 || call.args[1]->kind != ast::ExprKind::Str || !call.keywords.empty())
        fail(call.loc, "parpy.label() takes one string, the label's name: parpy.label('N')");
    pending_labels_.push_back({call.args[1]->str_value, call.loc});
    return true;
}

std::vector<std::string> FunctionLowerer::take_labels() {
    std::vector<std::string> out;
    for (const auto &l : current_labels_)
        out.push_back(l.name);
    current_labels_.clear();
    return out;
}

void FunctionLowerer::reject_unused_labels() {
    if (current_labels_.empty()) return;
    const Label l = current_labels_.front();
    current_labels_.clear();
    fail(l.loc, "parpy.label('" + l.name +
                    "') labels the next statement, which must be a for loop, a slice statement "
                    "(out[:] = ...) or hold a parpy reduction (parpy.sum(x[i, :]))");
}

std::optional<int64_t> FunctionLowerer::specialised_value(const ir::Var &v) const {
    const auto &entry = options().loop_entry;
    if (!entry || v.role != ir::Var::Role::Param || entry->function != out_->name) return {};
    auto it = entry->values.find(v.name);
    if (it == entry->values.end()) return {};
    return it->second;
}

std::optional<std::vector<int64_t>> FunctionLowerer::extents_of(const ir::Var &v) const {
    if (v.type.is_matrix()) return v.type.dims;
    const auto &entry = options().loop_entry;
    if (!entry || v.role != ir::Var::Role::Param || entry->function != out_->name) return {};
    auto it = entry->shapes.find(v.name);
    if (it == entry->shapes.end()) return {};
    return it->second;
}

FunctionLowerer::SliceRange FunctionLowerer::slice_range(const ir::Var &base, size_t axis,
                                                         const ast::Expr &slice) {
    SliceRange r;
    size_t next = 0;
    auto part = [&](uint64_t bit, const char *what) -> ir::ExprPtr {
        if (!(slice.int_value & bit)) return nullptr;
        const ast::Expr &node = *slice.args[next++];
        TExpr x = expr(node);
        if (!x.type().is_integer())
            fail(node.loc, std::string("the ") + what + " of a slice must be an integer, not " +
                               x.type().str());
        if (x.e->is_const() && x.e->int_value < 0)
            fail(node.loc, "negative slice bounds are not supported in kernels; Python would "
                           "count from the end");
        return convert(x, kLong, node.loc);
    };
    r.lo = part(ast::kSliceLo, "start");
    r.hi = part(ast::kSliceHi, "stop");
    r.step = part(ast::kSliceStep, "step");
    if (r.step && (!r.step->is_const() || r.step->int_value <= 0))
        fail(slice.loc, "a slice step must be a positive integer constant");
    const auto extents = extents_of(base);
    if (!r.hi) {
        if (!extents)
            fail(slice.loc, "the extent of '" + base.name +
                                "' is not known here, so this slice needs an explicit stop "
                                "(slices of the loop-parallel function's array arguments know "
                                "their extents)");
        r.hi = ir::Expr::int_const(kLong, (*extents)[axis], slice.loc);
    }
    if (!r.lo) r.lo = ir::Expr::int_const(kLong, 0, slice.loc);
    if (!r.step) r.step = ir::Expr::int_const(kLong, 1, slice.loc);
    if (extents && r.hi->is_const() && r.hi->int_value > (*extents)[axis])
        fail(slice.loc, "the slice stops at " + std::to_string(r.hi->int_value) + " but '" +
                            base.name + "' has " + std::to_string((*extents)[axis]) +
                            " elements along axis " + std::to_string(axis));
    if (r.lo->is_const() && r.hi->is_const()) {
        const int64_t n = r.hi->int_value - r.lo->int_value;
        r.extent = n <= 0 ? 0 : (n + r.step->int_value - 1) / r.step->int_value;
    }
    return r;
}

ir::ExprPtr FunctionLowerer::slice_index(const ir::VarPtr &base, size_t axis,
                                         const ast::Expr &slice, size_t slice_number,
                                         size_t slice_count) {
    if (slice_contexts_.empty())
        fail(slice.loc, "a slice can only be used in a slice statement (out[:] = ...) or in a "
                        "parpy reduction (parpy.sum(x[i, :]))");
    const auto &ctx = slice_contexts_.back();
    if (slice_count != ctx.size())
        fail(slice.loc, "'" + base->name + "' is sliced along " + std::to_string(slice_count) +
                            " axes here but the statement loops over " +
                            std::to_string(ctx.size()));
    const SliceBinding &b = ctx[slice_number];
    if (b.absolute) return b.index;
    SliceRange r = slice_range(*base, axis, slice);
    if (b.extent && r.extent && *b.extent != *r.extent)
        fail(slice.loc, "this slice of '" + base->name + "' has " + std::to_string(*r.extent) +
                            " elements but the statement's loop " + std::to_string(slice_number) +
                            " has " + std::to_string(*b.extent) +
                            "; every slice of a statement must have the same extent");
    if (!r.extent)
        fail(slice.loc, "the bounds of a slice in a slice statement must be known when the "
                        "function is specialised");
    ir::ExprPtr scaled = r.step->int_value == 1
                             ? b.index
                             : ir::Expr::binary(ir::BinaryOp::Mul, b.index, r.step, slice.loc);
    if (r.lo->is_const() && r.lo->int_value == 0) return scaled;
    return ir::Expr::binary(ir::BinaryOp::Add, r.lo, scaled, slice.loc);
}

TExpr FunctionLowerer::parpy_call(const ast::Expr &e) {
    const ast::Expr &callee = *e.args[0];
    const std::string &name = callee.name;
    const std::string &module = callee.args[0]->name;
    const size_t nargs = e.args.size() - 1;
    if (name == "label")
        fail(callee.loc, module + ".label('N') must stand alone as a statement, before the loop "
                                  "or slice statement it labels");
    if (name == "sum" || name == "prod" || name == "min" || name == "max")
        return parpy_reduce(e, name);
    if (auto s = cast_scalar(name)) {
        if (nargs != 1 || !e.keywords.empty())
            fail(e.loc, module + "." + name + "() takes one number");
        TExpr x = expr(*e.args[1]);
        if (!x.type().is_scalar() || x.type().is_void())
            fail(e.args[1]->loc, module + "." + name + "() needs a number");
        Type t = Type::scalar(*s);
        if (mod_.single()) t = demote_to_single(t);
        return {convert(x, t, e.loc)};
    }
    if (name == "float16")
        fail(callee.loc, module + ".float16 is not supported: kernels have no 16-bit floats");
    fail(callee.loc, module + "." + name +
                         "(...) is not supported in kernels; ParPy's label, sum, prod, min, max "
                         "and casts (float32, int64, ...) are");
}

TExpr FunctionLowerer::parpy_reduce(const ast::Expr &e, const std::string &op_name) {
    const std::string module = e.args[0]->args[0]->name;
    const std::string who = module + "." + op_name + "()";
    if (e.args.size() != 2) fail(e.loc, who + " takes one sliced array, e.g. x[i, :]");
    std::optional<int64_t> axis;
    for (const auto &kw : e.keywords) {
        if (kw.name != "axis") fail(kw.loc, who + " takes no keyword '" + kw.name + "'");
        if (kw.value->kind != ast::ExprKind::Int)
            fail(kw.value->loc, "axis= must be an integer literal");
        axis = int64_t(kw.value->int_value);
    }
    if (!hoisted_)
        fail(e.loc, who + " cannot be used in a while condition (it would be computed once)");
    const ast::Expr &operand = *e.args[1];
    std::vector<const ast::Expr *> indices;
    const ast::Expr *base_node = subscript_parts(operand, indices);
    if (base_node->kind != ast::ExprKind::Name || !has_slice(indices))
        fail(operand.loc, who + " reduces a slice of an array, e.g. " +
                              who.substr(0, who.size() - 1) + "x[i, :])");
    auto it = vars_.find(base_node->name);
    if (it == vars_.end() || !(it->second->type.is_pointer() || it->second->type.is_matrix()))
        fail(base_node->loc, "'" + base_node->name + "' is not an array");
    const ir::VarPtr base = it->second;
    std::vector<size_t> sliced;
    for (size_t k = 0; k < indices.size(); ++k)
        if (indices[k]->kind == ast::ExprKind::Slice) sliced.push_back(k);
    // axis= counts the operand's axes as NumPy does: those of the slice's result, i.e. the
    // sliced indices (x[i, :] has one axis, 0).
    if (axis && (*axis < 0 || size_t(*axis) >= sliced.size()))
        fail(e.keywords[0].value->loc,
             "axis=" + std::to_string(*axis) + " is out of range: " + base->name +
                 "'s slice here has " + std::to_string(sliced.size()) + " axes");
    const std::optional<size_t> axis_index =
        axis ? std::optional<size_t>(sliced[size_t(*axis)]) : std::nullopt;

    using B = ir::BinaryOp;
    const B op = op_name == "sum"    ? B::Add
                 : op_name == "prod" ? B::Mul
                 : op_name == "min"  ? B::Min
                                     : B::Max;
    Type t = Type::scalar(base->type.elem);
    if (t.is_bool()) t = kLong;
    ir::VarPtr acc = new_var(hidden_name(op_name), t, ir::Var::Role::Hidden);
    hoisted_->push_back(ir::Stmt::assign(acc, neutral_of(op, t, e.loc), e.loc));

    // One loop per reduced axis (all sliced axes, or the one axis= names); the other slices
    // are bound by the enclosing slice statement, in order.
    std::vector<SliceBinding> bindings;
    struct Loop {
        ir::VarPtr counter;
        SliceRange range;
        SourceLoc loc;
    };
    std::vector<Loop> loops;
    size_t outer = 0;
    for (size_t k : sliced) {
        const bool reduced = !axis_index || *axis_index == k;
        if (!reduced) {
            if (slice_contexts_.empty() || outer >= slice_contexts_.back().size())
                fail(indices[k]->loc, who +
                                          " with axis= gives an array: use it in a slice "
                                          "statement (out[:] = " +
                                          who.substr(0, who.size() - 1) + "x[:, :], axis=1))");
            bindings.push_back(slice_contexts_.back()[outer++]);
            continue;
        }
        SliceRange r = slice_range(*base, k, *indices[k]);
        ir::VarPtr counter = new_var(hidden_name(op_name + "_it"), kLong, ir::Var::Role::Hidden);
        bindings.push_back({ir::Expr::var_ref(counter, indices[k]->loc), true, r.extent});
        loops.push_back({counter, r, indices[k]->loc});
    }
    if (!slice_contexts_.empty() && outer != slice_contexts_.back().size() && axis)
        fail(operand.loc, who + " leaves " + std::to_string(sliced.size() - 1) +
                              " axes but the statement loops over " +
                              std::to_string(slice_contexts_.back().size()));
    slice_contexts_.push_back(bindings);
    TExpr item;
    try {
        item = expr(operand);
    } catch (...) {
        slice_contexts_.pop_back();
        throw;
    }
    slice_contexts_.pop_back();
    ir::Block body;
    body.push_back(ir::Stmt::assign(
        acc, ir::Expr::binary(op, ir::Expr::var_ref(acc, e.loc), convert(item, t, e.loc), e.loc),
        e.loc));
    std::vector<std::string> labels = take_labels();
    // Stop and step must be constants or variables (range semantics: evaluated once).
    for (size_t k = loops.size(); k-- > 0;) {
        const Loop &l = loops[k];
        ir::ExprPtr stop = l.range.hi;
        if (!stop->is_const()) {
            ir::VarPtr h = new_var(hidden_name(op_name + "_stop"), kLong, ir::Var::Role::Hidden);
            hoisted_->push_back(ir::Stmt::assign(h, stop, l.loc));
            stop = ir::Expr::var_ref(h, l.loc);
        }
        ir::Block loop;
        loop.push_back(ir::Stmt::for_(l.counter, l.range.lo, stop, l.range.step, std::move(body),
                                      l.loc, k == 0 ? labels : std::vector<std::string>{}));
        body = std::move(loop);
    }
    for (auto &s : body)
        hoisted_->push_back(std::move(s));
    return {ir::Expr::var_ref(acc, e.loc)};
}

bool FunctionLowerer::slice_statement(const ast::Stmt &s, ir::Block &out) {
    if (s.kind != ast::StmtKind::Assign && s.kind != ast::StmtKind::AugAssign) return false;
    if (s.targets.size() != 1 || s.targets[0]->kind != ast::ExprKind::Subscript) return false;
    std::vector<const ast::Expr *> indices;
    const ast::Expr *base_node = subscript_parts(*s.targets[0], indices);
    if (!has_slice(indices)) return false;
    if (base_node->kind != ast::ExprKind::Name)
        fail(base_node->loc, "only named arrays can be indexed");
    auto it = vars_.find(base_node->name);
    if (it == vars_.end() || !(it->second->type.is_pointer() || it->second->type.is_matrix()))
        fail(base_node->loc, "'" + base_node->name + "' is not an array");
    const ir::VarPtr base = it->second;

    std::vector<SliceBinding> bindings;
    std::vector<ir::VarPtr> counters;
    std::vector<int64_t> extents;
    for (size_t k = 0; k < indices.size(); ++k) {
        if (indices[k]->kind != ast::ExprKind::Slice) continue;
        SliceRange r = slice_range(*base, k, *indices[k]);
        if (!r.extent)
            fail(indices[k]->loc, "the bounds of the slice a slice statement assigns must be "
                                  "known when the function is specialised");
        ir::VarPtr counter = new_var(hidden_name("slice_it"), kLong, ir::Var::Role::Hidden);
        counters.push_back(counter);
        extents.push_back(*r.extent);
        bindings.push_back({ir::Expr::var_ref(counter, indices[k]->loc), false, r.extent});
    }
    std::vector<std::string> labels = take_labels();
    if (labels.size() > counters.size())
        fail(s.loc, "this slice statement loops over " + std::to_string(counters.size()) +
                        " axes but has " + std::to_string(labels.size()) + " labels");

    ir::Block body;
    ir::Block *saved = hoisted_;
    ir::Block inner_hoisted;
    hoisted_ = &inner_hoisted;
    slice_contexts_.push_back(bindings);
    try {
        stmt(s, body); // the statement itself, its slices now bound to the counters
    } catch (...) {
        slice_contexts_.pop_back();
        hoisted_ = saved;
        throw;
    }
    slice_contexts_.pop_back();
    hoisted_ = saved;
    inner_hoisted.insert(inner_hoisted.end(), body.begin(), body.end());
    body = std::move(inner_hoisted);
    for (size_t k = counters.size(); k-- > 0;) {
        ir::Block loop;
        std::vector<std::string> l;
        if (k < labels.size()) l.push_back(labels[k]);
        loop.push_back(ir::Stmt::for_(counters[k], ir::Expr::int_const(kLong, 0, s.loc),
                                      ir::Expr::int_const(kLong, extents[k], s.loc),
                                      ir::Expr::int_const(kLong, 1, s.loc), std::move(body), s.loc,
                                      std::move(l)));
        body = std::move(loop);
    }
    for (auto &st : body)
        out.push_back(std::move(st));
    return true;
}

} // namespace smelt::lower
