// What generated C++ computes: a hand-built module, emitted with its prelude, compiled with the
// system compiler (-O2 -Wall -Werror) and run; each result is compared with CPython evaluating
// the same operation (Python semantics, wrapped to the type's width where the language says so).
#include "../ir/ir_build.h"
#include "../ir/python_oracle.h"
#include "compile_run.h"

#include "codegen/c_like.h"
#include "codegen/prelude.h"
#include "ir/verify.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>

using namespace smelt;
using namespace smelt::ir;
using namespace smelt::test;

namespace {

using B = BinaryOp;

// One call of a generated function, and the Python expression giving its expected value.
struct Case {
    std::string call;   // C expression
    std::string python; // Python expression
    char kind;          // 'i' signed, 'u' unsigned, 'b' bool, 'f' float
};

class ModuleBuilder {
public:
    std::vector<std::shared_ptr<Function>> fns;
    int line = 1;

    // def name(a: T, b: T) -> R: return a op b
    void binary(const std::string &name, B op, Scalar s) {
        FnBuilder f(name, Type::void_(), line);
        auto a = f.param("a", ty(s));
        auto b = f.param("b", ty(s));
        auto e = bin(op, vref(a), vref(b), at(line + 1));
        fns.push_back(ret(f, e));
    }
    void unary(const std::string &name, UnaryOp op, Scalar s) {
        FnBuilder f(name, Type::void_(), line);
        auto a = f.param("a", ty(s));
        fns.push_back(ret(f, Expr::unary(op, vref(a))));
    }
    void builtin1(const std::string &name, const std::string &fn, Scalar arg, Type result) {
        FnBuilder f(name, Type::void_(), line);
        auto a = f.param("a", ty(arg));
        fns.push_back(ret(f, Expr::call(fn, true, result, {vref(a)})));
    }
    std::shared_ptr<Function> ret(FnBuilder &f, const ExprPtr &e) {
        auto fn = f.done();
        fn->return_type = e->type;
        fn->body.push_back(Stmt::return_(e, at(line + 1)));
        line += 3;
        return fn;
    }
    void add(std::shared_ptr<Function> f) {
        fns.push_back(std::move(f));
        line += 20;
    }
};

// def range_sum(start, stop, step): s = 0; for k in range(start, stop, step): s = s*31 + k
std::shared_ptr<Function> range_sum(int line) {
    FnBuilder f("range_sum", ty(Scalar::I64), line);
    auto start = f.param("start", ty(Scalar::I64));
    auto stop = f.param("stop", ty(Scalar::I64));
    auto step = f.param("step", ty(Scalar::I64));
    auto s = f.local("s", ty(Scalar::I64));
    auto k = f.local("k", ty(Scalar::I64));
    auto c = f.hidden("_c", ty(Scalar::I64));
    auto stop_h = f.hidden("_stop", ty(Scalar::I64));
    auto step_h = f.hidden("_step", ty(Scalar::I64));
    f.add(Stmt::assign(s, i64(0), at(line + 1)));
    f.add(Stmt::assign(stop_h, vref(stop), at(line + 2)));
    f.add(Stmt::assign(step_h, vref(step), at(line + 2)));
    Block body = {
        Stmt::assign(k, vref(c), at(line + 2)),
        Stmt::assign(s, bin(B::Add, bin(B::Mul, vref(s), i64(31)), vref(k)), at(line + 3))};
    f.add(Stmt::for_(c, vref(start), vref(stop_h), vref(step_h), body, at(line + 2)));
    f.add(Stmt::return_(vref(s), at(line + 4)));
    return f.done();
}

// Loops with constant steps, break and continue.
std::shared_ptr<Function> const_loops(int line) {
    FnBuilder f("const_loops", ty(Scalar::I64), line);
    auto s = f.local("s", ty(Scalar::I64));
    auto c = f.hidden("_c", ty(Scalar::I64));
    auto mix = [&](int l) {
        return Stmt::assign(s, bin(B::Add, bin(B::Mul, vref(s), i64(31)), vref(c)), at(l));
    };
    f.add(Stmt::assign(s, i64(0), at(line + 1)));
    f.add(Stmt::for_(c, i64(10), i64(0), i64(-3), {mix(line + 3)}, at(line + 2)));
    f.add(Stmt::for_(c, i64(0), i64(7), i64(2), {mix(line + 5)}, at(line + 4)));
    Block body = {
        Stmt::if_(bin(B::Eq, bin(B::Mod, vref(c), i64(2)), i64(0)), {Stmt::continue_(at(line + 8))},
                  {}, at(line + 7)),
        Stmt::if_(bin(B::Gt, vref(c), i64(11)), {Stmt::break_(at(line + 10))}, {}, at(line + 9)),
        mix(line + 11)};
    f.add(Stmt::for_(c, i64(0), i64(20), i64(1), body, at(line + 6)));
    f.add(Stmt::return_(vref(s), at(line + 12)));
    return f.done();
}

// side(p) increments p[0] and returns True; the sc_* functions must not call it when the
// left operand decides.
std::vector<std::shared_ptr<Function>> short_circuit(int line) {
    FnBuilder side("side", ty(Scalar::Bool), line);
    auto p = side.param("p", ptr(Scalar::I32));
    side.add(Stmt::store(p, {i64(0)}, bin(B::Add, load(p, i64(0)), i32(1)), at(line + 1)));
    side.add(Stmt::return_(cb(true), at(line + 2)));
    std::vector<std::shared_ptr<Function>> out = {side.done()};
    auto make = [&](const std::string &name, auto body) {
        FnBuilder f(name, ty(Scalar::Bool), line + 4);
        auto flag = f.param("flag", ty(Scalar::Bool));
        auto q = f.param("p", ptr(Scalar::I32));
        auto call = Expr::call("side", false, ty(Scalar::Bool), {vref(q)});
        f.add(Stmt::return_(body(vref(flag), call), at(line + 5)));
        out.push_back(f.done());
    };
    make("sc_and", [](ExprPtr a, ExprPtr c) { return bin(B::And, a, c); });
    make("sc_or", [](ExprPtr a, ExprPtr c) { return bin(B::Or, a, c); });
    make("sc_sel", [](ExprPtr a, ExprPtr c) { return Expr::select(a, c, cb(false)); });
    return out;
}

// m = declare('matrix((2, 3), "int")'); fill, sum, return s * 100 + m[1][2]
std::shared_ptr<Function> mat_sum(int line) {
    FnBuilder f("mat_sum", ty(Scalar::I32), line);
    auto n = f.param("n", ty(Scalar::I32));
    auto m = f.local("m", Type::matrix(Scalar::I32, {2, 3}));
    auto s = f.local("s", ty(Scalar::I32));
    auto r = f.hidden("_r", ty(Scalar::I32));
    auto c = f.hidden("_c", ty(Scalar::I32));
    auto fill = Stmt::store(
        m, {vref(r), vref(c)},
        bin(B::Add, bin(B::Mul, vref(r), i32(10)), bin(B::Mul, vref(c), vref(n))), at(line + 2));
    f.add(Stmt::for_(r, i32(0), i32(2), i32(1),
                     {Stmt::for_(c, i32(0), i32(3), i32(1), {fill}, at(line + 1))}, at(line + 1)));
    f.add(Stmt::assign(s, i32(0), at(line + 3)));
    auto acc =
        Stmt::assign(s, bin(B::Add, vref(s), Expr::load(m, {vref(r), vref(c)})), at(line + 5));
    f.add(Stmt::for_(r, i32(0), i32(2), i32(1),
                     {Stmt::for_(c, i32(0), i32(3), i32(1), {acc}, at(line + 4))}, at(line + 4)));
    f.add(
        Stmt::return_(bin(B::Add, bin(B::Mul, vref(s), i32(100)), Expr::load(m, {i32(1), i32(2)})),
                      at(line + 6)));
    return f.done();
}

// a = declare('matrix(4)'); return a[0] + a[3]  (private matrices start zeroed)
std::shared_ptr<Function> zeros(int line) {
    FnBuilder f("zeros", ty(Scalar::F64), line);
    auto a = f.local("a", Type::matrix(Scalar::F64, {4}));
    f.add(
        Stmt::return_(bin(B::Add, Expr::load(a, {i32(0)}), Expr::load(a, {i32(3)})), at(line + 1)));
    return f.done();
}

// old = atomic_inc(p[0]); atomic_add(x[0], 0.5); atomic_dec(p[1]); return old
std::shared_ptr<Function> counter(int line) {
    FnBuilder f("counter", ty(Scalar::I32), line);
    auto p = f.param("p", ptr(Scalar::I32));
    auto x = f.param("x", ptr(Scalar::F64));
    auto old = f.local("old", ty(Scalar::I32));
    f.add(Stmt::assign(old, Expr::atomic(AtomicOp::Inc, p, i64(0), nullptr), at(line + 1)));
    f.add(Stmt::eval(Expr::atomic(AtomicOp::Add, x, i64(0), f64(0.5)), at(line + 2)));
    f.add(Stmt::eval(Expr::atomic(AtomicOp::Dec, p, i64(1), nullptr), at(line + 3)));
    f.add(Stmt::return_(vref(old), at(line + 4)));
    return f.done();
}

// while b != 0: t = b; b = a % b; a = t
std::shared_ptr<Function> gcd(int line) {
    FnBuilder f("gcd", ty(Scalar::I64), line);
    auto a = f.param("a", ty(Scalar::I64));
    auto b = f.param("b", ty(Scalar::I64));
    auto t = f.local("t", ty(Scalar::I64));
    f.add(Stmt::while_(bin(B::Ne, vref(b), i64(0)),
                       {Stmt::assign(t, vref(b), at(line + 2)),
                        Stmt::assign(b, bin(B::Mod, vref(a), vref(b)), at(line + 3)),
                        Stmt::assign(a, vref(t), at(line + 4))},
                       at(line + 1)));
    f.add(Stmt::return_(vref(a), at(line + 5)));
    return f.done();
}

// def double(int, register): float = int * register; int_ = 2; smelt_x = 1.0
//     return float + int_ + smelt_x      (names that clash with C keywords or the prelude)
std::shared_ptr<Function> keywords(int line) {
    FnBuilder f("double", ty(Scalar::F64), line);
    auto i = f.param("int", ty(Scalar::I32));
    auto r = f.param("register", ty(Scalar::F64));
    auto fl = f.local("float", ty(Scalar::F64));
    auto i_ = f.local("int_", ty(Scalar::I32));
    auto sx = f.local("smelt_x", ty(Scalar::F64));
    f.add(
        Stmt::assign(fl, bin(B::Mul, Expr::cast(ty(Scalar::F64), vref(i)), vref(r)), at(line + 1)));
    f.add(Stmt::assign(i_, i32(2), at(line + 2)));
    f.add(Stmt::assign(sx, f64(1.0), at(line + 3)));
    f.add(Stmt::return_(
        bin(B::Add, bin(B::Add, vref(fl), Expr::cast(ty(Scalar::F64), vref(i_))), vref(sx)),
        at(line + 4)));
    return f.done();
}

// sqrt(x) + fabs(-x) + pi
std::shared_ptr<Function> builtins(int line) {
    FnBuilder f("builtins", ty(Scalar::F64), line);
    auto x = f.param("x", ty(Scalar::F64));
    auto d = ty(Scalar::F64);
    auto e = bin(B::Add,
                 bin(B::Add, Expr::call("sqrt", true, d, {vref(x)}),
                     Expr::call("fabs", true, d, {Expr::unary(UnaryOp::Neg, vref(x))})),
                 Expr::call("pi", true, d, {}));
    f.add(Stmt::return_(e, at(line + 1)));
    return f.done();
}

// uses_later calls a function defined after it (prototypes must be emitted).
std::vector<std::shared_ptr<Function>> out_of_order(int line) {
    FnBuilder u("uses_later", ty(Scalar::F64), line);
    auto x = u.param("x", ty(Scalar::F64));
    u.add(Stmt::return_(bin(B::Add, Expr::call("later", false, ty(Scalar::F64), {vref(x)}), f64(1)),
                        at(line + 1)));
    FnBuilder l("later", ty(Scalar::F64), line + 3);
    auto y = l.param("y", ty(Scalar::F64));
    l.add(Stmt::return_(bin(B::Mul, vref(y), f64(3)), at(line + 4)));
    return {u.done(), l.done()};
}

std::string c_int(Scalar s, int64_t v) {
    switch (s) {
    case Scalar::I64:
        return v == INT64_MIN ? "INT64_MIN" : "(int64_t)" + std::to_string(v) + "LL";
    case Scalar::U64:
        return "(uint64_t)" + std::to_string(static_cast<uint64_t>(v)) + "ULL";
    case Scalar::U32:
        return "(uint32_t)" + std::to_string(static_cast<uint64_t>(v)) + "u";
    case Scalar::U8:
        return "(uint8_t)" + std::to_string(v);
    case Scalar::U16:
        return "(uint16_t)" + std::to_string(v);
    case Scalar::I8:
        return "(int8_t)" + std::to_string(v);
    case Scalar::I16:
        return "(int16_t)" + std::to_string(v);
    default:
        return "(int32_t)" + std::to_string(v) + "LL";
    }
}

std::string c_float(Scalar s, double v) {
    char buf[64];
    if (std::isnan(v)) return s == Scalar::F32 ? "NAN" : "(double)NAN";
    if (std::isinf(v)) return v < 0 ? "-INFINITY" : "INFINITY";
    std::snprintf(buf, sizeof buf, "%a", v);
    return std::string(s == Scalar::F32 ? "(float)" : "") + buf;
}

std::string py_float(double v) {
    if (std::isnan(v)) return "float('nan')";
    if (std::isinf(v)) return v < 0 ? "float('-inf')" : "float('inf')";
    char buf[64];
    std::snprintf(buf, sizeof buf, "float.fromhex('%a')", v);
    return buf;
}

std::string wrap_py(Scalar s) {
    return "w" + std::string(scalar_is_signed(s) ? "s" : "u") + std::to_string(scalar_bits(s));
}

class Semantics : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        module_ = build_module();
        verify(*module_);
        std::string tu = codegen::prelude(codegen::cpp_dialect()) +
                         codegen::emit_module(*module_, codegen::cpp_dialect());
        tu += codegen::line_mapping_reset(tu, "semantics.cpp");
        tu += main_program();
        run_ = new RunResult(compile_and_run(tu, "semantics"));
        if (run_->compiled) results_ = new std::map<std::string, std::string>(split(run_->output));
        expected_ = new std::map<std::string, std::string>(split(run_python(python_script())));
    }
    static void TearDownTestSuite() {
        delete run_;
        delete results_;
        delete expected_;
    }

    static std::map<std::string, std::string> split(const std::string &out) {
        std::map<std::string, std::string> m;
        size_t pos = 0;
        while (pos < out.size()) {
            size_t end = out.find('\n', pos);
            if (end == std::string::npos) end = out.size();
            std::string line = out.substr(pos, end - pos);
            size_t eq = line.find(" = ");
            if (eq != std::string::npos) m[line.substr(0, eq)] = line.substr(eq + 3);
            pos = end + 1;
        }
        return m;
    }

    static std::shared_ptr<Module> build_module();
    static std::string main_program();
    static std::string python_script();
    static void add(const std::string &group, const std::string &call, const std::string &python,
                    char kind) {
        cases_[group].push_back({call, python, kind});
    }

    // Compares every case of a group with CPython.
    void check_group(const std::string &group) {
        ASSERT_TRUE(run_->compiled) << run_->log << "\nsource: " << run_->source_path;
        if (expected_->empty() &&
            std::system(
                (smelt::testing_util::test_python() + " -c 'import numpy' 2>/dev/null").c_str()) !=
                0)
            GTEST_SKIP() << "no CPython oracle: NumPy is not installed for "
                         << smelt::testing_util::test_python();
        ASSERT_FALSE(expected_->empty()) << "no output from " << smelt::testing_util::test_python();
        const auto &cs = cases_.at(group);
        ASSERT_FALSE(cs.empty());
        for (size_t i = 0; i < cs.size(); ++i) {
            std::string key = group + " " + std::to_string(i);
            ASSERT_TRUE(results_->count(key)) << key << " missing from the program's output";
            ASSERT_TRUE(expected_->count(key)) << key << " missing from Python's output";
            const std::string &got = results_->at(key), &want = expected_->at(key);
            if (cs[i].kind == 'f') {
                EXPECT_TRUE(same_float(std::strtod(got.c_str(), nullptr),
                                       std::strtod(want.c_str(), nullptr)))
                    << cs[i].call << " gave " << got << ", Python " << cs[i].python << " = "
                    << want;
            } else {
                EXPECT_EQ(got, want) << cs[i].call << " vs Python " << cs[i].python;
            }
        }
    }

    static std::shared_ptr<Module> module_;
    static RunResult *run_;
    static std::map<std::string, std::string> *results_, *expected_;
    static std::map<std::string, std::vector<Case>> cases_;
};

