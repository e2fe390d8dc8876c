// Parser tests: trees checked against CPython's ast module and by hand, statement forms,
// module-level behaviour on files that mix kernels with ordinary Python, and recovery.
#include "frontend/ast_printer.h"
#include "frontend/parser.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

namespace smelt::frontend {
namespace {

using ast::ExprKind;
using ast::StmtKind;

std::shared_ptr<ast::Module> parse_text(const std::string &text, int line_offset = 0) {
    return parse(std::make_shared<SourceFile>("t.py", text, line_offset));
}

std::string errors_of(const ast::FunctionDef &f) {
    std::string out;
    for (const auto &d : f.errors)
        out += d.rendered + "\n";
    return out;
}

// ---- trees against CPython ------------------------------------------------------------------

std::string at(const ast::Expr &e) {
    return "@" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col);
}

std::string join(const std::vector<ast::ExprPtr> &args, size_t from);

// The S-expression form printed by python_exprs.py.
std::string sx(const ast::Expr &e) {
    static const char kHex[] = "0123456789abcdef";
    switch (e.kind) {
    case ExprKind::Int:
        return std::to_string(e.int_value) + at(e);
    case ExprKind::Float: {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", e.float_value);
        return buf + at(e);
    }
    case ExprKind::Bool:
        return (e.bool_value ? "True" : "False") + at(e);
    case ExprKind::Str: {
        std::string hex;
        for (unsigned char ch : e.str_value)
            hex += std::string{kHex[ch >> 4], kHex[ch & 15]};
        return "s:" + hex + at(e);
    }
    case ExprKind::Name:
        return e.name + at(e);
    case ExprKind::Unary:
        return "(" + e.op + at(e) + " " + sx(*e.args[0]) + ")";
    case ExprKind::Binary:
        return "(" + e.op + " " + join(e.args, 0) + ")";
    case ExprKind::BoolOp:
        return "(" + e.op + " " + join(e.args, 0) + ")";
    case ExprKind::Compare: {
        std::string ops;
        for (const auto &op : e.ops)
            ops += op + " ";
        return "(cmp " + ops + join(e.args, 0) + ")";
    }
    case ExprKind::IfExp:
        return "(if" + at(e) + " " + join(e.args, 0) + ")";
    case ExprKind::Call: {
        std::string s = "(call" + at(e) + " " + join(e.args, 0);
        for (const auto &k : e.keywords)
            s += " (kw " + k.name + " " + sx(*k.value) + ")";
        return s + ")";
    }
    case ExprKind::Subscript:
        return "(sub" + at(e) + " " + join(e.args, 0) + ")";
    case ExprKind::Attribute:
        return "(attr" + at(e) + " " + sx(*e.args[0]) + " " + e.name + ")";
    }
    return "?";
}

std::string join(const std::vector<ast::ExprPtr> &args, size_t from) {
    std::string s;
    for (size_t i = from; i < args.size(); ++i)
        s += (i > from ? " " : "") + sx(*args[i]);
    return s;
}

std::string run_command(const std::string &cmd) {
    std::string out;
    std::unique_ptr<FILE, int (*)(FILE *)> pipe(popen(cmd.c_str(), "r"), pclose);
    if (!pipe) return out;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe.get())) > 0)
        out.append(buf.data(), n);
    return out;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(Parser, ExpressionTreesAgreeWithCPythonAst) {
    const std::string dir = std::string(SMELT_TEST_DATA_DIR) + "/frontend/";
    const std::string path = dir + "data/exprs_corpus.py";
    const std::string expected =
        run_command(smelt::testing_util::test_python() + " " + dir + "python_exprs.py " + path);
    ASSERT_FALSE(expected.empty());
    auto m = parse(std::make_shared<SourceFile>(path, read_file(path)));
    ASSERT_EQ(m->functions.size(), 1u);
    const auto &f = *m->functions[0];
    EXPECT_EQ(errors_of(f), "");
    std::istringstream want(expected);
    std::string line;
    size_t i = 0;
    for (; std::getline(want, line); ++i) {
        ASSERT_LT(i, f.body.size());
        ASSERT_EQ(f.body[i]->kind, StmtKind::Assign);
        EXPECT_EQ(sx(*f.body[i]->value), line) << "statement " << i + 1;
    }
    EXPECT_EQ(i, f.body.size());
}

