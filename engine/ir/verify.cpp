#include "ir/verify.h"

#include "ir/printer.h"
#include "support/error.h"

#include <set>

namespace smelt::ir {

namespace {

bool is_comparison(BinaryOp op) {
    return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
           op == BinaryOp::Gt || op == BinaryOp::Ge;
}

// An integer constant is stored in canonical form: sign-extended for signed types,
// zero-extended for unsigned ones (u64 bit-cast), 0/1 for bool.
bool int_value_fits(Scalar s, int64_t v) {
    if (s == Scalar::Bool) return v == 0 || v == 1;
    int bits = scalar_bits(s);
    if (bits == 64) return true;
    if (scalar_is_signed(s)) {
        int64_t lim = int64_t(1) << (bits - 1);
        return v >= -lim && v < lim;
    }
    return v >= 0 && v < (int64_t(1) << bits);
}

void check_indices(const VarPtr &base, const std::vector<ExprPtr> &indices, const char *what) {
    SMELT_INTERNAL_ASSERT(base, what << " of a null variable");
    const Type &t = base->type;
    SMELT_INTERNAL_ASSERT(t.is_pointer() || t.is_matrix(),
                          what << " of '" << base->name << "', which is a " << t.str());
    size_t want = t.is_pointer() ? 1 : t.dims.size();
    SMELT_INTERNAL_ASSERT(indices.size() == want, what << " of '" << base->name << "' has "
                                                       << indices.size() << " indices, needs "
                                                       << want);
    for (const auto &i : indices) {
        SMELT_INTERNAL_ASSERT(i, what << " with a null index");
        SMELT_INTERNAL_ASSERT(i->type.is_integer(),
                              what << " index of type " << i->type.str() << " is not an integer");
    }
}

} // namespace

void check_expr_node(const Expr &e) {
    for (const auto &a : e.args)
        SMELT_INTERNAL_ASSERT(a, "expression with a null operand");
    auto nargs = [&](size_t n) {
        SMELT_INTERNAL_ASSERT(e.args.size() == n,
                              "expression has " << e.args.size() << " operands, needs " << n);
    };
    switch (e.kind) {
    case ExprKind::Const:
        nargs(0);
        SMELT_INTERNAL_ASSERT(e.type.is_scalar(), "constant of type " << e.type.str());
        if (!e.type.is_float())
            SMELT_INTERNAL_ASSERT(int_value_fits(e.type.elem, e.int_value),
                                  "constant " << e.int_value << " is not a canonical "
                                              << e.type.str());
        return;
    case ExprKind::VarRef:
        nargs(0);
        SMELT_INTERNAL_ASSERT(e.var, "reference to a null variable");
        SMELT_INTERNAL_ASSERT(!e.type.is_void() && e.type == e.var->type,
                              "reference to '" << e.var->name << "' has type " << e.type.str()
                                               << ", the variable " << e.var->type.str());
        return;
    case ExprKind::Cast:
        nargs(1);
        SMELT_INTERNAL_ASSERT(e.type.is_scalar() && e.args[0]->type.is_scalar(),
                              "cast from " << e.args[0]->type.str() << " to " << e.type.str());
        return;
    case ExprKind::Unary: {
        nargs(1);
        const Type &a = e.args[0]->type;
        switch (e.unary_op) {
        case UnaryOp::Neg:
            SMELT_INTERNAL_ASSERT(a.is_numeric() && e.type == a, "negation of " << a.str());
            return;
        case UnaryOp::BitNot:
            SMELT_INTERNAL_ASSERT(a.is_integer() && e.type == a, "bitwise not of " << a.str());
            return;
        case UnaryOp::Not:
            SMELT_INTERNAL_ASSERT(a.is_bool() && e.type.is_bool(), "logical not of " << a.str());
            return;
        }
        return;
    }
    case ExprKind::Binary: {
        nargs(2);
        const Type &a = e.args[0]->type;
        const Type &b = e.args[1]->type;
        const char *op = binary_op_symbol(e.binary_op);
        SMELT_INTERNAL_ASSERT(a.is_scalar() && a == b, "operands of " << op << " have types "
                                                                      << a.str() << " and "
                                                                      << b.str());
        if (is_comparison(e.binary_op)) {
            SMELT_INTERNAL_ASSERT(e.type.is_bool(), op << " must give bool");
            return;
        }
        switch (e.binary_op) {
        case BinaryOp::And:
        case BinaryOp::Or:
            SMELT_INTERNAL_ASSERT(a.is_bool() && e.type.is_bool(), op << " of " << a.str());
            return;
        case BinaryOp::Div:
            SMELT_INTERNAL_ASSERT(a.is_float(), "true division of " << a.str());
            break;
        case BinaryOp::BitAnd:
        case BinaryOp::BitOr:
        case BinaryOp::BitXor:
            SMELT_INTERNAL_ASSERT(a.is_integer() || a.is_bool(), op << " of " << a.str());
            break;
        case BinaryOp::Shl:
        case BinaryOp::Shr:
            SMELT_INTERNAL_ASSERT(a.is_integer(), op << " of " << a.str());
            break;
        default:
            SMELT_INTERNAL_ASSERT(a.is_numeric(), op << " of " << a.str());
            break;
        }
        SMELT_INTERNAL_ASSERT(e.type == a, op << " of " << a.str() << " typed " << e.type.str());
        return;
    }
    case ExprKind::Select:
        nargs(3);
        SMELT_INTERNAL_ASSERT(e.args[0]->type.is_bool(),
                              "select condition of type " << e.args[0]->type.str());
        SMELT_INTERNAL_ASSERT(e.args[1]->type == e.args[2]->type && e.type == e.args[1]->type &&
                                  (e.type.is_scalar() || e.type.is_pointer()),
                              "select between " << e.args[1]->type.str() << " and "
                                                << e.args[2]->type.str());
        return;
    case ExprKind::Load:
        check_indices(e.var, e.args, "load");
        SMELT_INTERNAL_ASSERT(e.type == Type::scalar(e.var->type.elem),
                              "load from " << e.var->type.str() << " typed " << e.type.str());
        return;
    case ExprKind::Call:
        SMELT_INTERNAL_ASSERT(!e.callee.empty(), "call without a callee");
        SMELT_INTERNAL_ASSERT(!e.type.is_matrix(), "call returning a matrix");
        return;
    case ExprKind::Atomic: {
        SMELT_INTERNAL_ASSERT(!e.args.empty(), "atomic without an index");
        std::vector<ExprPtr> index(e.args.begin(), e.args.begin() + 1);
        check_indices(e.var, index, "atomic");
        SMELT_INTERNAL_ASSERT(e.var->type.is_pointer() || e.var->type.dims.size() == 1,
                              "atomic on a matrix of rank " << e.var->type.dims.size());
        Type elem = Type::scalar(e.var->type.elem);
        SMELT_INTERNAL_ASSERT(elem.is_numeric() && e.type == elem,
                              "atomic on " << e.var->type.str() << " typed " << e.type.str());
        nargs(e.atomic_op == AtomicOp::Add ? 2 : 1);
        if (e.atomic_op == AtomicOp::Add)
            SMELT_INTERNAL_ASSERT(e.args[1]->type == elem, "atomic_add of " << e.args[1]->type.str()
                                                                            << " to "
                                                                            << elem.str());
        return;
    }
    }
}

void check_stmt_node(const Stmt &s) {
    for (const auto &b : s.body)
        SMELT_INTERNAL_ASSERT(b, "null statement in a block");
    for (const auto &b : s.orelse)
        SMELT_INTERNAL_ASSERT(b, "null statement in a block");
    switch (s.kind) {
    case StmtKind::Assign:
        SMELT_INTERNAL_ASSERT(s.var && s.value, "assignment without a variable or value");
        SMELT_INTERNAL_ASSERT(s.var->type.is_scalar() || s.var->type.is_pointer(),
                              "assignment to '" << s.var->name << "' of type "
                                                << s.var->type.str());
        SMELT_INTERNAL_ASSERT(s.value->type == s.var->type,
                              "assignment of " << s.value->type.str() << " to '" << s.var->name
                                               << "' of type " << s.var->type.str());
        return;
    case StmtKind::Store:
        check_indices(s.var, s.indices, "store");
        SMELT_INTERNAL_ASSERT(s.value && s.value->type == Type::scalar(s.var->type.elem),
                              "store to '" << s.var->name << "' of type " << s.var->type.str()
                                           << " has a value of another type");
        return;
    case StmtKind::If:
    case StmtKind::While:
        SMELT_INTERNAL_ASSERT(s.cond && s.cond->type.is_bool(), "condition is not a bool");
        SMELT_INTERNAL_ASSERT(s.kind == StmtKind::If || s.orelse.empty(), "while with an else");
        return;
    case StmtKind::For: {
        SMELT_INTERNAL_ASSERT(s.var && s.var->type.is_integer(), "for counter is not an integer");
        SMELT_INTERNAL_ASSERT(s.var->role == Var::Role::Hidden,
                              "for counter '" << s.var->name << "' is not a hidden variable");
        SMELT_INTERNAL_ASSERT(s.start && s.stop && s.step, "for without start, stop or step");
        for (const ExprPtr &x : {s.start, s.stop, s.step})
            SMELT_INTERNAL_ASSERT(x->type == s.var->type, "for bound of type "
                                                              << x->type.str() << ", counter "
                                                              << s.var->type.str());
        for (const ExprPtr &x : {s.stop, s.step})
            SMELT_INTERNAL_ASSERT(x->kind == ExprKind::Const || x->kind == ExprKind::VarRef,
                                  "for stop and step must be constants or variables");
        SMELT_INTERNAL_ASSERT(!(s.step->is_const() && s.step->int_value == 0),
                              "for with a constant zero step");
        return;
    }
    case StmtKind::Break:
    case StmtKind::Continue:
        return;
    case StmtKind::Return:
        return;
    case StmtKind::Eval:
        SMELT_INTERNAL_ASSERT(s.value, "expression statement without an expression");
        return;
    }
}

namespace {

class Verifier {
public:
    Verifier(const Module &m, const Function &f) : m_(m), f_(f) {}

