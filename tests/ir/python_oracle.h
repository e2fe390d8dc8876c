// Runs a snippet in CPython (test_python.h, with NumPy) and returns its stdout: the semantic
// oracle for Python's //, %, min and max on floats.
#pragma once

#include "test_python.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace smelt::test {

inline std::string run_python(const std::string &script) {
    char path[] = "/tmp/smelt_oracle_XXXXXX.py";
    int fd = mkstemps(path, 3);
    if (fd < 0) return "";
    close(fd);
    std::ofstream(path) << script;
    std::string out;
    if (FILE *p = popen((smelt::testing_util::test_python() + " " + path).c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0)
            out.append(buf, n);
        pclose(p);
    }
    std::remove(path);
    return out;
}

// True when SMELT_PYTHON can import NumPy (the oracle's float32 half needs it); tests skip
// without it rather than fail.
inline bool python_has_numpy() {
    static const bool ok =
        std::system((std::string(SMELT_PYTHON) + " -c 'import numpy' >/dev/null 2>&1").c_str()) ==
        0;
    return ok;
}

// Whitespace-separated doubles written by Python's float.hex() (or repr), in order.
inline std::vector<double> parse_doubles(const std::string &text) {
    std::vector<double> out;
    std::istringstream in(text);
    std::string tok;
    while (in >> tok)
        out.push_back(std::strtod(tok.c_str(), nullptr));
    return out;
}

// Same bits, or both NaN.
inline bool same_float(double a, double b) {
    if (a != a || b != b) return a != a && b != b;
    return a == b && std::signbit(a) == std::signbit(b);
}

} // namespace smelt::test
