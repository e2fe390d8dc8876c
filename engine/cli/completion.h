// Bash completion generated from a CLI11 definition, so it lists exactly the subcommands and
// options the tool has: `smelt completion bash`, `md3d completion bash` print a script to source
// (e.g. `source <(md3d completion bash)`, or save it in ~/.local/share/bash-completion/
// completions/md3d). Words after a subcommand complete to its options when they start with '-',
// to file names otherwise. Header-only: the `smelt` tool and the apps' kit (apps/common/cli.cpp)
// both include it.
#pragma once

#include <CLI/CLI.hpp>

#include <cctype>
#include <cstdio>
#include <memory>
#include <string>

namespace smelt::cli {

namespace detail {

inline std::string option_words(const CLI::App &app) {
    std::string words;
    for (const CLI::Option *o : app.get_options()) {
        for (const std::string &l : o->get_lnames())
            words += (words.empty() ? "--" : " --") + l;
        for (const std::string &s : o->get_snames())
            words += (words.empty() ? "-" : " -") + s;
    }
    return words;
}

} // namespace detail

inline std::string bash_completion(const CLI::App &app, const std::string &command) {
    std::string fn = "_smelt_complete_";
    for (char c : command)
        fn += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    std::string subs, cases;
    for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; })) {
        subs += " " + sub->get_name();
        cases += "    " + sub->get_name() + ") words=\"" + detail::option_words(*sub) + "\" ;;\n";
    }
    return "# bash completion for " + command + ", generated from its command-line definition (" +
           command + " completion bash)\n" + fn +
           "() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} sub= w words\n"
           "    for w in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do\n"
           "        case \" " +
           subs +
           " \" in *\" $w \"*) sub=$w ;; esac\n"
           "    done\n"
           "    if [ -z \"$sub\" ]; then\n"
           "        COMPREPLY=($(compgen -W \"" +
           subs + " " + detail::option_words(app) +
           "\" -- \"$cur\"))\n"
           "        return\n"
           "    fi\n"
           "    case $sub in\n" +
           cases +
           "    esac\n"
           "    if [[ $cur == -* ]]; then\n"
           "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
           "    else\n"
           "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           "    fi\n"
           "}\n"
           "complete -o filenames -F " +
           fn + " " + command + "\n";
}

// Adds the subcommand `completion bash` that prints bash_completion() of `app` when parsed (the
// script lists the subcommands and options that exist then). Returns the subcommand.
inline CLI::App *add_completion_command(CLI::App &app, const std::string &command) {
    CLI::App *cmd = app.add_subcommand("completion", "Print a bash completion script (source <(" +
                                                         command + " completion bash))");
    auto shell = std::make_shared<std::string>();
    cmd->add_option("shell", *shell, "the shell (bash)")
        ->required()
        ->check(CLI::IsMember({"bash"}));
    cmd->callback(
        [&app, command, shell] { std::fputs(bash_completion(app, command).c_str(), stdout); });
    return cmd;
}

} // namespace smelt::cli