    void run() {
        SMELT_INTERNAL_ASSERT(!f_.name.empty(), "function without a name");
        std::set<std::string> names;
        bool local_memory = false;
        for (const auto &p : f_.params) {
            declare(p, names);
            where_ok(p->role == Var::Role::Param, "parameter '" + p->name + "' is not a Param");
            where_ok(p->type.is_scalar() || p->type.is_pointer() || p->type.is_matrix(),
                     "parameter '" + p->name + "' has type " + p->type.str());
            local_memory |=
                (p->type.is_pointer() || p->type.is_matrix()) && p->type.space == AddrSpace::Local;
        }
        for (const auto &v : f_.locals) {
            declare(v, names);
            where_ok(v->role != Var::Role::Param, "local '" + v->name + "' is a Param");
            local_memory |= v->type.is_matrix() && v->type.space == AddrSpace::Local;
        }
        where_ok(!local_memory || f_.uses_local_memory,
                 "uses local memory but uses_local_memory is false");
        block(f_.body);
    }

private:
    void where_ok(bool ok, const std::string &msg) const {
        SMELT_INTERNAL_ASSERT(
            ok, "in function '" << f_.name << "'"
                                << (line_ ? ", line " + std::to_string(line_) : "") << ": " << msg);
    }

    void declare(const VarPtr &v, std::set<std::string> &names) {
        where_ok(v != nullptr, "null variable");
        where_ok(!v->type.is_void(), "variable '" + v->name + "' has type void");
        where_ok(names.insert(v->name).second, "variable '" + v->name + "' declared twice");
        declared_.insert(v.get());
    }

