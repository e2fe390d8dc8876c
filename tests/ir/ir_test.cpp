// The IR constructors' invariant checks, the printer and the verifier.
#include "ir_build.h"

#include "ir/printer.h"
#include "ir/verify.h"
#include "support/error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace smelt;
using namespace smelt::ir;
using namespace smelt::test;

namespace {

VarPtr make_var(const std::string &name, Type t, Var::Role role = Var::Role::Local) {
    auto v = std::make_shared<Var>();
    v->name = name;
    v->type = t;
    v->role = role;
    return v;
}

TEST(IrMake, RejectsMismatchedOperands) {
    EXPECT_THROW(bin(BinaryOp::Add, i32(1), i64(2)), InternalError);
    EXPECT_THROW(bin(BinaryOp::Div, i32(1), i32(2)), InternalError); // true division is float-only
    EXPECT_THROW(bin(BinaryOp::And, i32(1), i32(2)), InternalError);
    EXPECT_THROW(bin(BinaryOp::Shl, f64(1), f64(2)), InternalError);
    EXPECT_THROW(Expr::unary(UnaryOp::Not, i32(1)), InternalError);
    EXPECT_THROW(Expr::unary(UnaryOp::BitNot, f64(1)), InternalError);
    EXPECT_THROW(Expr::select(i32(1), f64(1), f64(2)), InternalError);
    EXPECT_THROW(Expr::select(cb(true), f64(1), f32(2)), InternalError);
    EXPECT_NO_THROW(bin(BinaryOp::BitXor, cb(true), cb(false)));
    EXPECT_EQ(bin(BinaryOp::Lt, f64(1), f64(2))->type, ty(Scalar::Bool));
    EXPECT_EQ(bin(BinaryOp::Mod, i64(1), i64(2))->type, ty(Scalar::I64));
}

TEST(IrMake, ConstantsAreCanonical) {
    EXPECT_THROW(ci(Scalar::I8, 200), InternalError);
    EXPECT_THROW(ci(Scalar::U32, -1), InternalError);
    EXPECT_THROW(Expr::int_const(ty(Scalar::Bool), 2), InternalError);
    EXPECT_THROW(Expr::int_const(ptr(Scalar::I32), 0), InternalError);
    EXPECT_NO_THROW(ci(Scalar::I8, -128));
    EXPECT_NO_THROW(ci(Scalar::U32, 4294967295));
    EXPECT_NO_THROW(ci(Scalar::U64, -1)); // u64 values are stored bit-cast
    // An f32 constant holds the float value.
    EXPECT_EQ(f32(0.1)->float_value, static_cast<double>(0.1f));
    EXPECT_EQ(f64(0.1)->float_value, 0.1);
}

TEST(IrMake, LoadsStoresAndLoops) {
    auto x = make_var("x", ptr(Scalar::F64), Var::Role::Param);
    auto m = make_var("m", Type::matrix(Scalar::I32, {2, 3}));
    auto t = make_var("t", ty(Scalar::F64));
    EXPECT_EQ(load(x, i64(0))->type, ty(Scalar::F64));
    EXPECT_THROW(load(x, f64(0)), InternalError);
    EXPECT_THROW(Expr::load(m, {i64(0)}), InternalError);
    EXPECT_EQ(Expr::load(m, {i64(0), i32(1)})->type, ty(Scalar::I32));
    EXPECT_THROW(Expr::load(t, {i64(0)}), InternalError);
    EXPECT_THROW(Stmt::assign(t, i32(1)), InternalError);
    EXPECT_THROW(Stmt::store(x, {i64(0)}, f32(1)), InternalError);
    EXPECT_THROW(Stmt::if_(i32(1), {}, {}), InternalError);
    EXPECT_THROW(Expr::atomic(AtomicOp::Add, x, i64(0), nullptr), InternalError);
    EXPECT_EQ(Expr::atomic(AtomicOp::Add, x, i64(0), f64(1))->type, ty(Scalar::F64));

    auto c = make_var("c", ty(Scalar::I64), Var::Role::Hidden);
    auto user = make_var("k", ty(Scalar::I64));
    auto n = make_var("n", ty(Scalar::I64), Var::Role::Param);
    EXPECT_NO_THROW(Stmt::for_(c, i64(0), vref(n), i64(1), {}));
    EXPECT_THROW(Stmt::for_(user, i64(0), vref(n), i64(1), {}), InternalError); // not hidden
    EXPECT_THROW(Stmt::for_(c, i64(0), bin(BinaryOp::Add, vref(n), i64(1)), i64(1), {}),
                 InternalError); // stop must be a constant or a variable
    EXPECT_THROW(Stmt::for_(c, i64(0), vref(n), i64(0), {}), InternalError);
    EXPECT_THROW(Stmt::for_(c, i32(0), vref(n), i64(1), {}), InternalError);
}

// A module touching most node kinds, used by the printer and verifier tests.
std::shared_ptr<Module> sample_module() {
    FnBuilder h("helper", ty(Scalar::F64), 2);
    auto hx = h.param("x", ty(Scalar::F64));
    h.add(Stmt::return_(bin(BinaryOp::Mul, vref(hx), f64(2.0)), at(3)));

    FnBuilder k("kernel", Type::void_(), 5);
    auto i = k.param("i", ty(Scalar::I64));
    auto a = k.param("a", ty(Scalar::F64));
    auto x = k.param("x", ptr(Scalar::F64));
    auto n = k.param("n", ty(Scalar::I32));
    auto t = k.local("t", ty(Scalar::F64));
    auto m = k.local("m", Type::matrix(Scalar::I32, {2, 2}));
    auto c = k.hidden("c", ty(Scalar::I64));
    k.add(Stmt::assign(t, Expr::call("helper", false, ty(Scalar::F64), {load(x, vref(i))}), at(6)));
    auto cond = bin(BinaryOp::And, bin(BinaryOp::Gt, vref(t), vref(a)),
                    Expr::unary(UnaryOp::Not, bin(BinaryOp::Eq, vref(n), i32(3))));
    Block then = {Stmt::break_(at(9))};
    Block orelse = {
        Stmt::assign(t, bin(BinaryOp::Add, vref(t), Expr::cast(ty(Scalar::F64), vref(n))), at(11))};
    k.add(Stmt::for_(c, i64(0), vref(i), i64(1), {Stmt::if_(cond, then, orelse, at(8))}, at(7)));
    k.add(Stmt::store(m, {i64(0), i64(1)}, bin(BinaryOp::Min, vref(n), i32(4)), at(12)));
    k.add(Stmt::eval(Expr::atomic(AtomicOp::Add, x, vref(i), f64(0.5)), at(13)));
    k.add(Stmt::return_(nullptr, at(14)));
    return module_of({h.done(), k.done()});
}

TEST(IrPrinter, SampleModule) {
    const char *expected = R"(def helper(x: double) -> double:  # L2
    return (x * 2.0:double):double  # L3

def kernel(i: long, a: double, x: doublep, n: int) -> void:  # L5
    t: double
    m: matrix((2, 2), 'int')
    c: long  # hidden
    t = helper(x[i]):double  # L6
    for c in range(0:long, i, 1:long):  # L7
        if ((t > a) and (not (n == 3:int))):  # L8
            break  # L9
        else:
            t = (t + double(n)):double  # L11
    m[0:long][1:long] = min(n, 4:int):int  # L12
    atomic_add(x[i], 0.5:double):double  # L13
    return  # L14
)";
    EXPECT_EQ(print(*sample_module()), expected);
}

