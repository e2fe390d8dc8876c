// The text the code generator writes: a golden function, spellings, naming, #line mapping, the
// single-precision guarantee, and the prelude's completeness.
#include "../ir/ir_build.h"
#include "compile_run.h"

#include "codegen/c_like.h"
#include "codegen/names.h"
#include "codegen/prelude.h"
#include "support/error.h"

#include <gtest/gtest.h>

#include <cctype>
#include <climits>
#include <cmath>
#include <cstring>

using namespace smelt;
using namespace smelt::ir;
using namespace smelt::test;
using codegen::cpp_dialect;

namespace {

using B = BinaryOp;

std::shared_ptr<const SourceFile> source(const std::string &name, int lines = 40) {
    return std::make_shared<SourceFile>(name, std::string(lines, '\n'));
}

// def clamp01(v): return min(max(v, 0.0), 1.0)
// def step(i, x, dt, int): ... (a parameter named like a C keyword)
std::shared_ptr<Module> golden_module() {
    FnBuilder c("clamp01", ty(Scalar::F64), 1);
    auto v = c.param("v", ty(Scalar::F64));
    c.add(Stmt::return_(bin(B::Min, bin(B::Max, vref(v), f64(0.0)), f64(1.0)), at(2)));

    FnBuilder s("step", Type::void_(), 4);
    auto i = s.param("i", ty(Scalar::I64));
    auto x = s.param("x", ptr(Scalar::F64));
    auto dt = s.param("dt", ty(Scalar::F64));
    auto n = s.param("int", ty(Scalar::I64));
    auto t = s.local("s", ty(Scalar::F64));
    auto k = s.local("k", ty(Scalar::I64));
    s.local("unused", ty(Scalar::F64));
    auto cnt = s.hidden("_c", ty(Scalar::I64));
    s.add(Stmt::assign(
        t, bin(B::Mul, Expr::call("clamp01", false, ty(Scalar::F64), {load(x, vref(i))}), vref(dt)),
        at(5)));
    auto elif = Stmt::if_(bin(B::Lt, vref(t), f64(-0.5)), {Stmt::assign(t, f64(-0.5), at(9))},
                          {Stmt::assign(t, bin(B::Div, vref(t), f64(2.0)), at(11))}, at(8));
    s.add(Stmt::if_(bin(B::Gt, vref(t), f64(0.5)), {Stmt::assign(t, f64(0.5), at(7))}, {elif},
                    at(6)));
    auto idx = bin(B::Add, vref(i), vref(k));
    s.add(Stmt::for_(cnt, i64(0), vref(n), i64(1),
                     {Stmt::assign(k, vref(cnt), at(12)),
                      Stmt::store(x, {idx}, bin(B::Add, load(x, idx), vref(t)), at(13))},
                     at(12)));
    s.add(Stmt::return_(nullptr, at(14)));
    return module_of({c.done(), s.done()}, source("/home/u/k.py"));
}

TEST(Emit, GoldenModule) {
    const char *expected = R"(#line 1 "/home/u/k.py"
SMELT_INLINE double clamp01(double v) {
    return smelt_min_f64(smelt_max_f64(v, 0.0), 1.0);
}

#line 4 "/home/u/k.py"
SMELT_INLINE void step_(int64_t i, double *x, double dt, int64_t int_) {
    double s = 0;
    int64_t k = 0;
    int64_t _c = 0;
#line 5 "/home/u/k.py"
    s = clamp01(x[i]) * dt;
    if (s > 0.5) {
        s = 0.5;
    } else if (s < (-0.5)) {
        s = -0.5;
    } else {
        s = s / 2.0;
    }
#line 12 "/home/u/k.py"
    for (_c = 0; _c < int_; ++_c) {
#line 12 "/home/u/k.py"
        k = _c;
        x[smelt_add_i64(i, k)] = x[smelt_add_i64(i, k)] + s;
    }
#line 14 "/home/u/k.py"
    return;
}
)";
    EXPECT_EQ(codegen::emit_module(*golden_module(), cpp_dialect()), expected);
}

