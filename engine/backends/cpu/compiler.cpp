#include "backends/cpu/compiler.h"

#include "support/debug.h"
#include "support/process.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <unistd.h>

namespace smelt::cpu {

namespace fs = std::filesystem;

namespace {

std::string configured_compiler() {
    if (const char *cxx = std::getenv("SMELT_CXX"); cxx && *cxx) return cxx;
#ifdef SMELT_CXX_COMPILER
    std::error_code ec;
    if (fs::exists(SMELT_CXX_COMPILER, ec)) return SMELT_CXX_COMPILER;
#endif
    return "c++";
}

std::string search_path(const std::string &command) {
    if (command.find('/') != std::string::npos) {
        std::error_code ec;
        fs::path abs = fs::absolute(command, ec);
        return ec ? command : abs.string();
    }
    const char *path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) continue;
        fs::path candidate = fs::path(dir) / command;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
    }
    return command;
}

std::string query_version(const std::string &compiler) {
    static std::mutex mutex;
    static std::map<std::string, std::string> versions;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = versions.find(compiler);
    if (it != versions.end()) return it->second;
    ProcessResult r = run_process({compiler, "--version"});
    std::string version = "unknown";
    if (r.started && r.exit_status == 0) {
        version = r.output.substr(0, r.output.find('\n'));
    }
    versions[compiler] = version;
    return version;
}

} // namespace

CxxToolchain find_toolchain() {
    CxxToolchain tc;
    tc.command = configured_compiler();
    tc.resolved = search_path(tc.command);
    tc.version = query_version(tc.resolved);
    return tc;
}

std::vector<std::string> float_semantics_flags(bool fast_math) {
    if (fast_math) return {"-ffast-math", "-fno-finite-loops"};
    return {"-ffp-contract=off", "-fno-trapping-math", "-fno-finite-loops"};
}

std::vector<std::string> cxx_flags(bool openmp, const std::vector<std::string> &extra,
                                   bool fast_math) {
    std::vector<std::string> flags = {"-std=c++17", "-O3", "-march=native", "-shared", "-fPIC"};
    for (auto &f : float_semantics_flags(fast_math))
        flags.push_back(std::move(f));
    // Serial mode leaves the OpenMP pragmas in the source; they are meant to be ignored.
    flags.push_back(openmp ? "-fopenmp" : "-Wno-unknown-pragmas");
    flags.insert(flags.end(), extra.begin(), extra.end());
    return flags;
}

BuildResult compile_shared_object(const CxxToolchain &tc, const std::vector<std::string> &flags,
                                  const fs::path &source, const fs::path &output,
                                  const std::vector<std::string> &link_args) {
    std::vector<std::string> argv = {tc.resolved};
    argv.insert(argv.end(), flags.begin(), flags.end());
    const bool same_dir = source.parent_path() == output.parent_path();
    argv.push_back("-o");
    argv.push_back(same_dir ? output.filename().string() : fs::absolute(output).string());
    argv.push_back(same_dir ? source.filename().string() : fs::absolute(source).string());
    argv.insert(argv.end(), link_args.begin(), link_args.end());

    BuildResult result;
    result.command = shell_quote(argv);
    debug::log(1, "compile: (in " + source.parent_path().string() + ") " + result.command);
    auto t0 = std::chrono::steady_clock::now();
    ProcessResult run = run_process(argv, same_dir ? source.parent_path() : fs::path());
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.log = run.output;
    if (!run.started) {
        result.log += "\n(set SMELT_CXX to the path of a C++17 compiler)";
        return result;
    }
    result.ok = run.exit_status == 0;
    if (!result.ok && result.log.empty())
        result.log = "compiler exited with status " + std::to_string(run.exit_status);
    debug::log(1, "compile: " + std::string(result.ok ? "done" : "FAILED") + " in " +
                      std::to_string(result.seconds) + " s");
    return result;
}

} // namespace smelt::cpu
