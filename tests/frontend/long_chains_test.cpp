// Long flat chains (a + b + c + ..., a < b < c < ..., and/or chains, if/elif ladders) used to
// overflow the stack in lowering, IR verification, emission and AST destruction. Up to the
// documented limit (docs/LANGUAGE.md, "Limits": 1000 nested operations, 1000 nested compound
// statements) they go through the whole front half; past it they are one located error.
#include "frontend/ast.h"
#include "ir/ir.h"
#include "pipeline.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace smelt {
namespace {

constexpr int kLimit = 1000; // docs/LANGUAGE.md, "Limits"

// `n` copies of `term` joined by `op`.
std::string chain(int n, const std::string &term, const std::string &op) {
    std::string out = term;
    for (int k = 1; k < n; ++k)
        out += op + term;
    return out;
}

// A function f(a, b) -> float returning `expr`, as a file.
std::string returning(const std::string &expr) {
    return "def f(a: float, b: float) -> float:\n    return " + expr + "\n";
}

std::string elif_ladder(int clauses) {
    std::string src = "def f(a: float, b: float) -> float:\n    if a == 0:\n        return 0.0\n";
    for (int k = 1; k < clauses; ++k)
        src += "    elif a == " + std::to_string(k) + ":\n        return b\n";
    return src + "    return a\n";
}

struct ChainCase {
    const char *what;
    std::function<std::string(int)> source; // the file for a chain of n links
    int fits;                               // the longest chain within the limit
};

// Depth of a chain of n links: `a` is one level and each operator one more, so n terms of
// a + a + ... are n levels; a comparison or and/or chain of n operands lowers to n - 1 ands on
// top of its operands; `x if c else y` is one more level.
const ChainCase kCases[] = {
    {"a + b + ...", [](int n) { return returning(chain(n, "a", " + ")); }, kLimit},
    {"a * b - ...", [](int n) { return returning(chain(n, "a * b", " - ")); }, kLimit - 1},
    {"a < b < ...", [](int n) { return returning("1.0 if " + chain(n, "a", " < ") + " else 2.0"); },
     kLimit - 1},
    {"... and ...",
     [](int n) { return returning("1.0 if " + chain(n, "a > b", " and ") + " else 2.0"); },
     kLimit - 2},
    {"... or ...",
     [](int n) { return returning("1.0 if " + chain(n, "a > b", " or ") + " else 2.0"); },
     kLimit - 2},
    {"if/elif ladder", elif_ladder, kLimit},
};

std::vector<Diagnostic> check(const std::string &text) {
    auto module = parse_source(std::make_shared<SourceFile>("chain.py", text));
    return check_functions(*module, {"f"}, CompileOptions{});
}

TEST(LongChains, WithinTheLimitCompileThroughLoweringPassesAndEmission) {
    for (const ChainCase &c : kCases) {
        const std::string text = c.source(c.fits);
        auto module = parse_source(std::make_shared<SourceFile>("chain.py", text));
        ASSERT_TRUE(module->functions[0]->errors.empty())
            << c.what << ": " << module->functions[0]->errors[0].message;
        auto ir = build_ir(*module, {KernelRequest{"f", {}, {}}}, CompileOptions{});
        std::string source = emit_source(*ir, "cpu");
        EXPECT_NE(source.find("float f(float a, float b) {"), std::string::npos) << c.what;
        EXPECT_TRUE(check(text).empty()) << c.what;
    }
}

TEST(LongChains, PastTheLimitAreOneLocatedError) {
    for (const ChainCase &c : kCases) {
        for (int n : {c.fits + 1, 10000}) {
            std::vector<Diagnostic> d = check(c.source(n));
            ASSERT_EQ(d.size(), 1u) << c.what << " of " << n;
            EXPECT_GT(d[0].loc.line, 1) << c.what;
            EXPECT_GT(d[0].loc.col, 0) << c.what;
            const std::string &m = d[0].message;
            EXPECT_TRUE(m.find("more than 1000") != std::string::npos) << c.what << ": " << m;
        }
    }
}

TEST(LongChains, TheErrorPointsAtTheOperatorPastTheLimit) {
    std::vector<Diagnostic> d = check(returning(chain(kLimit + 5, "a", " + ")));
    ASSERT_EQ(d.size(), 1u);
    // "    return a + a + ...": the k-th '+' (1-based) is at column 14 + 4 * (k - 1); the one
    // that makes the chain one level too deep is the 1000th.
    EXPECT_EQ(d[0].loc.line, 2);
    EXPECT_EQ(d[0].loc.col, 14 + 4 * (kLimit - 1));
    EXPECT_EQ(d[0].message.rfind("expression is too deep: more than 1000 operations", 0), 0u)
        << d[0].message;

    std::vector<Diagnostic> e = check(elif_ladder(kLimit + 1));
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].loc.line, 2 + 2 * kLimit); // the elif that is one clause too many
    EXPECT_EQ(e[0].loc.col, 5);
    EXPECT_EQ(e[0].message.rfind("if/elif chain is too long: more than 1000 clauses", 0), 0u)
        << e[0].message;
}

TEST(LongChains, NestedChainsCountTogether) {
    // Brackets nest the chains: 600 levels inside, 450 outside is past the limit although
    // each chain is not.
    std::string inner = "(" + chain(600, "a", " + ") + ")";
    std::vector<Diagnostic> d = check(returning(inner + " * " + chain(450, "a", " * ")));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("expression is too deep"), std::string::npos) << d[0].message;
    // Statements: a loop around a long ladder, nested 2 deep.
    std::string src = "def f(a: float, b: float) -> float:\n    while a > 0:\n        if a == 0:\n"
                      "            return 0.0\n";
    for (int k = 1; k < kLimit; ++k)
        src += "        elif a == " + std::to_string(k) + ":\n            return b\n";
    src += "    return a\n";
    std::vector<Diagnostic> s = check(src);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_NE(s[0].message.find("statements are nested too deeply: more than 1000"),
              std::string::npos)
        << s[0].message;
    EXPECT_EQ(s[0].loc.line, 2); // the while that holds the ladder
}

} // namespace
} // namespace smelt