std::shared_ptr<Module> Semantics::module_;
RunResult *Semantics::run_;
std::map<std::string, std::string> *Semantics::results_, *Semantics::expected_;
std::map<std::string, std::vector<Case>> Semantics::cases_;

const double kFloatVals[] = {7.5,   -7.5,    2.0,      -2.0,      0.3, -0.3, 0.0, -0.0,
                             1e300, -1e-300, INFINITY, -INFINITY, NAN, 5.0,  3.0, -1.0};

std::shared_ptr<Module> Semantics::build_module() {
    ModuleBuilder mb;
    // Python // and % for every integer width class and both float types.
    const std::pair<Scalar, std::vector<int64_t>> ints[] = {
        {Scalar::I8, {-128, -9, -5, -1, 0, 1, 5, 9, 127}},
        {Scalar::I32, {INT32_MIN, -9, -7, -4, -3, -1, 0, 1, 3, 4, 7, 9, INT32_MAX}},
        {Scalar::I64, {INT64_MIN, -9, -5, -1, 0, 1, 5, 9, INT64_MAX}},
        {Scalar::U32, {0, 1, 5, 9, 4294967295}},
        {Scalar::U16, {0, 3, 7, 65535}}};
    for (const auto &[s, vals] : ints) {
        std::string sfx = codegen::scalar_suffix(s);
        mb.binary("fdiv_" + sfx, B::FloorDiv, s);
        mb.binary("fmod_" + sfx, B::Mod, s);
        for (int64_t a : vals) {
            for (int64_t b : vals) {
                std::string args = "(" + c_int(s, a) + ", " + c_int(s, b) + ")";
                std::string pa = std::to_string(a), pb = std::to_string(b);
                if (s == Scalar::U64)
                    pb = std::to_string(uint64_t(b)), pa = std::to_string(uint64_t(a));
                char kind = scalar_is_signed(s) ? 'i' : 'u';
                // x // 0 and x % 0 are 0 (NumPy's answer; Python raises).
                std::string q = b == 0 ? "0" : wrap_py(s) + "(" + pa + " // " + pb + ")";
                std::string r = b == 0 ? "0" : wrap_py(s) + "(" + pa + " % " + pb + ")";
                add("floordiv_int", "fdiv_" + sfx + args, q, kind);
                add("mod_int", "fmod_" + sfx + args, r, kind);
            }
        }
    }
    for (Scalar s : {Scalar::F32, Scalar::F64}) {
        std::string sfx = codegen::scalar_suffix(s);
        mb.binary("fdiv_" + sfx, B::FloorDiv, s);
        mb.binary("fmod_" + sfx, B::Mod, s);
        mb.binary("min_" + sfx, B::Min, s);
        mb.binary("max_" + sfx, B::Max, s);
        std::string conv = s == Scalar::F32 ? "np.float32" : "np.float64";
        for (double a : kFloatVals) {
            for (double b : kFloatVals) {
                std::string args = "(" + c_float(s, a) + ", " + c_float(s, b) + ")";
                std::string pa = conv + "(" + py_float(a) + ")",
                            pb = conv + "(" + py_float(b) + ")";
                // CPython's float // and % (NumPy's scalar operators compute the same, and also
                // define b == 0, where Python raises).
                add("floordiv_" + sfx, "fdiv_" + sfx + args, pa + " // " + pb, 'f');
                add("mod_" + sfx, "fmod_" + sfx + args, pa + " % " + pb, 'f');
                add("minmax_" + sfx, "min_" + sfx + args, "min(" + pa + ", " + pb + ")", 'f');
                add("minmax_" + sfx, "max_" + sfx + args, "max(" + pa + ", " + pb + ")", 'f');
            }
        }
    }
    mb.binary("min_i32", B::Min, Scalar::I32);
    add("minmax_int", "min_i32(3, -4)", "min(3, -4)", 'i');
    add("minmax_int", "min_i32(-4, 3)", "min(-4, 3)", 'i');

    // Integer overflow wraps, also where C would call it undefined.
    mb.binary("add_i32", B::Add, Scalar::I32);
    mb.binary("mul_i32", B::Mul, Scalar::I32);
    mb.binary("sub_i32", B::Sub, Scalar::I32);
    mb.binary("shl_i32", B::Shl, Scalar::I32);
    mb.binary("add_i64", B::Add, Scalar::I64);
    mb.binary("mul_i64", B::Mul, Scalar::I64);
    mb.binary("sub_u32", B::Sub, Scalar::U32);
    mb.binary("add_i8", B::Add, Scalar::I8);
    mb.binary("mul_i8", B::Mul, Scalar::I8);
    mb.binary("mul_u16", B::Mul, Scalar::U16);
    mb.binary("shl_u8", B::Shl, Scalar::U8);
    mb.unary("neg_i32", UnaryOp::Neg, Scalar::I32);
    mb.unary("neg_u16", UnaryOp::Neg, Scalar::U16);
    mb.unary("neg_i64", UnaryOp::Neg, Scalar::I64);
    mb.unary("bitnot_u8", UnaryOp::BitNot, Scalar::U8);
    mb.unary("bitnot_i16", UnaryOp::BitNot, Scalar::I16);
    {
        // (a + 1) > a: an optimiser assuming no signed overflow folds this to true.
        FnBuilder f("grows_i32", Type::void_(), mb.line);
        auto a = f.param("a", ty(Scalar::I32));
        mb.fns.push_back(mb.ret(f, bin(B::Gt, bin(B::Add, vref(a), i32(1)), vref(a))));
        // (a + b) < 0 on int8: the sum must be brought back to 8 bits before comparing.
        FnBuilder g("sum_negative_i8", Type::void_(), mb.line);
        auto x = g.param("a", ty(Scalar::I8));
        auto y = g.param("b", ty(Scalar::I8));
        mb.fns.push_back(mb.ret(g, bin(B::Lt, bin(B::Add, vref(x), vref(y)), ci(Scalar::I8, 0))));
        // ~a == 250 on uint8
        FnBuilder h("bitnot_is_u8", Type::void_(), mb.line);
        auto z = h.param("a", ty(Scalar::U8));
        mb.fns.push_back(
            mb.ret(h, bin(B::Eq, Expr::unary(UnaryOp::BitNot, vref(z)), ci(Scalar::U8, 250))));
    }
    // `pyop` names the operands A and B.
    auto wrap = [&](const std::string &fn, Scalar s, std::string pyop, std::vector<int64_t> args) {
        std::string call = fn + "(";
        for (size_t i = 0; i < args.size(); ++i) {
            call += (i ? ", " : "") + c_int(s, args[i]);
            std::string var = i == 0 ? "A" : "B";
            for (size_t pos; (pos = pyop.find(var)) != std::string::npos;)
                pyop.replace(pos, 1, "(" + std::to_string(args[i]) + ")");
        }
        add("wrap", call + ")", wrap_py(s) + "(" + pyop + ")", scalar_is_signed(s) ? 'i' : 'u');
    };
    wrap("add_i32", Scalar::I32, "A + B", {INT32_MAX, 1});
    wrap("add_i32", Scalar::I32, "A + B", {INT32_MIN, -1});
    wrap("sub_i32", Scalar::I32, "A - B", {INT32_MIN, 1});
    wrap("mul_i32", Scalar::I32, "A * B", {65536, 65536});
    wrap("mul_i32", Scalar::I32, "A * B", {INT32_MAX, 2});
    wrap("mul_i32", Scalar::I32, "A * B", {-7, 123456789});
    wrap("shl_i32", Scalar::I32, "A << B", {1, 31});
    wrap("shl_i32", Scalar::I32, "A << B", {3, 30});
    wrap("shl_i32", Scalar::I32, "A << B", {-1, 5});
    wrap("add_i64", Scalar::I64, "A + B", {INT64_MAX, 1});
    wrap("mul_i64", Scalar::I64, "A * B", {INT64_MAX, INT64_MAX});
    wrap("sub_u32", Scalar::U32, "A - B", {0, 1});
    wrap("add_i8", Scalar::I8, "A + B", {100, 100});
    wrap("mul_i8", Scalar::I8, "A * B", {16, 16});
    wrap("mul_i8", Scalar::I8, "A * B", {-7, 50});
    wrap("mul_u16", Scalar::U16, "A * B", {65535, 65535});
    wrap("shl_u8", Scalar::U8, "A << B", {200, 3});
    wrap("neg_i32", Scalar::I32, "-A", {INT32_MIN});
    wrap("neg_u16", Scalar::U16, "-A", {1});
    wrap("neg_i64", Scalar::I64, "-A", {INT64_MIN});
    wrap("bitnot_u8", Scalar::U8, "~A", {5});
    wrap("bitnot_i16", Scalar::I16, "~A", {-32768});
    add("wrap", "grows_i32(INT32_MAX)", "ws32(2147483647 + 1) > 2147483647", 'b');
    add("wrap", "grows_i32(5)", "True", 'b');
    add("wrap", "sum_negative_i8(100, 100)", "ws8(100 + 100) < 0", 'b');
    add("wrap", "bitnot_is_u8(5)", "wu8(~5) == 250", 'b');

    // Integer and float powers.
    mb.binary("ipow_i64", B::Pow, Scalar::I64);
    mb.binary("ipow_i32", B::Pow, Scalar::I32);
    mb.binary("pow_f64", B::Pow, Scalar::F64);
    for (auto [a, e] : std::vector<std::pair<int64_t, int64_t>>{
             {3, 4}, {-2, 63}, {2, 64}, {7, 0}, {10, 19}, {10, 20}, {-3, 41}})
        add("pow", "ipow_i64(" + c_int(Scalar::I64, a) + ", " + c_int(Scalar::I64, e) + ")",
            "ws64((" + std::to_string(a) + ") ** " + std::to_string(e) + ")", 'i');
    // A negative exponent gives the truncated real power (documented; Python gives a float).
    for (auto [a, e] :
         std::vector<std::pair<int64_t, int64_t>>{{-1, -3}, {-1, -4}, {1, -5}, {2, -1}})
        add("pow", "ipow_i32(" + std::to_string(a) + ", " + std::to_string(e) + ")",
            "int((" + std::to_string(a) + ") ** (" + std::to_string(e) + "))", 'i');
    for (auto [a, e] : std::vector<std::pair<double, double>>{{2, 0.5}, {10, -2}, {0, 0}, {1.5, 3}})
        add("pow", "pow_f64(" + c_float(Scalar::F64, a) + ", " + c_float(Scalar::F64, e) + ")",
            py_float(a) + " ** " + py_float(e), 'f');

    // range() with any step sign, runtime and constant.
    mb.add(range_sum(mb.line));
    for (auto [a, b, c] : std::vector<std::tuple<int, int, int>>{{0, 10, 1},
                                                                 {10, 0, -3},
                                                                 {0, 10, 3},
                                                                 {5, 5, 1},
                                                                 {-5, 5, -1},
                                                                 {10, -10, -7},
                                                                 {-3, 4, 2},
                                                                 {3, -4, 1}}) {
        std::string args = std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c);
        add("loops", "range_sum(" + args + ")", "range_sum(" + args + ")", 'i');
    }
    add("loops", "range_sum(0, 10, 0)", "0", 'i'); // Python raises; no iteration here
    mb.add(const_loops(mb.line));
    add("loops", "const_loops()", "const_loops()", 'i');
    mb.add(gcd(mb.line));
    for (auto [a, b] : std::vector<std::pair<int, int>>{{48, 18}, {-12, 18}, {12, -18}, {0, 5}})
        add("loops", "gcd(" + std::to_string(a) + ", " + std::to_string(b) + ")",
            "gcd(" + std::to_string(a) + ", " + std::to_string(b) + ")", 'i');

    // Matrices.
    mb.add(mat_sum(mb.line));
    for (int n : {0, 3, -7})
        add("matrix", "mat_sum(" + std::to_string(n) + ")",
            "ws32(sum(r * 10 + c * (" + std::to_string(n) +
                ") for r in range(2) for c in range(3)) "
                "* 100 + 10 + 2 * (" +
                std::to_string(n) + "))",
            'i');
    mb.add(zeros(mb.line));
    add("matrix", "zeros()", "0.0", 'f');

    // Builtins, casts, renamed names, call order.
    mb.add(builtins(mb.line));
    add("builtins", "builtins(2.0)", "math.sqrt(2.0) + abs(-2.0) + math.pi", 'f');
    mb.builtin1("abs_i32", "abs", Scalar::I32, ty(Scalar::I32));
    add("builtins", "abs_i32(-5)", "5", 'i');
    add("builtins", "abs_i32(INT32_MIN)", "ws32(abs(-2**31))", 'i');
    for (const char *fn : {"isnan", "isinf", "isfinite"}) {
        mb.builtin1(std::string(fn) + "_f64", fn, Scalar::F64, ty(Scalar::Bool));
        mb.builtin1(std::string(fn) + "_f32", fn, Scalar::F32, ty(Scalar::Bool));
        for (double v : std::initializer_list<double>{NAN, INFINITY, -INFINITY, 1.0, 0.0, 1e300}) {
            add("builtins", std::string(fn) + "_f64(" + c_float(Scalar::F64, v) + ")",
                std::string("math.") + fn + "(" + py_float(v) + ")", 'b');
            add("builtins", std::string(fn) + "_f32(" + c_float(Scalar::F32, v) + ")",
                std::string("bool(np.") + fn + "(np.float32(" + py_float(v) + ")))", 'b');
        }
    }
    {
        FnBuilder f("trunc_cast", Type::void_(), mb.line);
        auto x = f.param("x", ty(Scalar::F64));
        mb.fns.push_back(mb.ret(f, Expr::cast(ty(Scalar::I32), vref(x))));
        FnBuilder g("truthy", Type::void_(), mb.line);
        auto y = g.param("x", ty(Scalar::F64));
        mb.fns.push_back(mb.ret(g, Expr::cast(ty(Scalar::Bool), bin(B::Mul, vref(y), vref(y)))));
    }
    for (double v : {-3.7, 3.7, -0.5, 2147483647.0})
        add("builtins", "trunc_cast(" + c_float(Scalar::F64, v) + ")", "int(" + py_float(v) + ")",
            'i');
    for (double v : std::initializer_list<double>{0.0, -0.0, 0.5, NAN})
        add("builtins", "truthy(" + c_float(Scalar::F64, v) + ")", "bool(" + py_float(v) + " ** 2)",
            'b');
    mb.add(keywords(mb.line));
    add("names", "double_(3, 1.5)", "3 * 1.5 + 2 + 1.0", 'f');
    for (auto &f : out_of_order(mb.line))
        mb.add(f);
    add("names", "uses_later(2.5)", "2.5 * 3 + 1", 'f');

    for (auto &f : short_circuit(mb.line))
        mb.add(f);
    mb.add(counter(mb.line));

    auto src = std::make_shared<SourceFile>("kern.py", std::string(mb.line + 10, '\n'));
    return module_of(mb.fns, src);
}