TEST(Emit, GoldenModuleCompilesAndPointsIntoThePythonFile) {
    std::string tu =
        codegen::prelude(cpp_dialect()) + codegen::emit_module(*golden_module(), cpp_dialect());
    tu += codegen::line_mapping_reset(tu, "golden.cpp");
    size_t main_line = std::count(tu.begin(), tu.end(), '\n') + 1;
    // An error in the wrapper part is reported at its real line of the generated file.
    tu += "int main(void) { return undefined_name; }\n";
    RunResult r = compile_and_run(tu, "golden", false);
    ASSERT_FALSE(r.compiled);
    EXPECT_NE(r.log.find("golden.cpp:" + std::to_string(main_line) + ":"), std::string::npos)
        << r.log;
}

TEST(Emit, CompilerErrorsInFunctionsPointAtThePythonLine) {
    // A dialect whose LID_0 spelling the C++ compiler rejects: the message must name k.py:7.
    struct Broken : codegen::Dialect {};
    Broken d;
    static_cast<codegen::Dialect &>(d) = cpp_dialect();
    d.gpu_builtins["LID_0"] = "no_such_function(0)";
    FnBuilder f("f", ty(Scalar::I64), 5);
    auto t = f.local("t", ty(Scalar::I64));
    f.add(Stmt::assign(t, i64(1), at(6)));
    f.add(Stmt::assign(t, Expr::call("LID_0", true, ty(Scalar::I64), {}), at(7)));
    f.add(Stmt::return_(vref(t), at(8)));
    auto m = module_of({f.done()}, source("k.py"));
    std::string tu = codegen::prelude(d) + codegen::emit_module(*m, d);
    EXPECT_NE(tu.find("t = (int64_t)no_such_function(0);"), std::string::npos) << tu;
    tu += codegen::line_mapping_reset(tu, "tu.cpp") + "int main(void) { return (int)f(); }\n";
    RunResult r = compile_and_run(tu, "lines", false);
    ASSERT_FALSE(r.compiled);
    EXPECT_NE(r.log.find("k.py:7:"), std::string::npos) << r.log;
}

TEST(Emit, TypeNamesAndDeclarations) {
    const auto &d = cpp_dialect();
    EXPECT_EQ(codegen::type_name(d, ty(Scalar::F64)), "double");
    EXPECT_EQ(codegen::type_name(d, ty(Scalar::U16)), "uint16_t");
    EXPECT_EQ(codegen::type_name(d, ptr(Scalar::F32)), "float *");
    EXPECT_EQ(codegen::type_name(d, Type::void_()), "void");
    EXPECT_EQ(codegen::declaration(d, ptr(Scalar::I32), "x"), "int32_t *x");
    EXPECT_EQ(codegen::declaration(d, Type::matrix(Scalar::I32, {2, 3}), "m"), "int32_t m[2][3]");
    EXPECT_EQ(codegen::declaration(d, ty(Scalar::Bool), "b"), "bool b");
    // Address-space words come from the dialect.
    codegen::Dialect cl = d;
    cl.global_pointer_space = "__global";
    cl.local_pointer_space = "__local";
    cl.local_array_space = "__local";
    EXPECT_EQ(codegen::declaration(cl, ptr(Scalar::F64), "x"), "__global double *x");
    EXPECT_EQ(codegen::declaration(cl, ptr(Scalar::F64, AddrSpace::Local), "y"),
              "__local double *y");
    EXPECT_EQ(codegen::declaration(cl, Type::matrix(Scalar::F64, {128}, AddrSpace::Local), "buf"),
              "__local double buf[128]");
    // The host has no local memory.
    EXPECT_THROW(codegen::declaration(d, Type::matrix(Scalar::F64, {8}, AddrSpace::Local), "buf"),
                 InternalError);
}

