#include "primitives/length_check.h"

namespace smelt::primitives {

namespace {

bool is_index(const ir::ExprPtr &e, const ir::Var *i) {
    if (e->kind == ir::ExprKind::Cast) return is_index(e->args[0], i);
    return e->kind == ir::ExprKind::VarRef && e->var.get() == i;
}

class ItemIndexing {
public:
    ItemIndexing(const ir::Function &f, size_t index) : f_(f), i_(f.params.at(index).get()) {
        found_.assign(f.params.size(), false);
        find_assigned(f.body);
        for (const auto &st : f.body) {
            if (st->kind == ir::StmtKind::Return) { // its value is evaluated, then nothing more
                expr(st->value);
                break;
            }
            if (st->kind != ir::StmtKind::Assign && st->kind != ir::StmtKind::Store &&
                st->kind != ir::StmtKind::Eval)
                break; // past here an access may depend on the data
            for (const auto &ix : st->indices)
                expr(ix);
            expr(st->value);
            if (st->kind == ir::StmtKind::Store && st->indices.size() == 1 &&
                is_index(st->indices[0], i_))
                mark(st->var.get());
        }
    }
    // Per parameter of f (the index itself false).
    std::vector<bool> result() const {
        std::vector<bool> out;
        for (size_t k = 0; k < f_.params.size(); ++k)
            out.push_back(found_[k] && !assigned_[k] && !index_assigned_);
        return out;
    }

private:
    void mark(const ir::Var *v) {
        for (size_t k = 0; k < f_.params.size(); ++k)
            if (f_.params[k].get() == v && v != i_ && v->type.is_pointer()) found_[k] = true;
    }
    // Only what is evaluated for certain: not the branches of a Select, not the right side of
    // and/or.
    void expr(const ir::ExprPtr &e) {
        if (!e) return;
        if (e->kind == ir::ExprKind::Load && e->args.size() == 1 && is_index(e->args[0], i_))
            mark(e->var.get());
        if (e->kind == ir::ExprKind::Select) return expr(e->args[0]);
        if (e->kind == ir::ExprKind::Binary &&
            (e->binary_op == ir::BinaryOp::And || e->binary_op == ir::BinaryOp::Or))
            return expr(e->args[0]);
        for (const auto &a : e->args)
            expr(a);
    }
    void find_assigned(const ir::Block &b) {
        if (assigned_.empty()) assigned_.assign(f_.params.size(), false);
        for (const auto &st : b) {
            if (st->kind == ir::StmtKind::Assign) {
                if (st->var.get() == i_) index_assigned_ = true;
                for (size_t k = 0; k < f_.params.size(); ++k)
                    if (st->var.get() == f_.params[k].get()) assigned_[k] = true;
            }
            find_assigned(st->body);
            find_assigned(st->orelse);
        }
    }

    const ir::Function &f_;
    const ir::Var *i_;
    std::vector<bool> found_, assigned_;
    bool index_assigned_ = false;
};

} // namespace

std::vector<bool> indexed_at_item(const ir::Function &f) {
    if (f.params.empty()) return {};
    std::vector<bool> all = ItemIndexing(f, 0).result();
    return std::vector<bool>(all.begin() + 1, all.end());
}

std::vector<bool> indexed_by_param(const ir::Function &f, size_t index) {
    return ItemIndexing(f, index).result();
}

void check_lengths(const std::string &who, const std::vector<std::string> &names,
                   const std::vector<const Arg *> &args, const std::vector<bool> &indexed,
                   int64_t n) {
    for (size_t k = 0; k < args.size() && k < indexed.size(); ++k) {
        if (!indexed[k] || !args[k]->is_array()) continue;
        const size_t len = args[k]->array().size();
        if (len >= static_cast<size_t>(n)) continue;
        throw UsageError(who + " indexes '" + names[k] + "' at every item i < " +
                         std::to_string(n) + ", but '" + names[k] + "' has " + std::to_string(len) +
                         " element" + (len == 1 ? "" : "s") + ": pass an array of at least " +
                         std::to_string(n) + " elements, or fewer items");
    }
}

} // namespace smelt::primitives
