// Running a helper program from a test (the CPython oracle, h5py checks) and capturing its output.
#pragma once

#include <array>
#include <chrono>
#include <cstdio>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

// Starts `program` with `args` (argv[0] included) as a child process whose stdout and stderr go
// to a pipe; returns its pid (-1 when fork fails) and sets out_fd to the pipe's read end.
inline pid_t start_child(const std::string &program, std::vector<std::string> args, int &out_fd) {
    int fds[2];
    out_fd = -1;
    if (pipe(fds) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        std::vector<char *> argv;
        for (std::string &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    close(fds[1]);
    out_fd = fds[0];
    return pid;
}

// Appends what the child writes to `out` until `done(out)` holds (true) or `seconds` pass or
// the pipe closes (false unless done then holds).
template <class F> bool read_child_output(int fd, std::string &out, double seconds, F done) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    char buf[4096];
    while (!done(out)) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            end - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, int(left.count())) <= 0) return false;
        const ssize_t k = read(fd, buf, sizeof buf);
        if (k <= 0) return done(out);
        out.append(buf, size_t(k));
    }
    return true;
}

} // namespace smelt::apps::test_util