// ---- printed trees --------------------------------------------------------------------------

// The tree of `expr`, as the value of the first statement of a function.
std::string tree(const std::string &expr) {
    auto m = parse_text("def f():\n    _ = " + expr + "\n");
    const auto &f = *m->functions.at(0);
    EXPECT_EQ(errors_of(f), "");
    return f.body.empty() ? "" : print_expr(*f.body[0]->value);
}

TEST(Parser, BinaryNodesAreLocatedAtTheirOperator) {
    EXPECT_EQ(tree("a + b * c"), "Binary + @2:11\n"
                                 "  Name a @2:9\n"
                                 "  Binary * @2:15\n"
                                 "    Name b @2:13\n"
                                 "    Name c @2:17\n");
    EXPECT_EQ(tree("-2**2"), "Unary - @2:9\n"
                             "  Binary ** @2:11\n"
                             "    Int 2 @2:10\n"
                             "    Int 2 @2:13\n");
    EXPECT_EQ(tree("a < b <= c and not d"), "BoolOp and @2:20\n"
                                            "  Compare < <= @2:11\n"
                                            "    Name a @2:9\n"
                                            "    Name b @2:13\n"
                                            "    Name c @2:18\n"
                                            "  Unary not @2:24\n"
                                            "    Name d @2:28\n");
    EXPECT_EQ(tree("x if c else y"), "IfExp @2:9\n"
                                     "  test Name c @2:14\n"
                                     "  body Name x @2:9\n"
                                     "  orelse Name y @2:21\n");
}

TEST(Parser, PrintsAWholeKernel) {
    const char *src = "import math\n"
                      "from smelt import annotate, declare as dc\n"
                      "N = 10\n"
                      "@annotate(i='int', doublep='x, y', return_='double')\n"
                      "def axpb(i, x, y, a=2.0, w=[0]):\n"
                      "    '''Docstring, dropped.'''\n"
                      "    b: int = 1\n"
                      "    p, q = dc('int', 2)\n"
                      "    y[i] += a * x[i] + b; m[i][j] = 0\n"
                      "    if i > N:\n"
                      "        return 1.5\n"
                      "    elif i:\n"
                      "        pass\n"
                      "    else:\n"
                      "        while True:\n"
                      "            break\n"
                      "    for k in range(0, N, 2):\n"
                      "        continue\n"
                      "    return\n";
    auto m = parse_text(src);
    EXPECT_EQ(print_ast(*m), "Import math @-\n"
                             "Import annotate @-\n"
                             "Import dc @-\n"
                             "Constant N @3:1\n"
                             "  value Int 10 @3:5\n"
                             "FunctionDef axpb @5:5\n"
                             "  decorator Call @4:2\n"
                             "    Name annotate @4:2\n"
                             "    keyword i @4:11\n"
                             "      Str 'int' @4:13\n"
                             "    keyword doublep @4:20\n"
                             "      Str 'x, y' @4:28\n"
                             "    keyword return_ @4:36\n"
                             "      Str 'double' @4:44\n"
                             "  param i @5:10\n"
                             "  param x @5:13\n"
                             "  param y @5:16\n"
                             "  param a @5:19\n"
                             "    default Float 2.0 @5:21\n"
                             "  param w @5:26\n"
                             "    default Call @5:28\n"
                             "      Name __list__ @5:28\n"
                             "      Int 0 @5:29\n"
                             "  AnnAssign @7:5\n"
                             "    target Name b @7:5\n"
                             "    annotation Name int @7:8\n"
                             "    value Int 1 @7:14\n"
                             "  Assign @8:5\n"
                             "    target Name p @8:5\n"
                             "    target Name q @8:8\n"
                             "    value Call @8:12\n"
                             "      Name dc @8:12\n"
                             "      Str 'int' @8:15\n"
                             "      Int 2 @8:22\n"
                             "  AugAssign += @9:5\n"
                             "    target Subscript @9:5\n"
                             "      Name y @9:5\n"
                             "      Name i @9:7\n"
                             "    value Binary + @9:22\n"
                             "      Binary * @9:15\n"
                             "        Name a @9:13\n"
                             "        Subscript @9:17\n"
                             "          Name x @9:17\n"
                             "          Name i @9:19\n"
                             "      Name b @9:24\n"
                             "  Assign @9:27\n"
                             "    target Subscript @9:27\n"
                             "      Subscript @9:27\n"
                             "        Name m @9:27\n"
                             "        Name i @9:29\n"
                             "      Name j @9:32\n"
                             "    value Int 0 @9:37\n"
                             "  If @10:5\n"
                             "    cond Compare > @10:10\n"
                             "      Name i @10:8\n"
                             "      Name N @10:12\n"
                             "    Return @11:9\n"
                             "      value Float 1.5 @11:16\n"
                             "    else If @12:5\n"
                             "      cond Name i @12:10\n"
                             "      Pass @13:9\n"
                             "      else While @15:9\n"
                             "        cond Bool True @15:15\n"
                             "        Break @16:13\n"
                             "  For @17:5\n"
                             "    target Name k @17:9\n"
                             "    range Int 0 @17:20\n"
                             "    range Name N @17:23\n"
                             "    range Int 2 @17:26\n"
                             "    Continue @18:9\n"
                             "  Return @19:5\n");
    EXPECT_TRUE(m->functions[0]->is_annotated());
}

