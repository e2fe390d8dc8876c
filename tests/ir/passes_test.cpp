// constant_fold, expand_pow and the pass script, against independent computations.
#include "ir_build.h"
#include "python_oracle.h"

#include "ir/passes/constant_fold.h"
#include "ir/passes/expand_pow.h"
#include "ir/passes/pass_list.h"
#include "ir/printer.h"
#include "support/error.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>

using namespace smelt;
using namespace smelt::ir;
using namespace smelt::test;

namespace {

ExprPtr fold(const ExprPtr &e) {
    return returned(*constant_fold(*returning(e)));
}

int64_t folded_int(const ExprPtr &e) {
    ExprPtr r = fold(e);
    EXPECT_TRUE(r->is_const()) << print_expr(*e) << " folded to " << print_expr(*r);
    EXPECT_EQ(r->type, e->type);
    return r->int_value;
}

double folded_float(const ExprPtr &e) {
    ExprPtr r = fold(e);
    EXPECT_TRUE(r->is_const()) << print_expr(*e) << " folded to " << print_expr(*r);
    EXPECT_EQ(r->type, e->type);
    return r->float_value;
}

// Python's integer // and %, from the definition: q = floor(a / b), r = a - b*q. Small operands
// are exact in double.
int64_t py_floordiv_ref(int64_t a, int64_t b) {
    return static_cast<int64_t>(std::floor(static_cast<double>(a) / static_cast<double>(b)));
}
int64_t py_mod_ref(int64_t a, int64_t b) {
    return a - b * py_floordiv_ref(a, b);
}

TEST(ConstantFold, IntegerFloorDivAndModFollowPython) {
    for (Scalar s : {Scalar::I8, Scalar::I32, Scalar::I64}) {
        for (int64_t a = -9; a <= 9; ++a) {
            for (int64_t b : {-4, -3, -2, -1, 1, 2, 3, 4}) {
                EXPECT_EQ(folded_int(bin(BinaryOp::FloorDiv, ci(s, a), ci(s, b))),
                          py_floordiv_ref(a, b))
                    << a << " // " << b;
                EXPECT_EQ(folded_int(bin(BinaryOp::Mod, ci(s, a), ci(s, b))), py_mod_ref(a, b))
                    << a << " % " << b;
            }
        }
    }
    // Unsigned: plain C division.
    EXPECT_EQ(folded_int(bin(BinaryOp::FloorDiv, ci(Scalar::U32, 4000000000), ci(Scalar::U32, 7))),
              4000000000 / 7);
    EXPECT_EQ(folded_int(bin(BinaryOp::Mod, ci(Scalar::U64, -1), ci(Scalar::U64, 10))),
              static_cast<int64_t>(UINT64_MAX % 10));
}

TEST(ConstantFold, IntegersWrapAtTheirWidth) {
    auto i8 = [](int64_t v) { return ci(Scalar::I8, v); };
    // Oracle: the same arithmetic done in wider C++ types and converted back.
    EXPECT_EQ(folded_int(bin(BinaryOp::Add, i8(100), i8(100))), int8_t(uint8_t(200)));
    EXPECT_EQ(folded_int(bin(BinaryOp::Add, i8(127), i8(1))), -128);
    EXPECT_EQ(folded_int(bin(BinaryOp::Sub, i8(-128), i8(1))), 127);
    EXPECT_EQ(folded_int(bin(BinaryOp::Mul, i8(16), i8(16))), 0);
    EXPECT_EQ(folded_int(bin(BinaryOp::Mul, i8(-7), i8(50))), int8_t(uint8_t(-350 & 0xff)));
    EXPECT_EQ(folded_int(Expr::unary(UnaryOp::Neg, i8(-128))), -128);
    EXPECT_EQ(folded_int(bin(BinaryOp::FloorDiv, i8(-128), i8(-1))), -128);
    EXPECT_EQ(folded_int(bin(BinaryOp::Mod, i8(-128), i8(-1))), 0);
    EXPECT_EQ(folded_int(Expr::unary(UnaryOp::BitNot, i8(5))), ~5);

    EXPECT_EQ(folded_int(bin(BinaryOp::Add, i32(INT32_MAX), i32(1))), INT32_MIN);
    EXPECT_EQ(folded_int(bin(BinaryOp::Mul, i32(65536), i32(65536))), 0);
    EXPECT_EQ(folded_int(bin(BinaryOp::Mul, i32(INT32_MAX), i32(2))), -2);
    EXPECT_EQ(folded_int(bin(BinaryOp::FloorDiv, i32(INT32_MIN), i32(-1))), INT32_MIN);
    EXPECT_EQ(folded_int(bin(BinaryOp::Add, i64(INT64_MAX), i64(1))), INT64_MIN);
    EXPECT_EQ(folded_int(bin(BinaryOp::Sub, ci(Scalar::U32, 0), ci(Scalar::U32, 1))), 4294967295);
    EXPECT_EQ(folded_int(bin(BinaryOp::Sub, ci(Scalar::U8, 3), ci(Scalar::U8, 5))), 254);
    EXPECT_EQ(folded_int(Expr::unary(UnaryOp::Neg, ci(Scalar::U16, 1))), 65535);
    EXPECT_EQ(folded_int(Expr::unary(UnaryOp::BitNot, ci(Scalar::U8, 5))), 250);

    // Powers wrap like repeated multiplication in the type.
    EXPECT_EQ(folded_int(bin(BinaryOp::Pow, i32(3), i32(4))), 81);
    EXPECT_EQ(folded_int(bin(BinaryOp::Pow, i32(2), i32(31))), INT32_MIN);
    uint64_t p = 1;
    for (int k = 0; k < 20; ++k)
        p *= 10;
    EXPECT_EQ(folded_int(bin(BinaryOp::Pow, i64(10), i64(20))), static_cast<int64_t>(p));
    EXPECT_EQ(folded_int(bin(BinaryOp::Pow, i64(5), i64(0))), 1);
}

TEST(ConstantFold, ShiftsAndBitOps) {
    EXPECT_EQ(folded_int(bin(BinaryOp::Shl, i32(1), i32(31))), INT32_MIN);
    EXPECT_EQ(folded_int(bin(BinaryOp::Shr, i32(-8), i32(1))), -4);
    EXPECT_EQ(folded_int(bin(BinaryOp::Shr, ci(Scalar::U32, 0x80000000), ci(Scalar::U32, 31))), 1);
    EXPECT_EQ(folded_int(bin(BinaryOp::Shl, ci(Scalar::I8, 3), ci(Scalar::I8, 6))), -64);
    EXPECT_EQ(folded_int(bin(BinaryOp::BitXor, i32(0x0f0f), i32(0x00ff))), 0x0ff0);
    EXPECT_EQ(folded_int(bin(BinaryOp::BitAnd, cb(true), cb(false))), 0);
}

TEST(ConstantFold, LeavesUndefinedOperationsForRunTime) {
    for (const ExprPtr &e :
         {bin(BinaryOp::FloorDiv, i32(1), i32(0)), bin(BinaryOp::Mod, i64(1), i64(0)),
          bin(BinaryOp::Div, f64(1), f64(0)), bin(BinaryOp::Mod, f64(1), f64(0)),
          bin(BinaryOp::FloorDiv, f32(1), f32(0)), bin(BinaryOp::Shl, i32(1), i32(32)),
          bin(BinaryOp::Shr, i32(1), i32(-1)), bin(BinaryOp::Pow, i32(2), i32(-1)),
          Expr::cast(ty(Scalar::I32), f64(1e10)), Expr::cast(ty(Scalar::I32), f64(NAN)),
          Expr::cast(ty(Scalar::U32), f64(-1.0))}) {
        ExprPtr r = fold(e);
        EXPECT_FALSE(r->is_const()) << print_expr(*e) << " folded to " << print_expr(*r);
    }
    // The operands inside such a node are still folded.
    ExprPtr r = fold(bin(BinaryOp::FloorDiv, bin(BinaryOp::Add, i32(2), i32(3)), i32(0)));
    EXPECT_EQ(print_expr(*r), "(5:int // 0:int):int");
}

TEST(ConstantFold, Casts) {
    auto cast = [](Scalar s, ExprPtr e) { return Expr::cast(ty(s), std::move(e)); };
    EXPECT_EQ(folded_int(cast(Scalar::I32, f64(3.7))), 3);
    EXPECT_EQ(folded_int(cast(Scalar::I32, f64(-3.7))), -3);
    EXPECT_EQ(folded_int(cast(Scalar::U32, f64(-0.5))), 0);
    EXPECT_EQ(folded_int(cast(Scalar::I8, i32(300))), int8_t(300 & 0xff));
    EXPECT_EQ(folded_int(cast(Scalar::U32, i32(-1))), 4294967295);
    EXPECT_EQ(folded_int(cast(Scalar::I64, ci(Scalar::U32, 4294967295))), 4294967295);
    EXPECT_EQ(folded_int(cast(Scalar::Bool, f64(2.5))), 1);
    EXPECT_EQ(folded_int(cast(Scalar::Bool, f64(NAN))), 1); // C: NaN != 0
    EXPECT_EQ(folded_int(cast(Scalar::Bool, i32(0))), 0);
    EXPECT_EQ(folded_int(cast(Scalar::I32, cb(true))), 1);
    // int → float rounds once, straight from the integer (2^24 + 1 is not a float).
    EXPECT_EQ(folded_float(cast(Scalar::F32, i64(16777217))), static_cast<double>(16777217.0f));
    EXPECT_EQ(folded_float(cast(Scalar::F32, i64(INT64_MAX))),
              static_cast<double>(static_cast<float>(INT64_MAX)));
    EXPECT_EQ(folded_float(cast(Scalar::F64, ci(Scalar::U64, -1))), 18446744073709551615.0);
    EXPECT_EQ(folded_float(cast(Scalar::F32, f64(0.1))), static_cast<double>(0.1f));
    // A cast to the operand's own type disappears, constant or not.
    auto f = FnBuilder("g", ty(Scalar::I32));
    auto n = f.param("n", ty(Scalar::I32));
    EXPECT_EQ(fold(cast(Scalar::I32, vref(n)))->kind, ExprKind::VarRef);
}

TEST(ConstantFold, ComparisonsAndLogic) {
    auto is_true = [](const ExprPtr &e) { return folded_int(e) == 1; };
    EXPECT_TRUE(is_true(bin(BinaryOp::Gt, ci(Scalar::U32, 4294967295), ci(Scalar::U32, 0))));
    EXPECT_TRUE(is_true(bin(BinaryOp::Gt, ci(Scalar::U64, -1), ci(Scalar::U64, 1))));
    EXPECT_TRUE(is_true(bin(BinaryOp::Lt, i32(-1), i32(0))));
    EXPECT_FALSE(is_true(bin(BinaryOp::Eq, f64(NAN), f64(NAN))));
    EXPECT_TRUE(is_true(bin(BinaryOp::Ne, f64(NAN), f64(NAN))));
    EXPECT_FALSE(is_true(bin(BinaryOp::Lt, f64(NAN), f64(1))));
    EXPECT_TRUE(is_true(bin(BinaryOp::Le, f32(0.1), f32(0.1))));
    EXPECT_FALSE(is_true(Expr::unary(UnaryOp::Not, cb(true))));

    auto f = FnBuilder("g", ty(Scalar::Bool));
    auto p = f.param("p", ty(Scalar::Bool));
    EXPECT_EQ(fold(bin(BinaryOp::And, cb(true), vref(p)))->kind, ExprKind::VarRef);
    EXPECT_EQ(folded_int(bin(BinaryOp::And, cb(false), vref(p))), 0);
    EXPECT_EQ(folded_int(bin(BinaryOp::Or, cb(true), vref(p))), 1);
    EXPECT_EQ(fold(bin(BinaryOp::Or, cb(false), vref(p)))->kind, ExprKind::VarRef);
    // `p and False` must still evaluate p (it may be a call), so it stays.
    EXPECT_EQ(fold(bin(BinaryOp::And, vref(p), cb(false)))->kind, ExprKind::Binary);

    EXPECT_EQ(folded_int(Expr::select(cb(false), i32(1), bin(BinaryOp::Add, i32(2), i32(3)))), 5);
    EXPECT_EQ(folded_int(bin(BinaryOp::Mul, bin(BinaryOp::Add, i32(1), i32(2)), i32(3))), 9);
}

TEST(ConstantFold, MinMaxFollowPythonWithNan) {
    auto min = [](ExprPtr a, ExprPtr b) { return bin(BinaryOp::Min, a, b); };
    auto max = [](ExprPtr a, ExprPtr b) { return bin(BinaryOp::Max, a, b); };
    // Python: min(a, b) = b if b < a else a, so a NaN first argument wins and a NaN second loses.
    EXPECT_TRUE(std::isnan(folded_float(min(f64(NAN), f64(1)))));
    EXPECT_EQ(folded_float(min(f64(1), f64(NAN))), 1.0);
    EXPECT_TRUE(std::isnan(folded_float(max(f64(NAN), f64(1)))));
    EXPECT_EQ(folded_float(max(f64(1), f64(NAN))), 1.0);
    EXPECT_TRUE(std::signbit(folded_float(min(f64(-0.0), f64(0.0)))));
    EXPECT_FALSE(std::signbit(folded_float(min(f64(0.0), f64(-0.0)))));
    EXPECT_EQ(folded_int(min(ci(Scalar::U32, 4294967295), ci(Scalar::U32, 1))), 1);
    EXPECT_EQ(folded_int(max(i32(-5), i32(3))), 3);
}

// Float // and % against CPython (double) and NumPy (float32), including signed zeros and
// infinities.
TEST(ConstantFold, FloatFloorDivAndModMatchCPython) {
    if (!python_has_numpy())
        GTEST_SKIP() << "no CPython oracle: NumPy is not installed for " << SMELT_PYTHON;
    const double vals[] = {7.5,   -7.5,    2.0,      -2.0,      0.3, -0.3, 0.0, -0.0,
                           1e300, -1e-300, INFINITY, -INFINITY, 5.0, 3.0,  -1.0};
    std::string xs = "[";
    for (double v : vals) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "float.fromhex('%a'),", v);
        xs += buf;
    }
    xs += "]";
    std::string script = "import numpy as np\nnp.seterr(all='ignore')\nxs = " + xs + R"(
