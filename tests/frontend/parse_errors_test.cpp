// Every construct the kernel language rejects in its syntax gets its own message at the
// offending token; and every case of the error catalog tests/errors/parse/*.py gets exactly the
// location and message its first line expects.
#include "frontend/parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace smelt::frontend {
namespace {

// The first diagnostic the compiler would report for a file holding kernels: a thrown
// syntax error, or else the first error of the first annotated function.
std::optional<Diagnostic> first_error(const std::string &name, const std::string &text) {
    try {
        auto m = parse(std::make_shared<SourceFile>(name, text));
        for (const auto &f : m->functions)
            if (f->is_annotated() && !f->errors.empty()) return f->errors[0];
    } catch (const CompileError &e) {
        EXPECT_TRUE(e.is_syntax_error());
        return e.diagnostics().at(0);
    }
    return std::nullopt;
}

struct Case {
    const char *body; // statements of the kernel, indented by 4 spaces when placed
    int line;         // counted in the whole file (the body starts on line 5)
    int col;
    const char *fragment;
};

const Case kCases[] = {
    {"y = [1, 2]", 5, 9, "lists are not supported in kernels"},
    {"y = [v for v in range(3)]", 5, 9, "list comprehensions are not supported in kernels"},
    {"y = (1, 2)", 5, 9, "tuples are not supported in kernels"},
    {"y = ()", 5, 9, "tuples are not supported in kernels"},
    {"y = 1, 2", 5, 10, "tuples are not supported in kernels"},
    {"return i, x", 5, 13, "tuples are not supported in kernels"},
    {"y: int = 1, 2", 5, 15, "tuples are not supported in kernels"},
    {"y = {1: 2}", 5, 9, "dicts are not supported in kernels"},
    {"y = {}", 5, 9, "dicts are not supported in kernels"},
    {"y = {1, 2}", 5, 9, "sets are not supported in kernels"},
    {"y = {v: 1 for v in x}", 5, 9, "dict comprehensions are not supported in kernels"},
    {"y = {v for v in x}", 5, 9, "set comprehensions are not supported in kernels"},
    {"y = sum(v for v in x)", 5, 15, "generator expressions are not supported in kernels"},
    {"y = (v for v in x)", 5, 12, "generator expressions are not supported in kernels"},
    {"f = lambda v: v", 5, 9, "lambda is not supported in kernels"},
    {"class A:\n    pass", 5, 5, "classes are not supported in kernels"},
    {"try:\n    pass\nexcept Exception:\n    pass", 5, 5, "try/except is not supported"},
    {"with open('f') as fh:\n    pass", 5, 5, "with statements are not supported in kernels"},
    {"global N", 5, 5, "global is not supported in kernels"},
    {"nonlocal N", 5, 5, "nonlocal is not supported in kernels"},
    {"yield i", 5, 5, "yield is not supported in kernels"},
    {"y = yield", 5, 9, "yield is not supported in kernels"},
    {"await g()", 5, 5, "await is not supported in kernels"},
    {"async for j in range(3):\n    pass", 5, 5, "async is not supported in kernels"},
    {"del x", 5, 5, "del is not supported in kernels"},
    {"assert i > 0", 5, 5, "assert is not supported in kernels"},
    {"raise ValueError('bad')", 5, 5, "raise is not supported in kernels"},
    {"import math", 5, 5, "import inside a function is not supported in kernels"},
    {"from math import sin", 5, 5, "import inside a function is not supported in kernels"},
    {"a, *b = declare('int', 3)", 5, 8, "star expressions (*x) are not supported in kernels"},
    {"f(*x)", 5, 7, "argument unpacking (*args) is not supported in kernels"},
    {"f(**x)", 5, 7, "keyword argument unpacking (**kwargs) is not supported in kernels"},
    {"y = x[1:3]", 5, 12, "slicing is not supported in kernels"},
    {"y = x[:]", 5, 11, "slicing is not supported in kernels"},
    {"y = x[i, 1:3]", 5, 15, "slicing is not supported in kernels"},
    {"if (y := x[i]) > 0:\n    pass", 5, 11, "assignment expressions (:=) are not supported"},
    {"y = x[i] @ x[i]", 5, 14, "matrix multiplication (@) is not supported in kernels"},
    {"x[i] @= 2.0", 5, 10, "matrix multiplication (@=) is not supported in kernels"},
    {"s = f'{i}'", 5, 9, "f-strings are not supported in kernels"},
    {"s = 'a' F\"b\"", 5, 13, "f-strings are not supported in kernels"},
    {"s = b'abc'", 5, 9, "bytes literals are not supported in kernels"},
    {"a = b = 1.0", 5, 11, "chained assignment (a = b = ...) is not supported in kernels"},
    {"if x[i] is None:\n    pass", 5, 13, "'is' is not supported in kernels; compare values"},
    {"if i is not 0:\n    pass", 5, 10, "'is not' is not supported in kernels"},
    {"if i in x:\n    pass", 5, 10, "'in' is not supported in kernels"},
    {"if i not in x:\n    pass", 5, 10, "'not in' is not supported in kernels"},
    {"y = x[-1]", 5, 11, "negative indices are not supported in kernels; Python would index"},
    {"x[-2] = 0.0", 5, 7, "negative indices are not supported in kernels"},
    {"y = None", 5, 9, "None is not supported in kernels"},
    {"return None", 5, 12, "None is not supported in kernels"},
    {"def g():\n    pass", 5, 5, "nested functions are not supported in kernels"},
    {"@jit\ndef g():\n    pass", 5, 5, "decorators and nested functions are not supported"},
    {"for j in x:\n    pass", 5, 14, "looping over anything but range() is not supported"},
    {"for j in range(3):\n    pass\nelse:\n    pass", 7, 5, "for ... else is not supported"},
    {"while i < 3:\n    i += 1\nelse:\n    pass", 7, 5, "while ... else is not supported"},
    {"for j, k in range(3):\n    pass", 5, 10, "tuple loop targets are not supported"},
    {"for x[0] in range(3):\n    pass", 5, 9, "the loop variable must be a plain name"},
    {"for j in range(1, 2, 3, 4):\n    pass", 5, 14, "range() takes 1 to 3 arguments, got 4"},
    {"for j in range():\n    pass", 5, 14, "range() takes 1 to 3 arguments, got 0"},
    {"for j in range(stop=3):\n    pass", 5, 20, "range() does not take keyword arguments"},
    {"y = 99999999999999999999", 5, 9, "integer literal 99999999999999999999 is too large"},
    {"y = 1j", 5, 9, "complex numbers are not supported in kernels"},
    {"y = ...", 5, 9, "Ellipsis (...) is not supported in kernels"},
    {"x.size = 3", 5, 5, "assignment to an attribute is not supported in kernels"},
    {"y = x[i] if i > 0", 5, 22, "expected 'else' in a conditional expression"},
    {"match i:\n    case 1:\n        pass", 5, 5, "match statements are not supported in kernels"},
    {"if i = 1:\n    pass", 5, 10, "use '==' to compare"},
    {"print 'hi'", 5, 11, "invalid syntax: unexpected string"},
    {"x[i] = 1.0\n    y = 1", 6, 9, "unexpected indent"},
    {"x[i] = 1.0\nelse:\n    pass", 6, 5, "'else' without a matching statement"},
    {"f(1) = 2", 5, 5, "cannot assign to a function call"},
    {"y = f(a=1, 2)", 5, 16, "positional argument follows keyword argument"},
    // Accepted: keyword arguments are for the type checker to judge; -0 is not negative.
    {"y = f(x, a=1)\ny = x[-0]", 0, 0, nullptr},
};

TEST(ParseErrors, EachRejectedConstructHasItsMessageAndLocation) {
    for (const Case &c : kCases) {
        std::string src = "from smelt import annotate\n\n"
                          "@annotate(i='int', x='doublep')\n"
                          "def k(i, x):\n";
        std::istringstream body(c.body);
        for (std::string line; std::getline(body, line);)
            src += "    " + line + "\n";
        auto d = first_error("t.py", src);
        if (!c.fragment) {
            EXPECT_FALSE(d.has_value()) << d->rendered;
            continue;
        }
        ASSERT_TRUE(d.has_value()) << "no error for:\n" << c.body;
        EXPECT_EQ(d->loc.line, c.line) << d->rendered;
        EXPECT_EQ(d->loc.col, c.col) << d->rendered;
        EXPECT_NE(d->message.find(c.fragment), std::string::npos) << d->rendered;
    }
}

TEST(ParseErrors, RejectedParameterForms) {
    const Case cases[] = {
        {"i, *args", 4, 10, "*args (variable positional arguments) is not supported in kernels"},
        {"i, **kw", 4, 10, "**kw (variable keyword arguments) is not supported in kernels"},
        {"i, *, n", 4, 10, "keyword-only parameters (a bare '*') are not supported"},
        {"i, /, n", 4, 10, "positional-only parameters (a '/' marker) are not supported"},
        {"i, x=None", 4, 12, "None is not supported in kernels"},
        {"i, x=[0.0, 1.0]", 4, 12, "a list default value must have exactly one element"},
        {"i, x=[]", 4, 12, "an empty list is not supported in kernels"},
        {"i, x=[v for v in y]", 4, 12, "list comprehensions are not supported"},
        {"i, i", 4, 10, "duplicate parameter 'i'"},
        {"i, x: (1, 2)", 4, 13, "tuples are not supported in kernels"},
    };
    for (const Case &c : cases) {
        std::string src = std::string("from smelt import annotate\n\n@annotate\ndef k(") + c.body +
                          "):\n    pass\n";
        auto d = first_error("t.py", src);
        ASSERT_TRUE(d.has_value()) << c.body;
        EXPECT_EQ(d->loc.line, c.line) << d->rendered;
        EXPECT_EQ(d->loc.col, c.col) << d->rendered;
        EXPECT_NE(d->message.find(c.fragment), std::string::npos) << d->rendered;
    }
}

TEST(ParseErrors, DecoratorAndReturnAnnotationErrorsBelongToTheFunction) {
    auto m = parse(std::make_shared<SourceFile>(
        "t.py", "@annotate(x=[1, 2])\ndef k(x) -> (int, int):\n    pass\ndef ok(): pass\n"));
    ASSERT_EQ(m->functions.size(), 2u);
    const auto &e = m->functions[0]->errors;
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].loc.line, 1);
    EXPECT_EQ(e[0].loc.col, 13);
    EXPECT_EQ(e[1].loc.line, 2);
    EXPECT_EQ(e[1].loc.col, 13);
    EXPECT_TRUE(m->functions[1]->errors.empty());
}

// The catalog: tests/errors/parse/NNN_name.py, first line "# expect: LINE:COL: fragment".
TEST(ParseErrors, CatalogFilesGetTheirExpectedFirstDiagnostic) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(SMELT_TEST_DATA_DIR) / "errors" / "parse";
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".py") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    EXPECT_GE(files.size(), 25u);
    const std::regex expect_re(R"(^# expect: (\d+):(\d+): (.+)$)");
    for (const auto &path : files) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        std::string first_line = text.str().substr(0, text.str().find('\n'));
        std::smatch match;
        ASSERT_TRUE(std::regex_match(first_line, match, expect_re)) << path;
        auto d = first_error(path.filename().string(), text.str());
        ASSERT_TRUE(d.has_value()) << path << ": no error";
        EXPECT_EQ(d->loc.line, std::stoi(match[1])) << d->rendered;
        EXPECT_EQ(d->loc.col, std::stoi(match[2])) << d->rendered;
        EXPECT_NE(d->message.find(match[3].str()), std::string::npos)
            << d->rendered << "\nexpected: " << match[3];
    }
}

} // namespace
} // namespace smelt::frontend
