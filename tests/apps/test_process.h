// Running a helper program from a test (the CPython oracle, h5py checks) and capturing its output.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace smelt::apps::test_util {

struct ProcessResult {
    int status = -1; // exit status, -1 when it did not exit normally
    std::string output;
};

// Runs `command` through the shell with stderr merged into the captured output.
inline ProcessResult run_process(const std::string &command) {
    ProcessResult r;
    std::FILE *p = popen((command + " 2>&1").c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    size_t k;
    while ((k = std::fread(buf.data(), 1, buf.size(), p)) > 0)
        r.output.append(buf.data(), k);
    int raw = pclose(p);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return r;
}

inline std::string shell_quote(const std::string &s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace smelt::apps::test_util