TEST(IrPrinter, Literals) {
    EXPECT_EQ(print_expr(*f64(0.1)), "0.1:double");
    EXPECT_EQ(print_expr(*f32(0.1)), "0.1:float");
    EXPECT_EQ(print_expr(*f64(1e300)), "1e+300:double");
    EXPECT_EQ(print_expr(*f64(-3)), "-3.0:double");
    EXPECT_EQ(print_expr(*f64(1.0 / 3)), "0.3333333333333333:double");
    EXPECT_EQ(print_expr(*f64(HUGE_VAL)), "inf:double");
    EXPECT_EQ(print_expr(*ci(Scalar::U64, -1)), "18446744073709551615:ulong");
    EXPECT_EQ(print_expr(*cb(false)), "False");
    EXPECT_EQ(print_expr(*Expr::select(cb(true), i32(1), i32(2))),
              "(1:int if True else 2:int):int");
}

TEST(IrVerify, AcceptsSample) {
    EXPECT_NO_THROW(verify(*sample_module()));
}

void expect_rejected(const Module &m, const std::string &fragment) {
    try {
        verify(m);
        ADD_FAILURE() << "verify accepted a broken module; expected: " << fragment;
    } catch (const InternalError &e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

TEST(IrVerify, ReturnTypeMismatch) {
    FnBuilder f("f", ty(Scalar::I32));
    f.add(Stmt::return_(f64(1.0), at(4)));
    expect_rejected(*module_of({f.done()}), "line 4: returns double from a function returning int");

    FnBuilder g("g", ty(Scalar::I32));
    g.add(Stmt::return_(nullptr));
    expect_rejected(*module_of({g.done()}), "returns nothing");
}

TEST(IrVerify, UndeclaredVariable) {
    FnBuilder f("f", ty(Scalar::I32));
    auto stray = make_var("stray", ty(Scalar::I32));
    f.add(Stmt::return_(vref(stray)));
    expect_rejected(*module_of({f.done()}), "'stray' is not a parameter or local");
}

TEST(IrVerify, BreakOutsideLoop) {
    FnBuilder f("f");
    f.add(Stmt::if_(cb(true), {Stmt::break_()}, {}));
    expect_rejected(*module_of({f.done()}), "break or continue outside a loop");

    FnBuilder g("g");
    g.add(Stmt::while_(cb(true), {Stmt::if_(cb(true), {Stmt::continue_()}, {})}));
    EXPECT_NO_THROW(verify(*module_of({g.done()})));
}

TEST(IrVerify, NodesBuiltBehindMakesBack) {
    // Nodes assembled by hand, bypassing make(), are still caught.
    auto bad = std::make_shared<Expr>();
    bad->kind = ExprKind::Binary;
    bad->binary_op = BinaryOp::Add;
    bad->type = ty(Scalar::I32);
    bad->args = {i32(1), f64(2)};
    FnBuilder f("f", ty(Scalar::I32));
    f.add(Stmt::return_(bad));
    expect_rejected(*module_of({f.done()}), "operands of + have types int and double");

    FnBuilder g("g");
    auto n = g.param("n", ty(Scalar::I64));
    auto c = g.hidden("c", ty(Scalar::I64));
    auto loop = std::make_shared<Stmt>();
    loop->kind = StmtKind::For;
    loop->var = c;
    loop->start = i64(0);
    loop->stop = bin(BinaryOp::Add, vref(n), i64(1));
    loop->step = i64(1);
    g.add(loop);
    expect_rejected(*module_of({g.done()}), "stop and step must be constants or variables");
}

TEST(IrVerify, Calls) {
    FnBuilder h("h", ty(Scalar::F64));
    auto hx = h.param("x", ty(Scalar::F64));
    h.add(Stmt::return_(vref(hx)));
    auto hf = h.done();

    FnBuilder f("f", ty(Scalar::F64));
    f.add(Stmt::return_(Expr::call("h", false, ty(Scalar::F64), {f32(1)})));
    expect_rejected(*module_of({hf, f.done()}), "argument 1 of 'h' is float, the parameter double");

    FnBuilder g("g", ty(Scalar::F64));
    g.add(Stmt::return_(Expr::call("nope", false, ty(Scalar::F64), {})));
    expect_rejected(*module_of({hf, g.done()}), "call of 'nope', which is not in the module");

    FnBuilder b("b", ty(Scalar::F64));
    b.add(Stmt::return_(Expr::call("sin", true, ty(Scalar::F64), {f64(1)})));
    EXPECT_NO_THROW(verify(*module_of({hf, b.done()})));
}

TEST(IrVerify, DeclarationsAndLocalMemory) {
    FnBuilder f("f");
    f.param("a", ty(Scalar::I32));
    f.local("a", ty(Scalar::I64));
    expect_rejected(*module_of({f.done()}), "'a' declared twice");

    FnBuilder g("g");
    g.local("buf", Type::matrix(Scalar::F64, {16}, AddrSpace::Local));
    auto gf = g.done();
    gf->uses_local_memory = false;
    expect_rejected(*module_of({gf}), "uses local memory");

    FnBuilder h("h");
    expect_rejected(*module_of({h.done(), FnBuilder("h").done()}), "'h' defined twice");
}

TEST(IrModule, Find) {
    auto m = sample_module();
    ASSERT_NE(m->find("kernel"), nullptr);
    EXPECT_EQ(m->find("kernel")->params.size(), 4u);
    EXPECT_EQ(m->find("missing"), nullptr);
}

} // namespace