// ---- statements and headers -----------------------------------------------------------------

TEST(Parser, AugmentedAssignmentOperators) {
    const char *ops[] = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"};
    std::string src = "def f(x):\n";
    for (const char *op : ops)
        src += std::string("    x ") + op + "= 1\n";
    auto m = parse_text(src);
    const auto &body = m->functions[0]->body;
    ASSERT_EQ(body.size(), std::size(ops));
    for (size_t i = 0; i < body.size(); ++i) {
        EXPECT_EQ(body[i]->kind, StmtKind::AugAssign);
        EXPECT_EQ(body[i]->op, ops[i]);
    }
}

TEST(Parser, ParametersAnnotationsAndDefaults) {
    auto m = parse_text("def f(x: doublep, y: 'intp', i: int = 0, z=[0.0], n=-1,) -> float:\n"
                        "    return x[i]\n");
    const auto &f = *m->functions[0];
    EXPECT_EQ(errors_of(f), "");
    ASSERT_EQ(f.params.size(), 5u);
    EXPECT_EQ(f.params[0].annotation->name, "doublep");
    EXPECT_EQ(f.params[1].annotation->str_value, "intp");
    EXPECT_EQ(f.params[2].default_value->int_value, 0u);
    EXPECT_EQ(print_expr(*f.params[3].default_value), "Call @1:44\n"
                                                      "  Name __list__ @1:44\n"
                                                      "  Float 0.0 @1:45\n");
    EXPECT_EQ(f.params[4].default_value->kind, ExprKind::Unary);
    EXPECT_EQ(f.returns->name, "float");
    EXPECT_TRUE(f.is_annotated());
}