for a in xs:
    for b in xs:
        if b == 0: continue
        print((a // b).hex(), (a % b).hex(),
              float(np.float32(a) // np.float32(b)).hex(), float(np.float32(a) % np.float32(b)).hex())

)";
    std::vector<double> ref = parse_doubles(run_python(script));
    size_t k = 0, checked = 0;
    for (double a : vals) {
        for (double b : vals) {
            if (b == 0) continue;
            ASSERT_LT(k + 3, ref.size()) << "python oracle gave too little output";
            double q = folded_float(bin(BinaryOp::FloorDiv, f64(a), f64(b)));
            double r = folded_float(bin(BinaryOp::Mod, f64(a), f64(b)));
            EXPECT_TRUE(same_float(q, ref[k])) << a << " // " << b << " = " << q;
            EXPECT_TRUE(same_float(r, ref[k + 1])) << a << " % " << b << " = " << r;
            k += 4;
            ++checked;
            if (static_cast<float>(b) == 0) continue; // underflows to a zero divisor: not folded
            double qf = folded_float(bin(BinaryOp::FloorDiv, f32(a), f32(b)));
            double rf = folded_float(bin(BinaryOp::Mod, f32(a), f32(b)));
            EXPECT_TRUE(same_float(qf, ref[k - 2])) << "f32 " << a << " // " << b << " = " << qf;
            EXPECT_TRUE(same_float(rf, ref[k - 1])) << "f32 " << a << " % " << b << " = " << rf;
        }
    }
    EXPECT_EQ(checked * 4, ref.size());
}

TEST(ConstantFold, IfAndWhileOnConstantConditions) {
    FnBuilder f("f", ty(Scalar::I32));
    auto t = f.local("t", ty(Scalar::I32));
    f.add(Stmt::if_(bin(BinaryOp::Lt, i32(1), i32(2)), {Stmt::assign(t, i32(1))},
                    {Stmt::assign(t, i32(2))}));
    f.add(Stmt::while_(bin(BinaryOp::Gt, i32(1), i32(2)), {Stmt::assign(t, i32(3))}));
    f.add(Stmt::return_(vref(t)));
    auto out = constant_fold(*module_of({f.done()}));
    EXPECT_EQ(print(*out), "def f() -> int:\n    t: int\n    t = 1:int\n    return t\n");
}

// --- expand_pow ---------------------------------------------------------------------------

ExprPtr expand(const ExprPtr &e) {
    return returned(*expand_pow(*returning(e)));
}

TEST(ExpandPow, SmallConstantExponents) {
    FnBuilder f("g", ty(Scalar::F64));
    auto x = f.param("x", ty(Scalar::F64));
    auto n = f.param("n", ty(Scalar::I64));
    EXPECT_EQ(print_expr(*expand(bin(BinaryOp::Pow, vref(x), f64(2)))), "(x * x):double");
    EXPECT_EQ(print_expr(*expand(bin(BinaryOp::Pow, vref(x), f64(3)))),
              "((x * x):double * x):double");
    EXPECT_EQ(print_expr(*expand(bin(BinaryOp::Pow, vref(x), f64(4)))),
              "((x * x):double * (x * x):double):double");
    EXPECT_EQ(print_expr(*expand(bin(BinaryOp::Pow, vref(x), f64(1)))), "x");
    EXPECT_EQ(print_expr(*expand(bin(BinaryOp::Pow, vref(x), f64(0)))), "1.0:double");
    // The frontend's cast around a weakly typed literal exponent is seen through.
    EXPECT_EQ(print_expr(*expand(bin(BinaryOp::Pow, vref(x), Expr::cast(ty(Scalar::F64), i64(2))))),
              "(x * x):double");
    EXPECT_EQ(print_expr(*expand(bin(BinaryOp::Pow, vref(n), i64(2)))), "(n * n):long");

    // Left alone: non-integral, negative, too large or runtime exponents, impure bases.
    for (const ExprPtr &e :
         {bin(BinaryOp::Pow, vref(x), f64(2.5)), bin(BinaryOp::Pow, vref(x), f64(-2)),
          bin(BinaryOp::Pow, vref(x), f64(9)),
          bin(BinaryOp::Pow, vref(x), Expr::cast(ty(Scalar::F64), vref(n))),
          bin(BinaryOp::Pow, Expr::call("sin", true, ty(Scalar::F64), {vref(x)}), f64(2))}) {
        ExprPtr r = expand(e);
        EXPECT_EQ(r->kind, ExprKind::Binary) << print_expr(*r);
        EXPECT_EQ(r->binary_op, BinaryOp::Pow) << print_expr(*r);
    }
}

TEST(ExpandPow, ExpansionComputesThePower) {
    // Oracle: repeated multiplication by a hand loop, for every k the pass expands.
    for (int64_t k = 0; k <= 8; ++k) {
        int64_t want = 1;
        for (int64_t j = 0; j < k; ++j)
            want *= -3;
        ExprPtr e =
            returned(*constant_fold(*expand_pow(*returning(bin(BinaryOp::Pow, i64(-3), i64(k))))));
        ASSERT_TRUE(e->is_const());
        EXPECT_EQ(e->int_value, want) << k;
    }
}

TEST(PassList, RunsExpandThenFoldAndDumps) {
    FnBuilder f("g", ty(Scalar::F64));
    auto x = f.param("x", ty(Scalar::F64));
    f.add(Stmt::return_(bin(BinaryOp::Add, bin(BinaryOp::Pow, vref(x), f64(2)),
                            bin(BinaryOp::Pow, f64(3), f64(2)))));
    std::vector<std::string> passes;
    auto out = run_passes(*module_of({f.done()}),
                          [&](const std::string &p, const Module &) { passes.push_back(p); });
    EXPECT_EQ(passes, (std::vector<std::string>{"input", "expand_pow", "constant_fold"}));
    EXPECT_EQ(print_expr(*returned(*out)), "((x * x):double + 9.0:double):double");

    // A broken input is refused before any pass runs.
    FnBuilder bad("bad", ty(Scalar::I32));
    bad.add(Stmt::return_(f64(1)));
    EXPECT_THROW(run_passes(*module_of({bad.done()})), InternalError);
}

} // namespace
