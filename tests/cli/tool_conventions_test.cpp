// What every Smelt command shares, run as processes: exit status 0 done, 1 error, 2 usage (the
// `smelt` tool used to return CLI11's own codes, 105 to 109), and a bash completion script that
// lists exactly the subcommands and options the command's --help lists.
#include "runtime/runtime_test_util.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace smelt {
namespace {

ProcessResult run(const std::string &exe, std::vector<std::string> args) {
    args.insert(args.begin(), exe);
    return run_process(args);
}

// The words a completion script offers: every --long and -s option and subcommand name in its
// compgen -W "..." lists.
std::set<std::string> completion_words(const std::string &script) {
    std::set<std::string> out;
    static const std::regex list(R"re((?:-W|words=)\s*"([^"$]*)")re");
    for (auto it = std::sregex_iterator(script.begin(), script.end(), list);
         it != std::sregex_iterator(); ++it) {
        std::string words = (*it)[1];
        static const std::regex word(R"(\S+)");
        for (auto w = std::sregex_iterator(words.begin(), words.end(), word);
             w != std::sregex_iterator(); ++w)
            out.insert((*w)[0]);
    }
    return out;
}

// The subcommands a CLI11 --help lists under "Subcommands:" (older CLI11: "SUBCOMMANDS:") and the
// --options of a help text.
std::set<std::string> help_subcommands(const std::string &help) {
    std::set<std::string> out;
    size_t at = help.find("Subcommands:");
    if (at == std::string::npos) at = help.find("SUBCOMMANDS:");
    if (at == std::string::npos) return out;
    static const std::regex line(R"(\n  (\w[\w-]*)\s)");
    const std::string rest = help.substr(at);
    for (auto it = std::sregex_iterator(rest.begin(), rest.end(), line);
         it != std::sregex_iterator(); ++it)
        out.insert((*it)[1]);
    return out;
}

std::set<std::string> help_long_options(const std::string &help) {
    std::set<std::string> out;
    static const std::regex opt(R"((--[a-z][\w-]*))");
    for (auto it = std::sregex_iterator(help.begin(), help.end(), opt);
         it != std::sregex_iterator(); ++it)
        out.insert((*it)[1]);
    return out;
}

void expect_completion_matches_help(const std::string &exe, const std::string &name,
                                    const std::string &sub) {
    ProcessResult script = run(exe, {"completion", "bash"});
    ASSERT_EQ(script.exit_status, 0) << script.output;
    EXPECT_NE(script.output.find("complete -o filenames -F _smelt_complete_" + name + " " + name),
              std::string::npos)
        << script.output;
    const std::set<std::string> words = completion_words(script.output);
    const std::set<std::string> subs = help_subcommands(run(exe, {"--help"}).output);
    EXPECT_GE(subs.size(), 2u);
    for (const std::string &s : subs)
        EXPECT_TRUE(words.count(s)) << name << ": subcommand " << s << " not completed";
    for (const std::string &o : help_long_options(run(exe, {sub, "--help"}).output))
        EXPECT_TRUE(words.count(o)) << name << " " << sub << ": option " << o << " not completed";
    EXPECT_EQ(run(exe, {"completion", "fish"}).exit_status, 2);
}

#ifdef SMELT_CLI

TEST(ToolConventions, SmeltExitStatus) {
    EXPECT_EQ(run(SMELT_CLI, {}).exit_status, 2);             // no subcommand
    EXPECT_EQ(run(SMELT_CLI, {"frobnicate"}).exit_status, 2); // unknown subcommand
    EXPECT_EQ(run(SMELT_CLI, {"check"}).exit_status, 2);      // missing argument
    EXPECT_EQ(run(SMELT_CLI, {"check", "a.py", "--bogus"}).exit_status, 2);
    EXPECT_EQ(run(SMELT_CLI, {"check", "/nonexistent/k.py"}).exit_status, 2); // as cli_test
    EXPECT_EQ(run(SMELT_CLI, {"check", std::string(SMELT_TEST_DATA_DIR) + "/cli/mistakes.py"})
                  .exit_status,
              1);
    EXPECT_EQ(run(SMELT_CLI, {"convert"}).exit_status, 2); // the converter's usage
    EXPECT_EQ(run(SMELT_CLI, {"convert", "/nonexistent.h5", "x.gsd"}).exit_status, 1);
    EXPECT_EQ(run(SMELT_CLI, {"--version"}).exit_status, 0);
}

#ifdef SMELT_PYTHON
// `smelt convert` tells usage errors (2) before it imports NumPy, h5py or gsd, and names a missing
// module (1). The interpreter is Python without site-packages (python -S: no NumPy, no h5py,
// and no standard module imported before the script's own folder is searched).
TEST(ToolConventions, ConvertWithoutNumPy) {
    testing_util::TempDir dir;
    const std::string python = (dir.path() / "python-without-site").string();
    { std::ofstream(python) << "#!/bin/sh\nexec " << SMELT_PYTHON << " -S \"$@\"\n"; }
    std::filesystem::permissions(python, std::filesystem::perms::owner_all);
    testing_util::ScopedEnv env("SMELT_PYTHON", python);
    ProcessResult r = run(SMELT_CLI, {"convert"});
    EXPECT_EQ(r.exit_status, 2) << r.output;
    EXPECT_NE(r.output.find("the following arguments are required"), std::string::npos) << r.output;
    EXPECT_EQ(run(SMELT_CLI, {"convert", "in.h5", "out.gsd", "--frame", "last"}).exit_status, 2);
    EXPECT_EQ(run(SMELT_CLI, {"convert", "in.h5", "out.xyz"}).exit_status, 2);
    EXPECT_EQ(run(SMELT_CLI, {"convert", "--bogus", "in.h5", "out.gsd"}).exit_status, 2);
    r = run(SMELT_CLI,
            {"convert", (dir.path() / "in.h5").string(), (dir.path() / "out.gsd").string()});
    EXPECT_EQ(r.exit_status, 1) << r.output;
    EXPECT_NE(r.output.find("smelt convert: error: the Python module 'numpy' is not installed"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("Traceback"), std::string::npos) << r.output;
}
#endif

TEST(ToolConventions, SmeltCompletionListsItsCommands) {
    expect_completion_matches_help(SMELT_CLI, "smelt", "check");
}

#endif

#ifdef SMELT_MD3D

TEST(ToolConventions, AppCompletionListsItsCommands) {
    expect_completion_matches_help(SMELT_MD3D, "md3d", "run");
}

#endif

} // namespace
} // namespace smelt