TEST(Parser, SingleLineBodiesAndSemicolons) {
    auto m = parse_text("def f(x): return x\n"
                        "def g(x):\n"
                        "    if x: x = 1; x = 2;\n"
                        "    else: pass\n"
                        "    while x: x -= 1\n");
    ASSERT_EQ(m->functions.size(), 2u);
    EXPECT_EQ(m->functions[0]->body.size(), 1u);
    const auto &g = *m->functions[1];
    EXPECT_EQ(errors_of(g), "");
    ASSERT_EQ(g.body.size(), 2u);
    EXPECT_EQ(g.body[0]->body.size(), 2u);
    EXPECT_EQ(g.body[0]->orelse.size(), 1u);
}

TEST(Parser, LineOffsetShiftsEveryLocation) {
    auto m = parse_text("def f(x):\n    return x[-1]\n", 100);
    const auto &f = *m->functions[0];
    EXPECT_EQ(f.loc.line, 101);
    EXPECT_EQ(f.loc.col, 5);
    ASSERT_EQ(f.errors.size(), 1u);
    EXPECT_EQ(f.errors[0].loc.line, 102);
    EXPECT_EQ(f.errors[0].loc.col, 14);
    EXPECT_EQ(f.errors[0].rendered, "t.py:102:14: error: negative indices are not supported in "
                                    "kernels; Python would index from the end\n"
                                    "    return x[-1]\n"
                                    "             ^");
}

TEST(Parser, IsAnnotatedOnlyForKernelDecoratorsOrAnnotations) {
    auto m = parse_text("@annotate\ndef a(i): pass\n"
                        "@smelt.elementwise(backend='cpu')\ndef b(i): pass\n"
                        "@jit\ndef c(i): pass\n"
                        "def d(i: int): pass\n"
                        "def e(i) -> int: pass\n"
                        "@property\ndef g(i): pass\n"
                        "def h(i, x=[0.0]): pass\n");
    std::string annotated;
    for (const auto &f : m->functions)
        annotated += f->is_annotated() ? f->name : "";
    EXPECT_EQ(annotated, "abcde");
}

// ---- files that are also ordinary Python modules --------------------------------------------

TEST(Parser, MixedFileFindsKernelsAndSkipsOrdinaryPython) {
    const char *src = "'''A module docstring.'''\n"
                      "from __future__ import annotations\n"
                      "import numpy as np, os.path\n"
                      "from smelt.api import *\n"
                      "from . import helpers\n"
                      "N = 128\n"
                      "EPS: float = 1e-6\n"
                      "TWO_N = 2 * N + (1 if N > 3 else 0)\n"
                      "TAU = 2 * math.pi\n"
                      "ALIAS = N\n"
                      "data = np.zeros(N)\n"
                      "names = [s.upper() for s in ('a', 'b')]\n"
                      "table = {k: v for k, v in zip('ab', (1, 2))}\n"
                      "square = lambda v: v * v\n"
                      "OLD = 1\n"
                      "OLD = None\n"
                      "a = b = 3\n"
                      "\n"
                      "class Particle:\n"
                      "    def __init__(self, x=None, *args, **kw):\n"
                      "        self.x = [x for x in args]\n"
                      "\n"
                      "    @property\n"
                      "    def pos(self):\n"
                      "        return self.x\n"
                      "\n"
                      "def helper(path, *args):\n"
                      "    with open(path) as f:\n"
                      "        return {l.strip(): None for l in f}\n"
                      "\n"
                      "@annotate(i='int', doublep='x, y')\n"
                      "def kernel(i, x, y):\n"
                      "    y[i] = x[i] * TWO_N\n"
                      "\n"
                      "@elementwise\n"
                      "def other(i, x):\n"
                      "    x[i] = EPS\n"
                      "\n"
                      "if __name__ == '__main__':\n"
                      "    try:\n"
                      "        print(helper(__file__, *[1, 2]), f'{N!r:>{4}}')\n"
                      "    except Exception as e:\n"
                      "        raise SystemExit(e) from None\n"
                      "    else:\n"
                      "        pass\n";
    auto m = parse_text(src);
    EXPECT_EQ(m->imported_names,
              (std::vector<std::string>{"np", "os", "*", "helpers"})); // no __future__
    std::string constants;
    for (const auto &c : m->constants)
        constants += c.name + " ";
    EXPECT_EQ(constants, "N EPS TWO_N TAU ALIAS ");
    ASSERT_NE(m->find_constant("EPS"), nullptr);
    EXPECT_DOUBLE_EQ(m->find_constant("EPS")->value->float_value, 1e-6);
    EXPECT_EQ(m->find_constant("data"), nullptr);
    EXPECT_EQ(m->find_constant("OLD"), nullptr); // rebound to something that is not a number

    std::string functions;
    for (const auto &f : m->functions)
        functions += f->name + " ";
    EXPECT_EQ(functions, "helper kernel other "); // methods belong to the skipped class
    const ast::FunctionDef *k = m->find_function("kernel");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(errors_of(*k), "");
    EXPECT_TRUE(k->is_annotated());
    EXPECT_EQ(k->body.size(), 1u);
    ASSERT_NE(m->find_function("other"), nullptr);
    EXPECT_EQ(errors_of(*m->find_function("other")), "");
    // The helper is ordinary Python: its errors are kept, reported only if it is compiled.
    const ast::FunctionDef *h = m->find_function("helper");
    ASSERT_NE(h, nullptr);
    EXPECT_FALSE(h->is_annotated());
    ASSERT_EQ(h->errors.size(), 2u);
    EXPECT_EQ(h->errors[0].loc.line, 27);
    EXPECT_NE(h->errors[0].message.find("*args"), std::string::npos);
    EXPECT_EQ(h->errors[1].loc.line, 28);
    EXPECT_NE(h->errors[1].message.find("with statements"), std::string::npos);
}