TEST(Emit, IntegerLiterals) {
    const auto &d = cpp_dialect();
    EXPECT_EQ(codegen::int_literal(d, Scalar::I32, 5), "5");
    EXPECT_EQ(codegen::int_literal(d, Scalar::I32, -5), "(-5)");
    EXPECT_EQ(codegen::int_literal(d, Scalar::I32, INT32_MIN), "(-2147483647 - 1)");
    EXPECT_EQ(codegen::int_literal(d, Scalar::U32, 4294967295), "4294967295u");
    EXPECT_EQ(codegen::int_literal(d, Scalar::I64, 5), "5LL");
    EXPECT_EQ(codegen::int_literal(d, Scalar::I64, INT64_MIN), "(-9223372036854775807LL - 1)");
    EXPECT_EQ(codegen::int_literal(d, Scalar::U64, -1), "18446744073709551615ULL");
    EXPECT_EQ(codegen::int_literal(d, Scalar::I8, -3), "((int8_t)-3)");
    EXPECT_EQ(codegen::int_literal(d, Scalar::Bool, 1), "true");
}

TEST(Emit, FloatLiteralsRoundTrip) {
    const auto &d = cpp_dialect();
    EXPECT_EQ(codegen::float_literal(d, Scalar::F64, 0.1), "0.1");
    EXPECT_EQ(codegen::float_literal(d, Scalar::F32, 0.1), "0.1f");
    EXPECT_EQ(codegen::float_literal(d, Scalar::F64, 2.0), "2.0");
    EXPECT_EQ(codegen::float_literal(d, Scalar::F64, -0.0), "(-0.0)");
    EXPECT_EQ(codegen::float_literal(d, Scalar::F32, 1e30), "1e+30f");
    EXPECT_EQ(codegen::float_literal(d, Scalar::F64, -INFINITY), "(-SMELT_INF_F64)");
    EXPECT_EQ(codegen::float_literal(d, Scalar::F32, NAN), "SMELT_NAN_F32");
    // Every double and float reads back exactly (oracle: strtod/strtof of the text).
    uint64_t bits = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 2000; ++k) {
        bits = bits * 6364136223846793005ull + 1442695040888963407ull;
        double v;
        std::memcpy(&v, &bits, sizeof v);
        if (!std::isfinite(v)) continue;
        std::string t = codegen::float_literal(d, Scalar::F64, v);
        if (t.front() == '(') t = t.substr(1, t.size() - 2);
        EXPECT_EQ(std::strtod(t.c_str(), nullptr), v) << t;
        float f = static_cast<float>(v);
        if (!std::isfinite(f)) continue;
        std::string tf = codegen::float_literal(d, Scalar::F32, f);
        if (tf.front() == '(') tf = tf.substr(1, tf.size() - 2);
        ASSERT_EQ(tf.back(), 'f');
        EXPECT_EQ(std::strtof(tf.c_str(), nullptr), f) << tf;
    }
}

TEST(Emit, FunctionSymbolsAndCalls) {
    FnBuilder f("register", ty(Scalar::I32));
    auto a = f.param("a", ty(Scalar::I32));
    f.add(Stmt::return_(vref(a)));
    auto m = module_of({f.done()});
    EXPECT_EQ(codegen::function_symbol(*m, "register"), "register_");
    EXPECT_EQ(codegen::call_function(*m, "register", {"x[i]"}), "register_(x[i])");
    EXPECT_THROW(codegen::function_symbol(*m, "missing"), InternalError);
    EXPECT_NE(codegen::emit_module(*m, cpp_dialect()).find("int32_t register_(int32_t a)"),
              std::string::npos);
}

