// A plain mutation fuzzer around LLVMFuzzerTestOneInput, for machines without libFuzzer (and
// for CI: no special compiler). Deterministic for a given --seed.
//
//   smelt_fuzz_frontend FILE_OR_DIR...             run each .py once (the regression mode)
//   smelt_fuzz_frontend --seconds S [--runs N] [--seed K] [--crash-dir D] CORPUS...
//                                                  mutate the corpus for S seconds / N runs
//
// Mutations: byte flips, inserted Python tokens, deleted, duplicated and spliced ranges, and
// long repeats of one operator or clause (the flat chains that once overflowed the stack).
// Before each run the input is kept in memory; on SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT
// (a stack overflow included: the handler runs on its own stack) it is written to
// CRASH_DIR/crash-<run>.py and the driver exits with status 86.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

namespace fs = std::filesystem;

// The input being run and where to put it if the run crashes: plain buffers, so the signal
// handler only needs async-signal-safe calls.
std::string g_current;
char g_crash_path[4096];

void on_crash(int sig) {
    int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        size_t done = 0;
        while (done < g_current.size()) {
            ssize_t w = ::write(fd, g_current.data() + done, g_current.size() - done);
            if (w <= 0) break;
            done += static_cast<size_t>(w);
        }
        ::close(fd);
    }
    static const char msg[] = "smelt_fuzz_frontend: crash; input kept at ";
    (void)!::write(2, msg, sizeof msg - 1);
    (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
    (void)!::write(2, "\n", 1);
    (void)sig;
    ::_exit(86);
}

void install_handlers() {
    static std::vector<char> alt(1 << 16);
    stack_t ss{};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    ::sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_ONSTACK;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        ::sigaction(sig, &sa, nullptr);
}

void run(const std::string &input) {
    g_current = input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(g_current.data()), g_current.size());
}

std::vector<std::string> collect(const std::vector<std::string> &paths) {
    std::vector<fs::path> files;
    for (const auto &p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            for (const auto &e : fs::recursive_directory_iterator(p, ec))
                if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
        } else if (fs::is_regular_file(p, ec)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "smelt_fuzz_frontend: no such file or folder: %s\n", p.c_str());
            std::exit(2);
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> out;
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        out.push_back(ss.str());
    }
    return out;
}

const char *const kTokens[] = {
    " + ",
    " - ",
    " * ",
    " / ",
    " // ",
    " % ",
    " ** ",
    " < ",
    " <= ",
    " == ",
    " != ",
    " and ",
    " or ",
    "not ",
    " if ",
    " else ",
    "(",
    ")",
    "[",
    "]",
    ":",
    ",",
    "\n",
    "    ",
    "\t",
    "if ",
    "elif ",
    "else:",
    "while ",
    "for ",
    " in ",
    "range(",
    "def ",
    "return",
    "pass",
    "break",
    "x[i]",
    "i",
    "1",
    "0",
    "-1",
    "1e308",
    "1e-320",
    "0x7fffffffffffffff",
    "2.5",
    "True",
    "None",
    "'",
    "\"",
    "\\",
    "#",
    "=",
    "+=",
    "declare(",
    "'int'",
    "'matrix(3)'",
    "LOCAL_MEM",
    "atomic_add(",
    "min(",
    "max(",
    "abs(",
    "int(",
    "float(",
    "sqrt(",
    "@annotate(i='int', doublep='x')\n",
    "lambda",
    "yield",
    "\xff",
};

class Mutator {
public:
    Mutator(const std::vector<std::string> &corpus, uint64_t seed) : corpus_(corpus), rng_(seed) {}

    std::string next() {
        std::string s = corpus_[pick(corpus_.size())];
        const int n = 1 + static_cast<int>(pick(4));
        for (int k = 0; k < n; ++k)
            mutate(s);
        return s;
    }

private:
    size_t pick(size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(rng_) : 0; }

    void mutate(std::string &s) {
        const size_t at = pick(s.size() + 1);
        switch (pick(7)) {
        case 0: // flip a byte
            if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
            break;
        case 1: // insert a token
            s.insert(at, kTokens[pick(std::size(kTokens))]);
            break;
        case 2: // delete a range
            if (!s.empty()) s.erase(at, 1 + pick(16));
            break;
        case 3: { // duplicate a range
            if (s.empty()) break;
            size_t from = pick(s.size()), len = 1 + pick(std::min<size_t>(64, s.size() - from));
            s.insert(at, s.substr(from, len));
            break;
        }
        case 4: { // splice a range of another corpus file
            const std::string &o = corpus_[pick(corpus_.size())];
            if (o.empty()) break;
            size_t from = pick(o.size()), len = 1 + pick(std::min<size_t>(256, o.size() - from));
            s.insert(at, o.substr(from, len));
            break;
        }
        case 5: { // a long flat chain: "x[i] + x[i] + ..." of up to 12000 links
            const char *op = kTokens[pick(16)];
            const char *term = pick(2) ? "x[i]" : "i";
            std::string chain = term;
            for (size_t k = pick(12000); k > 0; --k)
                chain += std::string(op) + term;
            s.insert(at, chain);
            break;
        }
        default: { // a long elif ladder
            std::string ladder = "\n    if i == 0:\n        pass\n";
            for (size_t k = pick(6000); k > 0; --k)
                ladder += "    elif i == " + std::to_string(k) + ":\n        pass\n";
            s.insert(at, ladder);
            break;
        }
        }
    }

    const std::vector<std::string> &corpus_;
    std::mt19937_64 rng_;
};

} // namespace

int main(int argc, char **argv) {
    double seconds = 0;
    long long runs = -1;
    uint64_t seed = 1;
    std::string crash_dir = ".";
    std::vector<std::string> paths;
    for (int k = 1; k < argc; ++k) {
        std::string a = argv[k];
        auto value = [&]() -> std::string {
            if (k + 1 >= argc) {
                std::fprintf(stderr, "smelt_fuzz_frontend: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++k];
        };
        if (a == "--seconds")
            seconds = std::stod(value());
        else if (a == "--runs")
            runs = std::stoll(value());
        else if (a == "--seed")
            seed = std::stoull(value());
        else if (a == "--crash-dir")
            crash_dir = value();
        else
            paths.push_back(a);
    }
    std::vector<std::string> corpus = collect(paths);
    if (corpus.empty()) {
        std::fprintf(stderr, "usage: smelt_fuzz_frontend [--seconds S] [--runs N] [--seed K] "
                             "[--crash-dir D] FILE_OR_DIR...\n");
        return 2;
    }
    install_handlers();
    std::snprintf(g_crash_path, sizeof g_crash_path, "%s/crash-seed.py", crash_dir.c_str());
    for (const auto &input : corpus) // every file as it is first: the regression mode
        run(input);
    if (seconds <= 0 && runs < 0) {
        std::printf("smelt_fuzz_frontend: %zu files, no crash\n", corpus.size());
        return 0;
    }
    Mutator mutator(corpus, seed);
    const auto t0 = std::chrono::steady_clock::now();
    long long done = 0;
    for (;; ++done) {
        if (runs >= 0 && done >= runs) break;
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (seconds > 0 && elapsed >= seconds) break;
        std::snprintf(g_crash_path, sizeof g_crash_path, "%s/crash-%llu-%lld.py", crash_dir.c_str(),
                      static_cast<unsigned long long>(seed), done);
        run(mutator.next());
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("smelt_fuzz_frontend: seed %llu, %zu corpus files, %lld runs in %.0f s, "
                "crashes: 0\n",
                static_cast<unsigned long long>(seed), corpus.size(), done, elapsed);
    return 0;
}