TEST(Parser, ADecoratedNestedFunctionIsOneError) {
    auto m = parse_text("def k(i):\n"
                        "    @jit\n"
                        "    @other(1)\n"
                        "    def g():\n"
                        "        pass\n"
                        "    y = [1]\n"
                        "    return i\n");
    const auto &k = *m->functions[0];
    ASSERT_EQ(k.errors.size(), 2u) << errors_of(k);
    EXPECT_EQ(k.errors[0].loc.line, 2);
    EXPECT_EQ(k.errors[1].loc.line, 6);
    EXPECT_EQ(k.body.size(), 1u);
}

TEST(Parser, PathologicalNestingIsAnErrorNotACrash) {
    std::string minus = std::string(100000, '-') + "x";
    std::string power = "x", ifexp = "x";
    for (int i = 0; i < 50000; ++i) {
        power += "**x";
        ifexp += " if c else x";
    }
    for (const std::string &chain : {minus, power, ifexp}) {
        auto m = parse_text("def f(x, c):\n    return " + chain + "\n");
        const auto &f = *m->functions[0];
        ASSERT_EQ(f.errors.size(), 1u);
        EXPECT_EQ(f.errors[0].message, "expression is nested too deeply");
    }
    // A long elif chain is parsed in a loop, but it is nesting for everything after the parser
    // (an elif is an If in the orelse of the one before): past the limit, one located error.
    std::string src = "def f(x):\n    if x == 0:\n        return 0\n";
    for (int i = 1; i < 20000; ++i)
        src +=
            "    elif x == " + std::to_string(i) + ":\n        return " + std::to_string(i) + "\n";
    auto m = parse_text(src);
    ASSERT_EQ(m->functions[0]->errors.size(), 1u);
    EXPECT_EQ(m->functions[0]->errors[0].message.rfind("if/elif chain is too long", 0), 0u);
    // Bracket and indentation depth are bounded by the lexer, as in CPython.
    EXPECT_THROW(parse_text("x = " + std::string(300, '(') + std::string(300, ')') + "\n"),
                 CompileError);
}