TEST(Emit, Names) {
    using codegen::choose_names;
    EXPECT_EQ(choose_names({"x", "int", "int_"}, {}),
              (std::vector<std::string>{"x", "int_2", "int_"}));
    EXPECT_EQ(choose_names({"double", "smelt_tmp", "__x", "_Y", "sqrtf"}, {}),
              (std::vector<std::string>{"double_", "vsmelt_tmp", "v__x", "v_Y", "sqrtf_"}));
    EXPECT_EQ(choose_names({"f", "g"}, {"f"}), (std::vector<std::string>{"f_", "g"}));
    EXPECT_EQ(choose_names({"\xce\xb1"}, {}), (std::vector<std::string>{"_xCE_xB1"})); // α
    EXPECT_TRUE(codegen::is_reserved_identifier("float4"));
    EXPECT_TRUE(codegen::is_reserved_identifier("M_PI"));
    EXPECT_TRUE(codegen::is_reserved_identifier("get_global_id"));
    EXPECT_FALSE(codegen::is_reserved_identifier("length"));
    EXPECT_FALSE(codegen::is_reserved_identifier("_tmp"));
    // From the builtin table: what <math.h> and OpenCL C predefine, and the C functions calls
    // are spelled with (gamma is C's tgamma); the language's own names stay usable.
    for (const char *n : {"sin", "sinf", "copysignf", "tgamma", "tgammaf", "isnan", "isfinite",
                          "INFINITY", "NAN", "atomic_add", "atomic_inc"})
        EXPECT_TRUE(codegen::is_reserved_identifier(n)) << n;
    for (const char *n : {"gamma", "pi", "e", "nan", "abs", "len", "LID_0", "local_barrier"})
        EXPECT_FALSE(codegen::is_reserved_identifier(n)) << n;
}

// Calls of builtins take the spelling each C dialect has for them: C's name, the f32 form where
// the dialect suffixes (C++, CUDA) and not where it overloads (OpenCL C), C's own name where it
// differs from Python's (gamma → tgamma), and the GPU names of OpenCL and CUDA.
TEST(Emit, BuiltinSpellingsPerDialect) {
    auto math = [](Scalar s) {
        FnBuilder f("m", ty(s), 1);
        auto x = f.param("x", ty(s));
        f.add(Stmt::return_(bin(B::Add, Expr::call("gamma", true, ty(s), {vref(x)}),
                                Expr::call("abs", true, ty(s),
                                           {Expr::call("hypot", true, ty(s), {vref(x), vref(x)})})),
                            at(2)));
        return module_of({f.done()});
    };
    const struct {
        const codegen::Dialect &d;
        const char *f64, *f32;
    } cases[] = {
        {cpp_dialect(), "tgamma(x) + fabs(hypot(x, x))", "tgammaf(x) + fabsf(hypotf(x, x))"},
        {codegen::opencl_dialect(), "tgamma(x) + fabs(hypot(x, x))",
         "tgamma(x) + fabs(hypot(x, x))"},
        {codegen::cuda_dialect(), "tgamma(x) + fabs(hypot(x, x))",
         "tgammaf(x) + fabsf(hypotf(x, x))"}};
    for (const auto &c : cases) {
        std::string f64 = codegen::emit_module(*math(Scalar::F64), c.d);
        std::string f32 = codegen::emit_module(*math(Scalar::F32), c.d);
        EXPECT_NE(f64.find(c.f64), std::string::npos) << c.d.name << ":\n" << f64;
        EXPECT_NE(f32.find(c.f32), std::string::npos) << c.d.name << ":\n" << f32;
    }

    FnBuilder g("g", Type::void_(), 1);
    auto p = g.param("p", ptr(Scalar::I32));
    g.add(Stmt::store(p, {i32(0)},
                      bin(B::Add, Expr::call("LID_1", true, ty(Scalar::I32), {}),
                          Expr::call("GDIM_2", true, ty(Scalar::I32), {})),
                      at(2)));
    g.add(Stmt::eval(Expr::call("local_barrier", true, Type::void_(), {}), at(3)));
    auto m = module_of({g.done()});
    std::string cl = codegen::emit_module(*m, codegen::opencl_dialect());
    std::string cu = codegen::emit_module(*m, codegen::cuda_dialect());
    EXPECT_NE(cl.find("smelt_add_i32((int)get_local_id(1), (int)get_num_groups(2))"),
              std::string::npos)
        << cl;
    EXPECT_NE(cl.find("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"), std::string::npos)
        << cl;
    EXPECT_NE(cu.find("smelt_add_i32((int32_t)threadIdx.y, (int32_t)gridDim.z)"), std::string::npos)
        << cu;
    EXPECT_NE(cu.find("__syncthreads();"), std::string::npos) << cu;
}