    void use(const VarPtr &v) {
        where_ok(v && declared_.count(v.get()),
                 "variable '" + (v ? v->name : "?") + "' is not a parameter or local");
    }

    void block(const Block &b) {
        for (const auto &s : b)
            stmt(s);
    }

    void stmt(const StmtPtr &s) {
        where_ok(s != nullptr, "null statement");
        if (s->loc.valid()) line_ = s->loc.line;
        try {
            check_stmt_node(*s);
        } catch (const InternalError &err) {
            where_ok(false, err.what());
        }
        switch (s->kind) {
        case StmtKind::Assign:
            use(s->var);
            expr(s->value);
            return;
        case StmtKind::Store:
            use(s->var);
            for (const auto &i : s->indices)
                expr(i);
            expr(s->value);
            return;
        case StmtKind::If:
            expr(s->cond);
            block(s->body);
            block(s->orelse);
            return;
        case StmtKind::While:
            expr(s->cond);
            ++loop_depth_;
            block(s->body);
            --loop_depth_;
            return;
        case StmtKind::For:
            use(s->var);
            expr(s->start);
            expr(s->stop);
            expr(s->step);
            ++loop_depth_;
            block(s->body);
            --loop_depth_;
            return;
        case StmtKind::Break:
        case StmtKind::Continue:
            where_ok(loop_depth_ > 0, "break or continue outside a loop");
            return;
        case StmtKind::Return:
            if (s->value) {
                expr(s->value);
                where_ok(s->value->type == f_.return_type, "returns " + s->value->type.str() +
                                                               " from a function returning " +
                                                               f_.return_type.str());
            } else {
                where_ok(f_.return_type.is_void(),
                         "returns nothing from a function returning " + f_.return_type.str());
            }
            return;
        case StmtKind::Eval:
            expr(s->value);
            return;
        }
    }

