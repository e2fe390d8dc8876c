// Kernel libraries, front half: how `from MODULE import NAME` finds kernel files (beside the
// importing file, the search path, SMELT_KERNEL_PATH, dotted and relative modules, diamonds,
// cycles) and the errors for names, modules and syntax, each in its own file.
#include "kernel_libs_util.h"
#include "pipeline.h"

#include <gtest/gtest.h>

namespace smelt {
namespace {

using testing_util::KernelTree;
using testing_util::ScopedEnv;

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

std::shared_ptr<const ast::Module> load(const std::string &path,
                                        const std::vector<std::string> &kernel_path = {}) {
    return parse_program(read_source_file(path), kernel_path);
}

// The file the function `name` resolves to from the main file.
std::string file_of(const ast::Module &m, const std::string &name) {
    const ast::FunctionDef *fn = m.resolve_function(name);
    return fn ? fn->module->source->name() : "(unresolved)";
}

// The first diagnostic of check_functions(names), or of loading when that throws.
Diagnostic first_error(const std::string &path, const std::vector<std::string> &names = {},
                       const std::vector<std::string> &kernel_path = {}) {
    std::vector<Diagnostic> diags;
    try {
        diags = check_functions(*load(path, kernel_path), names, CompileOptions{});
    } catch (const CompileError &e) {
        diags = e.diagnostics();
    }
    EXPECT_FALSE(diags.empty()) << path << " was accepted";
    return diags.empty() ? Diagnostic{} : diags.front();
}

TEST(KernelImports, BesideTheImportingFile) {
    KernelTree t;
    const std::string box = t.write("box.py", testing_util::box_py());
    const std::string main = t.write("main.py", "from box import min_image, HALF as H\n"
                                                "def k(i, x, L):\n"
                                                "    x[i] = min_image(x[i], L) + H\n");
    auto m = load(main);
    EXPECT_EQ(file_of(*m, "min_image"), box);
    ASSERT_NE(m->resolve_constant("H"), nullptr);
    EXPECT_EQ(m->resolve_constant("H")->name, "HALF");
    // box.py's own names are not main's: only what main imports is bound there.
    EXPECT_EQ(m->resolve_function("sq"), nullptr);
    ASSERT_EQ(m->imported_modules.size(), 1u);
    EXPECT_EQ(m->imported_modules[0]->source->name(), box);
}

TEST(KernelImports, SearchPathThenEnvironmentInOrder) {
    KernelTree t;
    t.write("first/vec.py", "def which():\n    return 1\n");
    t.write("second/vec.py", "def which():\n    return 2\n");
    t.write("env/vec.py", "def which():\n    return 3\n");
    t.write("env/only_env.py", "def e():\n    return 4\n");
    const std::string main =
        t.write("app/main.py", "from vec import which\nfrom only_env import e\n");
    {
        ScopedEnv env("SMELT_KERNEL_PATH", "/no/such/dir:" + t.path("env"));
        auto m = load(main, {t.path("first"), t.path("second")});
        EXPECT_EQ(file_of(*m, "which"), t.path("first/vec.py"));
        EXPECT_EQ(file_of(*m, "e"), t.path("env/only_env.py"));
        auto m2 = load(main, {t.path("second")});
        EXPECT_EQ(file_of(*m2, "which"), t.path("second/vec.py"));
        auto m3 = load(main);
        EXPECT_EQ(file_of(*m3, "which"), t.path("env/vec.py"));
    }
    // The importing file's own directory comes before every search directory.
    t.write("app/vec.py", "def which():\n    return 0\n");
    auto m4 = load(main, {t.path("first")});
    EXPECT_EQ(file_of(*m4, "which"), t.path("app/vec.py"));
}

TEST(KernelImports, DottedAndRelativeModules) {
    KernelTree t;
    t.write("pkg/units.py", "SCALE = 3.0\n");
    t.write("pkg/geo.py", "from .units import SCALE\n"
                          "def area(w, h):\n"
                          "    return w * h * SCALE\n");
    t.write("pkg/sub/deep.py", "from ..units import SCALE\n"
                               "def deep():\n"
                               "    return SCALE\n");
    // A units.py on the search path must not be taken for the relative `.units`.
    t.write("elsewhere/units.py", "SCALE = 100.0\n");
    const std::string main = t.write("main.py", "from pkg.geo import area\n"
                                                "from pkg.sub.deep import deep\n");
    auto m = load(main, {t.path("elsewhere")});
    EXPECT_EQ(file_of(*m, "area"), t.path("pkg/geo.py"));
    EXPECT_EQ(file_of(*m, "deep"), t.path("pkg/sub/deep.py"));
    const ast::Module &geo = *m->resolve_function("area")->module;
    ASSERT_NE(geo.resolve_constant("SCALE"), nullptr);
    EXPECT_EQ(geo.resolve_constant("SCALE")->module->source->name(), t.path("pkg/units.py"));
    const ast::Module &deep = *m->resolve_function("deep")->module;
    EXPECT_EQ(deep.resolve_constant("SCALE")->module->source->name(), t.path("pkg/units.py"));
}

TEST(KernelImports, TransitiveDiamondAndCycleEachFileOnce) {
    KernelTree t;
    t.write("box.py", testing_util::box_py());
    t.write("left.py", "from box import sq\ndef l(x):\n    return sq(x)\n");
    t.write("right.py", "from box import sq, min_image\ndef r(x):\n    return sq(x) + 1.0\n");
    t.write("a.py", "from b import fb\ndef fa(x):\n    return x + 1\n");
    t.write("b.py", "from a import fa\ndef fb(x):\n    return fa(x) * 2\n");
    const std::string main = t.write("main.py", "from left import l\n"
                                                "from right import r\n"
                                                "from a import fa\n"
                                                "from b import fb\n");
    auto m = load(main);
    std::vector<std::string> files;
    for (const auto &mod : m->imported_modules)
        files.push_back(std::filesystem::path(mod->source->name()).filename().string());
    // Breadth first in import order; box.py (reached twice) and a.py/b.py (a cycle) once.
    EXPECT_EQ(files, (std::vector<std::string>{"left.py", "right.py", "a.py", "b.py", "box.py"}));
    // Both sides of the diamond see the one box.sq.
    const ast::Module &left = *m->resolve_function("l")->module;
    const ast::Module &right = *m->resolve_function("r")->module;
    EXPECT_EQ(left.resolve_function("sq"), right.resolve_function("sq"));
    // Across the cycle: b.fa is a.fa.
    EXPECT_EQ(m->resolve_function("fb")->module->resolve_function("fa"), m->resolve_function("fa"));
}

TEST(KernelImports, CycleBackToTheMainFile) {
    KernelTree t;
    t.write("helper.py", "from main import base\ndef twice(x):\n    return base(x) * 2\n");
    const std::string main = t.write("main.py", "from helper import twice\n"
                                                "def base(x):\n"
                                                "    return x + 1\n");
    auto m = load(main);
    ASSERT_EQ(m->imported_modules.size(), 1u); // main.py is not read a second time
    EXPECT_EQ(m->resolve_function("twice")->module->resolve_function("base"),
              m->find_function("base"));
}

TEST(KernelImports, OrdinaryPythonImportsStayPlain) {
    KernelTree t;
    const std::string main = t.write("main.py", "from __future__ import annotations\n"
                                                "import numpy as np\n"
                                                "from math import sin, floor\n"
                                                "from smelt import *\n"
                                                "from os.path import join\n"
                                                "from . import siblings\n"
                                                "@annotate(x='doublep')\n"
                                                "def k(i, x):\n"
                                                "    x[i] = sin(x[i]) + floor(x[i])\n");
    auto m = load(main);
    EXPECT_TRUE(m->imported_modules.empty());
    EXPECT_TRUE(check_functions(*m, {}, CompileOptions{}).empty());
}

TEST(KernelImports, NameTheModuleDoesNotDefineIsAnErrorAtTheName) {
    KernelTree t;
    const std::string box = t.write("box.py", testing_util::box_py());
    const std::string main = t.write("main.py", "from math import sqrt\n"
                                                "from box import (min_image,\n"
                                                "                 min_imag)\n");
    try {
        load(main);
        FAIL() << "accepted";
    } catch (const CompileError &e) {
        ASSERT_EQ(e.diagnostics().size(), 1u) << e.what();
        const Diagnostic &d = e.diagnostics()[0];
        EXPECT_EQ(d.file, main);
        EXPECT_EQ(d.loc.line, 3);
        EXPECT_EQ(d.loc.col, 18);
        EXPECT_TRUE(has(d.message, "cannot import name 'min_imag' from 'box'")) << d.message;
        EXPECT_TRUE(has(d.message, box)) << d.message;
        EXPECT_TRUE(has(d.rendered, main + ":3:18: error:")) << d.rendered;
        EXPECT_TRUE(has(d.rendered, "\n                 min_imag)\n                 ^"))
            << d.rendered;
    }
    // Names box.py binds in ordinary Python (an import, a class, another assignment) may be
    // imported; only a kernel that uses them fails.
    t.write("box2.py", "from math import floor\nclass Cell:\n    pass\ntable = [1, 2]\n");
    t.write("ok.py", "from box2 import floor, Cell, table\n");
    EXPECT_NO_THROW(load(t.path("ok.py")));
}

TEST(KernelImports, SyntaxErrorInAnImportedFileIsLocatedThere) {
    KernelTree t;
    const std::string lib = t.write("lib.py", "def fine(x):\n    return x\n\n   oops = 1\n");
    const std::string main = t.write("main.py", "from lib import fine\n");
    try {
        load(main);
        FAIL() << "accepted";
    } catch (const CompileError &e) {
        const Diagnostic &d = e.diagnostics().at(0);
        EXPECT_EQ(d.file, lib);
        EXPECT_EQ(d.loc.line, 4);
        EXPECT_TRUE(has(d.rendered, lib + ":4:4: error: unindent does not match any outer "
                                          "indentation level\n   oops = 1\n   ^"))
            << d.rendered;
    }
}

TEST(KernelImports, ErrorInsideAnImportedFunctionIsReportedInItsFileWhenUsed) {
    KernelTree t;
    const std::string lib = t.write("lib.py", "def good(x):\n"
                                              "    return x + 1.0\n"
                                              "\n"
                                              "def bad(x):\n"
                                              "    y = [x]\n"
                                              "    return x\n");
    const std::string main = t.write("main.py", "from lib import good, bad\n"
                                                "@annotate(x='doublep')\n"
                                                "def uses_good(i, x):\n"
                                                "    x[i] = good(x[i])\n"
                                                "@annotate(x='doublep')\n"
                                                "def uses_bad(i, x):\n"
                                                "    x[i] = bad(x[i])\n");
    auto m = load(main);
    EXPECT_TRUE(check_functions(*m, {"uses_good"}, CompileOptions{}).empty());
    auto diags = check_functions(*m, {"uses_bad"}, CompileOptions{});
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].file, lib);
    EXPECT_EQ(diags[0].loc.line, 5);
    EXPECT_TRUE(has(diags[0].rendered, lib + ":5:9: error: lists are not supported"))
        << diags[0].rendered;
}