TEST(Emit, StatementForms) {
    FnBuilder f("forms", ty(Scalar::I32), 1);
    auto p = f.param("p", ptr(Scalar::I32));
    auto n = f.param("n", ty(Scalar::I32));
    auto c = f.hidden("_c", ty(Scalar::I32));
    f.add(Stmt::eval(bin(B::Add, vref(n), i32(1)), at(2)));                    // pure: (void)
    f.add(Stmt::eval(Expr::atomic(AtomicOp::Inc, p, i32(0), nullptr), at(3))); // effect
    f.add(Stmt::for_(c, i32(10), vref(n), i32(-2), {}, at(4)));
    f.add(Stmt::while_(bin(B::Ge, vref(n), i32(0)),
                       {Stmt::assign(n, bin(B::Sub, vref(n), i32(1)), at(6))}, at(5)));
    f.add(Stmt::if_(bin(B::Eq, vref(n), i32(3)), {Stmt::return_(i32(1), at(8))}, {}, at(7)));
    auto m = module_of({f.done()});
    std::string out = codegen::emit_module(*m, cpp_dialect());
    EXPECT_NE(out.find("(void)(smelt_add_i32(n, 1));"), std::string::npos) << out;
    EXPECT_NE(out.find("smelt_atomic_inc_i32(&p[0]);"), std::string::npos) << out;
    EXPECT_NE(out.find("for (_c = 10; _c > n; _c -= 2) {"), std::string::npos) << out;
    // No return at the end of the body: a fallback keeps the function well defined in C.
    EXPECT_NE(out.find("    return 0;\n}"), std::string::npos) << out;
    EXPECT_EQ(out.find("#line"), std::string::npos) << "no source, no #line";
}