std::string Semantics::main_program() {
    std::string out = "\n#include <stdio.h>\n\nint main(void) {\n";
    for (const auto &[group, cs] : cases_) {
        for (size_t i = 0; i < cs.size(); ++i) {
            std::string key = group + " " + std::to_string(i);
            const Case &c = cs[i];
            switch (c.kind) {
            case 'f':
                out += "    printf(\"" + key + " = %a\\n\", (double)" + c.call + ");\n";
                break;
            case 'u':
                out +=
                    "    printf(\"" + key + " = %llu\\n\", (unsigned long long)" + c.call + ");\n";
                break;
            default:
                out += "    printf(\"" + key + " = %lld\\n\", (long long)" + c.call + ");\n";
                break;
            }
        }
    }
    // Stateful checks, with their expectations written in the tests below.
    out += R"(
    {
        int32_t p[1] = {0};
        int r;
        r = sc_and(false, p); printf("sc and_false = %d %d\n", r, p[0]);
        r = sc_and(true, p);  printf("sc and_true = %d %d\n", r, p[0]);
        r = sc_or(true, p);   printf("sc or_true = %d %d\n", r, p[0]);
        r = sc_or(false, p);  printf("sc or_false = %d %d\n", r, p[0]);
        r = sc_sel(false, p); printf("sc sel_false = %d %d\n", r, p[0]);
        r = sc_sel(true, p);  printf("sc sel_true = %d %d\n", r, p[0]);
    }
    {
        int32_t cnt[2] = {0, 0};
        double acc[1] = {0.0};
        long long sum = 0;
#pragma omp parallel for reduction(+ : sum)
        for (int i = 0; i < 10000; ++i) sum += counter(cnt, acc);
        printf("atomics = %d %d %.17g %lld\n", cnt[0], cnt[1], acc[0], sum);
    }
    return 0;
}
)";
    return out;
}