TEST(KernelImports, CallingANameFromAModuleThatWasNotFoundFailsAtCompileTime) {
    KernelTree t;
    const std::string main = t.write("app/main.py", "from nowhere import helper\n"
                                                    "from numpy import zeros\n"
                                                    "@annotate(x='doublep')\n"
                                                    "def fine(i, x):\n"
                                                    "    x[i] = 1.0\n"
                                                    "@annotate(x='doublep')\n"
                                                    "def calls(i, x):\n"
                                                    "    x[i] = helper(x[i])\n");
    // Loading and checking the kernel that does not call it are fine: the import is plain Python.
    EXPECT_TRUE(check_functions(*load(main), {"fine"}, CompileOptions{}).empty());
    Diagnostic d = first_error(main, {"calls"}, {t.path("lib")});
    EXPECT_EQ(d.file, main);
    EXPECT_EQ(d.loc.line, 8);
    EXPECT_EQ(d.loc.col, 12);
    EXPECT_TRUE(has(d.message, "'helper' is imported from 'nowhere' (line 1)")) << d.message;
    EXPECT_TRUE(
        has(d.message, "no nowhere.py was found in " + t.path("app") + ", " + t.path("lib")))
        << d.message;
    EXPECT_TRUE(has(d.message, "SMELT_KERNEL_PATH")) << d.message;
}

