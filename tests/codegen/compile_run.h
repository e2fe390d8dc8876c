// Compiles a generated translation unit with the system compiler (SMELT_CXX, -std=c++17 -O2
// -Wall -Werror -fopenmp) and runs it, for tests that check what generated code computes.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace smelt::test {

struct RunResult {
    bool compiled = false;
    std::string log;    // compiler output when it failed
    std::string output; // the program's stdout
    int status = -1;
    std::string source_path;
};

inline std::string capture(const std::string &cmd, int &status) {
    std::string out;
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    status = pclose(p);
    return out;
}

// The source is kept (path in source_path) when compiling or running failed, unless
// `keep_failures` is false (for tests that expect a compiler error).
inline RunResult compile_and_run(const std::string &source, const std::string &stem,
                                 bool keep_failures = true) {
    RunResult r;
    char dir[] = "/tmp/smelt_codegen_XXXXXX";
    if (!mkdtemp(dir)) return r;
    r.source_path = std::string(dir) + "/" + stem + ".cpp";
    std::string exe = std::string(dir) + "/" + stem;
    std::ofstream(r.source_path) << source;
    int st = 0;
    r.log = capture(std::string(SMELT_CXX) + " -std=c++17 -O2 -Wall -Werror -fopenmp " +
                        r.source_path + " -o " + exe + " 2>&1",
                    st);
    r.compiled = st == 0;
    if (r.compiled) r.output = capture("OMP_NUM_THREADS=4 " + exe, r.status);
    std::remove(exe.c_str());
    if (!keep_failures || (r.compiled && r.status == 0)) {
        std::remove(r.source_path.c_str());
        rmdir(dir);
    }
    return r;
}

// Only compiles `source`, with SMELT_CXX and `flags`; returns the compiler's output and
// sets `ok`.
inline std::string compile_only(const std::string &source, const std::string &flags, bool &ok) {
    char path[] = "/tmp/smelt_syntax_XXXXXX.c";
    int fd = mkstemps(path, 2);
    if (fd < 0) return "cannot create a temporary file";
    close(fd);
    std::ofstream(path) << source;
    int st = 0;
    std::string log =
        capture(std::string(SMELT_CXX) + " " + flags + " -fsyntax-only " + path + " 2>&1", st);
    ok = st == 0;
    std::remove(path);
    return log;
}

// Output lines "key v1 v2 ..." → key → values.
inline std::map<std::string, std::vector<std::string>> parse_keyed(const std::string &out) {
    std::map<std::string, std::vector<std::string>> m;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string key, v;
        ls >> key;
        while (ls >> v)
            m[key].push_back(v);
    }
    return m;
}

} // namespace smelt::test