TEST(Parser, LaterDefinitionWins) {
    auto m = parse_text("def f(x): return 1\ndef f(x): return 2\nK = 1\nK = 2\n");
    EXPECT_EQ(m->find_function("f")->body[0]->value->int_value, 2u);
    EXPECT_EQ(m->find_constant("K")->value->int_value, 2u);
    EXPECT_EQ(m->find_function("g"), nullptr);
}

// ---- errors that make the file unreadable ---------------------------------------------------

void expect_compile_error(const std::string &src, int line, int col, const std::string &frag) {
    try {
        parse_text(src);
        ADD_FAILURE() << "no CompileError for:\n" << src;
    } catch (const CompileError &e) {
        EXPECT_TRUE(e.is_syntax_error());
        ASSERT_FALSE(e.diagnostics().empty());
        const Diagnostic &d = e.diagnostics()[0];
        EXPECT_EQ(d.loc.line, line) << d.rendered;
        EXPECT_EQ(d.loc.col, col) << d.rendered;
        EXPECT_NE(d.message.find(frag), std::string::npos) << d.rendered;
    }
}

TEST(Parser, ModuleLevelErrorsThrow) {
    expect_compile_error("x = 1\n    y = 2\n", 2, 5, "unexpected indent");
    expect_compile_error("def f:\n    pass\n", 1, 6, "expected '('");
    expect_compile_error("def (x):\n    pass\n", 1, 5, "expected a function name");
    expect_compile_error("def f(x)\n    pass\n", 1, 9, "expected ':'");
    expect_compile_error("def f(x):\nreturn x\n", 2, 1, "expected an indented block");
    expect_compile_error("@annotate\nx = 1\n", 2, 1, "expected 'def' or 'class'");
    expect_compile_error("import\n", 1, 7, "expected a module name");
    // Lexical errors throw wherever they are, also in ordinary Python.
    expect_compile_error("def helper():\n    return 'abc\n", 2, 12, "unterminated string");
    expect_compile_error("class A:\n  x = 1\n y = 2\n", 3, 2, "unindent does not match");
}

TEST(Parser, SeveralErrorsInOneFunctionAreAllReported) {
    const char *src = "@annotate(i='int', x='doublep')\n"
                      "def k(i, x, *rest):\n"
                      "    y = [1]\n"
                      "    x[i] = 1.0\n"
                      "    if i > 0:\n"
                      "        z = (1, 2)\n"
                      "        x[i] = 2.0\n"
                      "    else:\n"
                      "        w = {}\n"
                      "    try:\n"
                      "        x[i] = [3]\n"
                      "    except Exception:\n"
                      "        pass\n"
                      "    finally:\n"
                      "        pass\n"
                      "    for j in x:\n"
                      "        x[j] = 0\n"
                      "    else:\n"
                      "        pass\n"
                      "    if x[i] is None: return\n"
                      "    elif i:\n"
                      "        pass\n"
                      "    return x[i] + 1\n";
    auto m = parse_text(src);
    const auto &k = *m->functions.at(0);
    std::vector<std::pair<int, int>> locs;
    for (const auto &d : k.errors)
        locs.push_back({d.loc.line, d.loc.col});
    EXPECT_EQ(locs, (std::vector<std::pair<int, int>>{
                        {2, 13}, {3, 9}, {6, 13}, {9, 13}, {10, 5}, {16, 14}, {20, 13}}))
        << errors_of(k);
    // The good statements are kept: x[i] = 1.0, the if (with its good statement), the return.
    ASSERT_EQ(k.body.size(), 3u);
    EXPECT_EQ(k.body[0]->kind, StmtKind::Assign);
    EXPECT_EQ(k.body[1]->kind, StmtKind::If);
    EXPECT_EQ(k.body[1]->body.size(), 1u);
    EXPECT_EQ(k.body[1]->orelse.size(), 0u);
    EXPECT_EQ(k.body[2]->kind, StmtKind::Return);
    EXPECT_EQ(k.params.size(), 2u);
}

} // namespace
} // namespace smelt::frontend