TEST(KernelImports, FunctionsAndConstantsArePerFile) {
    KernelTree t;
    t.write("box.py", testing_util::box_py());
    const std::string main = t.write("main.py", "from box import pair_dist2\n"
                                                "HALF = 7.0\n"
                                                "def sq(x):\n"
                                                "    return x + x\n");
    auto m = load(main);
    const ast::FunctionDef *d2 = m->resolve_function("pair_dist2");
    ASSERT_NE(d2, nullptr);
    // Inside box.py, sq and HALF are box.py's; in main.py, main.py's.
    EXPECT_EQ(d2->module->resolve_function("sq")->module, d2->module);
    EXPECT_EQ(m->resolve_function("sq")->module, m.get());
    EXPECT_DOUBLE_EQ(d2->module->resolve_constant("HALF")->value->float_value, 0.5);
    EXPECT_DOUBLE_EQ(m->resolve_constant("HALF")->value->float_value, 7.0);
}

TEST(KernelImports, ImportedFunctionIsEmittedWithItsOwnFileAndLines) {
    KernelTree t;
    const std::string box = t.write("box.py", testing_util::box_py());
    const std::string main = t.write("main.py", "from box import min_image\n"
                                                "\n"
                                                "@annotate(x='doublep', L='double')\n"
                                                "def wrap(i, x, L):\n"
                                                "    x[i] = min_image(x[i], L)\n");
    auto m = load(main);
    std::string text = emit_source(*build_ir(*m, {{"wrap", {}, {}}}, CompileOptions{}), "cpu");
    // Each function is mapped to its own file; its body lines follow without a directive.
    const std::string in_box = "#line 8 \"" + box +
                               "\"\nSMELT_INLINE double min_image(double dx, double L) {\n"
                               "    return dx - (L * floor((dx / L) + 0.5));\n}\n";
    const std::string in_main = "#line 4 \"" + main +
                                "\"\nSMELT_INLINE void wrap(int64_t i, double *x, double L) {\n"
                                "    x[i] = min_image(x[i], L);\n}\n";
    for (const auto &part : {in_box, in_main})
        EXPECT_TRUE(has(text, part)) << "missing:\n" << part << "\nin:\n" << text;
    EXPECT_LT(text.find(in_box), text.find(in_main)) << "callee first";
}

} // namespace
} // namespace smelt