// int + and - inside an index are exact (docs/LANGUAGE.md): summed in 64 bits, so C sees
// p[base + t] as consecutive elements; outside an index they wrap through the helpers.
TEST(Emit, IntSumsInAnIndexAreExact) {
    FnBuilder f("g", Type::void_(), 1);
    auto p = f.param("p", ptr(Scalar::F64));
    auto base = f.param("base", ty(Scalar::I32));
    auto t = f.param("t", ty(Scalar::I32));
    auto k = f.local("k", ty(Scalar::I32));
    auto sum = [&] { return bin(B::Sub, bin(B::Add, vref(base), vref(t)), i32(1)); };
    f.add(Stmt::store(p, {sum()}, load(p, bin(B::Add, vref(base), vref(t))), at(2)));
    f.add(Stmt::assign(k, sum(), at(3)));
    auto m = module_of({f.done()});
    std::string out = codegen::emit_module(*m, cpp_dialect());
    EXPECT_NE(out.find("p[(int64_t)base + (int64_t)t - 1] = p[(int64_t)base + (int64_t)t];"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("k = smelt_sub_i32(smelt_add_i32(base, t), 1);"), std::string::npos) << out;
}

TEST(Emit, RefusesWhatTheDialectCannotDo) {
    const auto &d = cpp_dialect();
    FnBuilder f("f", ty(Scalar::I64));
    f.add(Stmt::return_(Expr::call("LID_0", true, ty(Scalar::I64), {})));
    EXPECT_THROW(codegen::emit_module(*module_of({f.done()}), d), InternalError);

    FnBuilder g("g", ty(Scalar::I8));
    auto p = g.param("p", ptr(Scalar::I8));
    g.add(Stmt::return_(Expr::atomic(AtomicOp::Inc, p, i32(0), nullptr)));
    EXPECT_THROW(codegen::emit_module(*module_of({g.done()}), d), InternalError);

    FnBuilder h("h", ty(Scalar::F64));
    h.add(Stmt::return_(Expr::call("no_such_builtin", true, ty(Scalar::F64), {})));
    EXPECT_THROW(codegen::emit_module(*module_of({h.done()}), d), InternalError);
}

// --- single precision ---------------------------------------------------------------------

// Every floating literal in C text (outside comments and directives); a literal ending in
// 'f' is single precision.
std::vector<std::string> float_literals(const std::string &text) {
    std::vector<std::string> out;
    size_t i = 0;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    while (i < text.size()) {
        if (text.compare(i, 2, "/*") == 0) {
            i = text.find("*/", i);
            i = i == std::string::npos ? text.size() : i + 2;
        } else if (text[i] == '#' && (i == 0 || text[i - 1] == '\n')) {
            i = text.find('\n', i); // preprocessor line
            if (i == std::string::npos) break;
        } else if (ident(text[i]) && !std::isdigit(static_cast<unsigned char>(text[i]))) {
            while (i < text.size() && ident(text[i]))
                ++i;
        } else if (std::isdigit(static_cast<unsigned char>(text[i])) ||
                   (text[i] == '.' && i + 1 < text.size() &&
                    std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
            size_t b = i;
            while (i < text.size() && (ident(text[i]) || text[i] == '.' ||
                                       ((text[i] == '+' || text[i] == '-') &&
                                        (text[i - 1] == 'e' || text[i - 1] == 'E'))))
                ++i;
            std::string tok = text.substr(b, i - b);
            bool hex = tok.size() > 1 && (tok[1] == 'x' || tok[1] == 'X');
            if (!hex && tok.find_first_of(".eE") != std::string::npos) out.push_back(tok);
        } else {
            ++i;
        }
    }
    return out;
}

bool has_word(const std::string &text, const std::string &w) {
    for (size_t p = text.find(w); p != std::string::npos; p = text.find(w, p + 1)) {
        auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
        bool left = p == 0 || !ident(text[p - 1]);
        bool right = p + w.size() >= text.size() || !ident(text[p + w.size()]);
        if (left && right) return true;
    }
    return false;
}

// def sp(x: float, y: float, n: int) -> float, touching literals, // and %, min/max, math,
// pow, casts, constants and isinf, all in single precision.
std::shared_ptr<Module> single_module() {
    auto F = ty(Scalar::F32);
    FnBuilder f("sp", F, 1);
    auto x = f.param("x", F);
    auto y = f.param("y", F);
    auto n = f.param("n", ty(Scalar::I32));
    auto t = f.local("t", F);
    auto add = [](ExprPtr a, ExprPtr b) { return bin(B::Add, a, b); };
    f.add(Stmt::assign(t, add(bin(B::Mul, vref(x), f32(0.1)), f32(2.5)), at(2)));
    f.add(Stmt::assign(t,
                       add(add(add(add(vref(t), bin(B::FloorDiv, vref(x), vref(y))),
                                   bin(B::Mod, vref(x), vref(y))),
                               bin(B::Min, vref(x), vref(y))),
                           bin(B::Max, vref(x), vref(y))),
                       at(3)));
    f.add(Stmt::assign(
        t,
        add(add(add(vref(t), Expr::call("sqrt", true, F, {Expr::call("fabs", true, F, {vref(x)})})),
                Expr::call("pi", true, F, {})),
            bin(B::Pow, vref(x), f32(3.0))),
        at(4)));
    f.add(Stmt::assign(t, add(vref(t), bin(B::Div, Expr::cast(F, vref(n)), f32(3.0))), at(5)));
    auto bad = bin(B::Or, Expr::call("isinf", true, ty(Scalar::Bool), {vref(t)}),
                   bin(B::Ne, vref(t), vref(t)));
    f.add(Stmt::if_(bad, {Stmt::assign(t, f32(INFINITY), at(7))}, {}, at(6)));
    f.add(Stmt::return_(bin(B::Sub, vref(t), f32(1e-3)), at(8)));
    return module_of({f.done()}, source("sp.py"));
}

TEST(SinglePrecision, NoDoubleInTheGeneratedText) {
    std::string module = codegen::emit_module(*single_module(), cpp_dialect());
    std::string pre = codegen::prelude(cpp_dialect(), /*with_f64=*/false);
    for (const std::string *text : {&module, &pre}) {
        EXPECT_FALSE(has_word(*text, "double")) << *text;
        for (const std::string &lit : float_literals(*text))
            EXPECT_EQ(lit.back(), 'f') << "unsuffixed float literal " << lit << " in\n" << *text;
    }
    EXPECT_FALSE(float_literals(module).empty()); // the scanner does see the literals
    EXPECT_TRUE(has_word(codegen::prelude(cpp_dialect()), "double"));
    EXPECT_FALSE(float_literals("x = 1.5 + y;").empty()); // and would see an unsuffixed one
}

TEST(SinglePrecision, ComputesInFloat) {
    std::string tu = codegen::prelude(cpp_dialect(), false) +
                     codegen::emit_module(*single_module(), cpp_dialect());
    tu += codegen::line_mapping_reset(tu, "sp.cpp");
    tu += "#include <stdio.h>\nint main(void) { printf(\"%a\\n\", (double)sp(7.5f, -2.0f, 4)); "
          "return 0; }\n";
    RunResult r = compile_and_run(tu, "sp");
    ASSERT_TRUE(r.compiled) << r.log;
    // Oracle: the same computation written by hand in float; 7.5 // -2 == -4 and 7.5 % -2 == -0.5
    // in Python.
    float x = 7.5f, y = -2.0f, t;
    t = x * 0.1f + 2.5f;
    t = t + -4.0f + -0.5f + y + x;
    t = t + sqrtf(fabsf(x)) + 3.14159265358979f + powf(x, 3.0f);
    t = t + 4.0f / 3.0f;
    t = t - 1e-3f;
    EXPECT_EQ(std::strtod(r.output.c_str(), nullptr), static_cast<double>(t)) << r.output;
}

// --- prelude ------------------------------------------------------------------------------

TEST(Prelude, DefinesEveryHelperTheEmitterCalls) {
    const char *ints[] = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"};
    std::string refs;
    auto take = [&](const std::string &fn) { refs += "    (void)&" + fn + ";\n"; };
    for (const char *s : ints) {
        for (const char *op :
             {"add", "sub", "mul", "neg", "shl", "floordiv", "mod", "min", "max", "abs", "ipow"})
            take(std::string("smelt_") + op + "_" + s);
    }
    for (const char *s : {"f32", "f64"})
        for (const char *op : {"floordiv", "mod", "min", "max", "isnan", "isinf", "isfinite"})
            take(std::string("smelt_") + op + "_" + s);
    for (const char *s : {"i32", "u32", "i64", "u64", "f32", "f64"})
        for (const char *op : {"inc", "dec", "add"})
            take(std::string("smelt_atomic_") + op + "_" + s);
    std::string tu = codegen::prelude(cpp_dialect()) + "int main(void) {\n" + refs +
                     "    double inf = SMELT_INF_F64, nan = SMELT_NAN_F64;\n"
                     "    float finf = SMELT_INF_F32, fnan = SMELT_NAN_F32;\n"
                     "    return !(inf > 1e308 && nan != nan && finf > 1e38f && fnan != fnan && "
                     "M_PI > 3.14 && M_E > 2.71);\n}\n";
    RunResult r = compile_and_run(tu, "prelude");
    ASSERT_TRUE(r.compiled) << r.log;
    EXPECT_EQ(r.status, 0);
}

// The shared prelude text and the emitted bodies use nothing beyond C99, which is what OpenCL C
// (and CUDA) need: a C dialect is only data.
TEST(Prelude, SharedTextAndBodiesAreC99) {
    codegen::Dialect c = cpp_dialect();
    c.name = "c99";
    c.prelude_head = "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n"
                     "#define SMELT_INLINE static inline __attribute__((unused))\n";
    c.maybe_unused = "__attribute__((unused))";
    c.array_zero_init = " = {0}";
    std::string tu = codegen::prelude(c) + codegen::emit_module(*golden_module(), c) +
                     codegen::emit_module(*single_module(), c);
    bool ok = false;
    std::string log = compile_only(tu, "-x c -std=c99 -pedantic -Wall -Wextra -Werror", ok);
    EXPECT_TRUE(ok) << log;
}

} // namespace