std::string Semantics::python_script() {
    std::string out = R"(import math
import numpy as np
np.seterr(all='ignore')

def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v
for b in (8, 16, 32, 64):
    globals()['ws%d' % b] = lambda v, b=b: wrap(v, b, True)
    globals()['wu%d' % b] = lambda v, b=b: wrap(v, b, False)

def range_sum(start, stop, step):
    s = 0
    for k in range(start, stop, step):
        s = ws64(s * 31 + k)
    return s

def const_loops():
    s = 0
    for c in range(10, 0, -3):
        s = s * 31 + c
    for c in range(0, 7, 2):
        s = s * 31 + c
    for c in range(20):
        if c % 2 == 0:
            continue
        if c > 11:
            break
        s = s * 31 + c
    return ws64(s)

def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a

def show(v):
    if isinstance(v, (bool, np.bool_)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return float(v).hex()
    return str(int(v))

)";
    for (const auto &[group, cs] : cases_)
        for (size_t i = 0; i < cs.size(); ++i)
            out +=
                "print('" + group + " " + std::to_string(i) + " =', show(" + cs[i].python + "))\n";
    return out;
}

TEST_F(Semantics, Compiles) {
    ASSERT_TRUE(run_->compiled) << run_->log << "\nsource: " << run_->source_path;
    EXPECT_EQ(run_->status, 0);
}