    void expr(const ExprPtr &e) {
        where_ok(e != nullptr, "null expression");
        try {
            check_expr_node(*e);
        } catch (const InternalError &err) {
            where_ok(false, std::string(err.what()) + " in " + print_expr(*e));
        }
        if (e->var) use(e->var);
        for (const auto &a : e->args)
            expr(a);
        if (e->kind == ExprKind::Call && !e->is_builtin && !e->is_external) call(*e);
    }

    void call(const Expr &e) {
        const Function *callee = m_.find(e.callee);
        where_ok(callee != nullptr, "call of '" + e.callee + "', which is not in the module");
        where_ok(callee->params.size() == e.args.size(),
                 "call of '" + e.callee + "' with " + std::to_string(e.args.size()) +
                     " arguments, needs " + std::to_string(callee->params.size()));
        for (size_t i = 0; i < e.args.size(); ++i)
            where_ok(e.args[i]->type == callee->params[i]->type,
                     "argument " + std::to_string(i + 1) + " of '" + e.callee + "' is " +
                         e.args[i]->type.str() + ", the parameter " +
                         callee->params[i]->type.str());
        where_ok(e.type == callee->return_type, "call of '" + e.callee + "' typed " + e.type.str() +
                                                    ", it returns " + callee->return_type.str());
    }

    const Module &m_;
    const Function &f_;
    std::set<const Var *> declared_;
    int loop_depth_ = 0;
    int line_ = 0;
};

} // namespace

void verify(const Module &m) {
    std::set<std::string> names;
    for (const auto &f : m.functions) {
        SMELT_INTERNAL_ASSERT(f, "null function in module");
        SMELT_INTERNAL_ASSERT(names.insert(f->name).second,
                              "function '" << f->name << "' defined twice");
        Verifier(m, *f).run();
    }
}

} // namespace smelt::ir
