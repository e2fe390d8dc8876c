// Lexer tests: token streams of tricky layouts, literals and operators, checked by hand and
// against CPython's own tokenizer on a corpus file.
#include "frontend/lexer.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

namespace smelt::frontend {
namespace {

std::vector<Token> lex_text(const std::string &text, DiagnosticSink *sink_out = nullptr,
                            int line_offset = 0) {
    auto file = std::make_shared<SourceFile>("t.py", text, line_offset);
    DiagnosticSink sink(file);
    auto tokens = lex(*file, sink);
    if (sink_out)
        *sink_out = sink;
    else
        EXPECT_FALSE(sink.has_errors()) << sink.diagnostics()[0].rendered;
    return tokens;
}

// Compact spelling of a token stream: names and operators as written, literals tagged,
// layout tokens in capitals.
std::string compact(const std::vector<Token> &tokens) {
    std::string out;
    for (const Token &t : tokens) {
        if (!out.empty()) out += " ";
        switch (t.kind) {
        case TokenKind::Name:
        case TokenKind::Op:
            out += t.text;
            break;
        case TokenKind::Int:
            out += "int:" + t.text;
            break;
        case TokenKind::Float:
            out += "float:" + t.text;
            break;
        case TokenKind::Imag:
            out += "imag:" + t.text;
            break;
        case TokenKind::String:
            out += t.prefix + "\"" + t.text + "\"";
            break;
        case TokenKind::Newline:
            out += "NL";
            break;
        case TokenKind::Indent:
            out += "INDENT";
            break;
        case TokenKind::Dedent:
            out += "DEDENT";
            break;
        case TokenKind::End:
            out += "END";
            break;
        }
    }
    return out;
}

std::string loc_of(const Token &t) {
    return std::to_string(t.loc.line) + ":" + std::to_string(t.loc.col);
}

TEST(Lexer, IndentationBlocksAndBlankLines) {
    auto toks = lex_text("def f(x):\n"
                         "    if x:\n"
                         "\n"
                         "   # comment at another indentation\n"
                         "        return 1\n"
                         "    return 2\n"
                         "y = 3");
    EXPECT_EQ(compact(toks), "def f ( x ) : NL INDENT if x : NL INDENT return int:1 NL DEDENT "
                             "return int:2 NL DEDENT y = int:3 NL END");
}

TEST(Lexer, SeveralDedentsAtOnceAndAtEndOfFile) {
    auto toks = lex_text("a\n  b\n    c\nd\n  e\n    f\n");
    EXPECT_EQ(compact(toks), "a NL INDENT b NL INDENT c NL DEDENT DEDENT d NL INDENT e NL "
                             "INDENT f NL DEDENT DEDENT END");
    // Dedents are located at the token that ends the block.
    EXPECT_EQ(loc_of(toks[9]), "4:1");
    EXPECT_EQ(loc_of(toks[10]), "4:1");
}

TEST(Lexer, ImplicitJoiningInsideBrackets) {
    auto toks = lex_text("x = f(1,\n"
                         "        2\n"
                         "  )[\n"
                         "0] + {\n"
                         "}\n"
                         "z\n");
    EXPECT_EQ(compact(toks), "x = f ( int:1 , int:2 ) [ int:0 ] + { } NL z NL END");
}

TEST(Lexer, BackslashContinuation) {
    auto toks = lex_text("if a and \\\n        b:\n    x = 1 + \\\n2\n");
    EXPECT_EQ(compact(toks), "if a and b : NL INDENT x = int:1 + int:2 NL DEDENT END");
    EXPECT_EQ(loc_of(toks[3]), "2:9"); // b, on the continuation line
}

TEST(Lexer, CommentsAndBlankLinesProduceNoTokens) {
    auto toks = lex_text("# only a comment\n\n   \n\t\nx # trailing\n# last");
    EXPECT_EQ(compact(toks), "x NL END");
}

TEST(Lexer, ByteOrderMarkIsSkipped) {
    auto toks = lex_text("\xEF\xBB\xBFx = 1\n");
    EXPECT_EQ(compact(toks), "x = int:1 NL END");
    EXPECT_EQ(loc_of(toks[0]), "1:1");
}

TEST(Lexer, FileWithoutFinalNewline) {
    auto toks = lex_text("def f():\n    return 1");
    EXPECT_EQ(compact(toks), "def f ( ) : NL INDENT return int:1 NL DEDENT END");
}

TEST(Lexer, ConsistentTabsAreAccepted) {
    auto toks = lex_text("if a:\n\tif b:\n\t\tc\n\td\n");
    EXPECT_EQ(compact(toks), "if a : NL INDENT if b : NL INDENT c NL DEDENT d NL DEDENT END");
}

TEST(Lexer, TabThenSpacesMatchingTheSameLevelIsAnError) {
    // A tab and 8 spaces are the same level with tab width 8, not with tab width 1.
    DiagnosticSink sink(std::make_shared<SourceFile>("t.py", ""));
    lex_text("if a:\n\tb\n        c\n", &sink);
    ASSERT_EQ(sink.diagnostics().size(), 1u);
    EXPECT_EQ(sink.diagnostics()[0].message, "inconsistent use of tabs and spaces in indentation");
    EXPECT_EQ(sink.diagnostics()[0].loc.line, 3);
    EXPECT_EQ(sink.diagnostics()[0].loc.col, 9);
}

TEST(Lexer, InconsistentDedentIsAnError) {
    DiagnosticSink sink(std::make_shared<SourceFile>("t.py", ""));
    auto toks = lex_text("if a:\n    b\n  c\nd\n", &sink);
    ASSERT_EQ(sink.diagnostics().size(), 1u);
    EXPECT_EQ(sink.diagnostics()[0].message, "unindent does not match any outer indentation level");
    EXPECT_EQ(sink.diagnostics()[0].loc.line, 3);
    EXPECT_EQ(sink.diagnostics()[0].loc.col, 3);
    EXPECT_EQ(toks.back().kind, TokenKind::End); // it still gets to the end
}

TEST(Lexer, StringPrefixesAndEscapes) {
    auto toks = lex_text(R"(a = 'x\ty' "q\"" r'\n' b'\x41' Rb"\d" bR'e' u'\u00e9' U"\x41")"
                         "\n");
    EXPECT_EQ(compact(toks), "a = \"x\ty\" \"q\"\" r\"\\n\" b\"A\" rb\"\\d\" br\"e\" "
                             "u\"\xc3\xa9\" u\"A\" NL END");
}

TEST(Lexer, EscapesDecodeAsInPython) {
    auto toks = lex_text(R"('\101\0\7\x7e\\\'\a\b\f\v\r\n\z\U0001F600')");
    const char expected[] = "A\0\a~\\'\a\b\f\v\r\n\\z\xf0\x9f\x98\x80";
    EXPECT_EQ(toks[0].text, std::string(expected, sizeof expected - 1));
}

TEST(Lexer, TripleQuotedStringsSpanLines) {
    auto toks = lex_text("s = '''a\n'b'\n\"\"\"''' + \"\"\"x\\\ny\"\"\"; t\n");
    EXPECT_EQ(compact(toks), "s = \"a\n'b'\n\"\"\"\" + \"xy\" ; t NL END");
    EXPECT_EQ(loc_of(toks[3]), "3:8"); // the + after the literal
    EXPECT_EQ(loc_of(toks[4]), "3:10");
    EXPECT_EQ(loc_of(toks[6]), "4:7"); // t, after a string with a backslash-newline
}

TEST(Lexer, FStringsWithNestedQuotesAndFormatSpecs) {
    // Python 3.12 allows the enclosing quote inside a replacement field.
    auto toks = lex_text("a = f\"{x[\"k\"]!r:>{w}} {{lit}} {'}'}\" F'{y:'>10}' rf'{z}\\d'\n");
    ASSERT_EQ(toks.size(), 7u);
    EXPECT_EQ(toks[2].prefix, "f");
    EXPECT_EQ(toks[2].text, "{x[\"k\"]!r:>{w}} {{lit}} {'}'}");
    EXPECT_EQ(toks[3].text, "{y:'>10}");
    EXPECT_EQ(toks[4].prefix, "rf");
    EXPECT_EQ(toks[5].kind, TokenKind::Newline);
}

TEST(Lexer, Numbers) {
    auto toks = lex_text("0 7 1_000 0x1F 0XfF 0o17 0b1_01 1. .5 1.5 1e5 1E-3 2.5e+7 3j 1.5J 0.0 "
                         "00 0e0 1_0.0_1\n");
    EXPECT_EQ(compact(toks),
              "int:0 int:7 int:1_000 int:0x1F int:0XfF int:0o17 int:0b1_01 float:1. float:.5 "
              "float:1.5 float:1e5 float:1E-3 float:2.5e+7 imag:3j imag:1.5J float:0.0 int:00 "
              "float:0e0 float:1_0.0_1 NL END");
}

TEST(Lexer, NumberFollowedByKeyword) {
    auto toks = lex_text("x = 1if y else 2\n");
    EXPECT_EQ(compact(toks), "x = int:1 if y else int:2 NL END");
}

TEST(Lexer, BadNumbersAreErrors) {
    const char *cases[][2] = {
        {"x = 012\n", "leading zeros"},           {"x = 1__0\n", "invalid decimal literal"},
        {"x = 1_\n", "invalid decimal literal"},  {"x = 0x\n", "invalid hexadecimal literal"},
        {"x = 0b12\n", "invalid binary literal"}, {"x = 12abc\n", "invalid decimal literal"}};
    for (auto &c : cases) {
        DiagnosticSink sink(std::make_shared<SourceFile>("t.py", ""));
        lex_text(c[0], &sink);
        ASSERT_EQ(sink.diagnostics().size(), 1u) << c[0];
        EXPECT_NE(sink.diagnostics()[0].message.find(c[1]), std::string::npos)
            << c[0] << ": " << sink.diagnostics()[0].message;
        EXPECT_EQ(sink.diagnostics()[0].loc.col, 5) << c[0];
    }
}

TEST(Lexer, OperatorsTakeTheLongestMatch) {
    auto toks = lex_text("**= //= >>= <<= ... ** // >> << <= >= == != -> := += -= *= /= %= &= "
                         "|= ^= @= + - * / % @ & | ^ ~ < > ( ) [ ] { } , : . ; =\n");
    std::string expected = "**= //= >>= <<= ... ** // >> << <= >= == != -> := += -= *= /= %= "
                           "&= |= ^= @= + - * / % @ & | ^ ~ < > ( ) [ ] { } , : . ; = NL END";
    EXPECT_EQ(compact(toks), expected);
    for (size_t i = 0; i + 2 < toks.size(); ++i)
        EXPECT_EQ(toks[i].kind, TokenKind::Op);
    // No spaces: still the longest match at every point.
    EXPECT_EQ(compact(lex_text("a**=-b//c\n")), "a **= - b // c NL END");
    EXPECT_EQ(compact(lex_text("x[1:-1]<=-~y\n")), "x [ int:1 : - int:1 ] <= - ~ y NL END");
}

TEST(Lexer, LocationsAreByteColumnsAndShiftedByTheLineOffset) {
    auto toks = lex_text("def f():\n  s = 'é' + t\n", nullptr, /*line_offset=*/40);
    EXPECT_EQ(loc_of(toks[0]), "41:1");
    EXPECT_EQ(loc_of(toks[1]), "41:5");
    EXPECT_EQ(loc_of(toks[5]), "41:9"); // the NEWLINE sits where the '\n' is
    EXPECT_EQ(loc_of(toks[7]), "42:3");
    EXPECT_EQ(loc_of(toks[11]), "42:14"); // t: 'é' is two bytes
}

TEST(Lexer, UnterminatedStringsAreReportedAtTheirStart) {
    DiagnosticSink sink(std::make_shared<SourceFile>("t.py", ""));
    auto toks = lex_text("a = 'abc\nb = 1\nc = \"\"\"never\nclosed\n", &sink, 2);
    ASSERT_EQ(sink.diagnostics().size(), 2u);
    EXPECT_EQ(sink.diagnostics()[0].message, "unterminated string literal");
    EXPECT_EQ(sink.diagnostics()[0].loc.line, 3);
    EXPECT_EQ(sink.diagnostics()[0].loc.col, 5);
    EXPECT_EQ(sink.diagnostics()[1].message, "unterminated triple-quoted string literal");
    EXPECT_EQ(sink.diagnostics()[1].loc.line, 5);
    // Recovery: the line after the broken one is lexed normally.
    EXPECT_EQ(compact(toks).substr(0, 24), "a = \"\" NL b = int:1 NL c");
}

TEST(Lexer, BadCharactersAreReportedAndSkipped) {
    DiagnosticSink sink(std::make_shared<SourceFile>("t.py", ""));
    auto toks = lex_text("x = a $ b ? c\n", &sink);
    ASSERT_EQ(sink.diagnostics().size(), 2u);
    EXPECT_EQ(sink.diagnostics()[0].message, "invalid character '$' in source");
    EXPECT_EQ(sink.diagnostics()[0].loc.col, 7);
    EXPECT_EQ(sink.diagnostics()[1].loc.col, 11);
    EXPECT_EQ(compact(toks), "x = a b c NL END");
}

TEST(Lexer, UnbalancedBracketsAreErrors) {
    DiagnosticSink sink(std::make_shared<SourceFile>("t.py", ""));
    lex_text("x = (1]\ny = 2)\nz = [3\n", &sink);
    ASSERT_EQ(sink.diagnostics().size(), 3u);
    EXPECT_NE(sink.diagnostics()[0].message.find("does not match"), std::string::npos);
    EXPECT_EQ(sink.diagnostics()[1].message, "unmatched ')'");
    EXPECT_EQ(sink.diagnostics()[2].message, "'[' was never closed");
    EXPECT_EQ(sink.diagnostics()[2].loc.line, 3);
    EXPECT_EQ(sink.diagnostics()[2].loc.col, 5);
}

TEST(Lexer, BackslashNotAtLineEndIsAnError) {
    DiagnosticSink sink(std::make_shared<SourceFile>("t.py", ""));
    lex_text("x = 1 \\ 2\n", &sink);
    ASSERT_EQ(sink.diagnostics().size(), 1u);
    EXPECT_EQ(sink.diagnostics()[0].loc.col, 7);
}

// The corpus file is tokenised by CPython's tokenize module (the oracle) and by Smelt; the
// streams must agree token for token, including positions and decoded string values.
std::string smelt_stream(const std::string &text) {
    std::ostringstream out;
    static const char kHex[] = "0123456789abcdef";
    for (const Token &t : lex_text(text)) {
        std::string pos = loc_of(t);
        switch (t.kind) {
        case TokenKind::Name:
            out << "Name " << pos << " " << t.text;
            break;
        case TokenKind::Int:
        case TokenKind::Float:
        case TokenKind::Imag:
            out << "Number " << pos << " " << t.text;
            break;
        case TokenKind::Op:
            out << "Op " << pos << " " << t.text;
            break;
        case TokenKind::String: {
            out << "String " << pos << " ";
            for (unsigned char ch : t.text)
                out << kHex[ch >> 4] << kHex[ch & 15];
            break;
        }
        case TokenKind::Newline:
            out << "Newline";
            break;
        case TokenKind::Indent:
            out << "Indent";
            break;
        case TokenKind::Dedent:
            out << "Dedent";
            break;
        case TokenKind::End:
            out << "End";
            break;
        }
        out << "\n";
    }
    return out.str();
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

TEST(Lexer, AgreesWithCPythonTokenizeOnCorpus) {
    const std::string dir = std::string(SMELT_TEST_DATA_DIR) + "/frontend/";
    const std::string path = dir + "data/tokens_corpus.py";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    const std::string expected = run_command(smelt::testing_util::test_python() + " -W ignore " +
                                             dir + "python_tokens.py " + path);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(smelt_stream(text.str()), expected);
}

} // namespace
} // namespace smelt::frontend