TEST_F(Semantics, IntegerFloorDivisionFollowsPython) {
    check_group("floordiv_int");
}
TEST_F(Semantics, IntegerModuloFollowsPython) {
    check_group("mod_int");
}
TEST_F(Semantics, DoubleFloorDivisionFollowsPython) {
    check_group("floordiv_f64");
}
TEST_F(Semantics, DoubleModuloFollowsPython) {
    check_group("mod_f64");
}
TEST_F(Semantics, FloatFloorDivisionFollowsNumpyFloat32) {
    check_group("floordiv_f32");
}
TEST_F(Semantics, FloatModuloFollowsNumpyFloat32) {
    check_group("mod_f32");
}
TEST_F(Semantics, MinMaxFollowPythonWithNan) {
    check_group("minmax_f64");
    check_group("minmax_f32");
    check_group("minmax_int");
}
TEST_F(Semantics, IntegersWrap) {
    check_group("wrap");
}
TEST_F(Semantics, Powers) {
    check_group("pow");
}
TEST_F(Semantics, LoopsWithAnyStep) {
    check_group("loops");
}
TEST_F(Semantics, Matrices) {
    check_group("matrix");
}
TEST_F(Semantics, BuiltinsAndCasts) {
    check_group("builtins");
}
TEST_F(Semantics, RenamedNamesAndCallOrder) {
    check_group("names");
}

TEST_F(Semantics, ShortCircuitSkipsTheCall) {
    ASSERT_TRUE(run_->compiled) << run_->log;
    // "result count": side() increments the count each time it runs.
    EXPECT_EQ(results_->at("sc and_false"), "0 0");
    EXPECT_EQ(results_->at("sc and_true"), "1 1");
    EXPECT_EQ(results_->at("sc or_true"), "1 1");
    EXPECT_EQ(results_->at("sc or_false"), "1 2");
    EXPECT_EQ(results_->at("sc sel_false"), "0 2");
    EXPECT_EQ(results_->at("sc sel_true"), "1 3");
}

TEST_F(Semantics, AtomicsReturnTheOldValue) {
    ASSERT_TRUE(run_->compiled) << run_->log;
    // 10000 increments from 4 threads; the old values are 0..9999 once each.
    EXPECT_EQ(results_->at("atomics"), "10000 -10000 5000 49995000");
}

} // namespace
