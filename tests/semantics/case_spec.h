// The input description at the top of a semantics case file (the format is documented in
// tests/semantics/case_spec.py, its Python twin):
//     # smelt-test: kernel=k n=101 [rejected_on=BACKEND]...
//     # smelt-arg: NAME DTYPE GENERATOR [ARGS...] [nonzero] [size=M|Kn] [rtol=X]
// and the deterministic inputs made from it.
#pragma once

#include "ir/type.h"
#include "npy.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::testing {

struct ArgSpec {
    std::string name;
    DType dtype = DType::Float64;
    std::string gen; // ints floats grid values zeros fill iota scalar
    std::vector<std::string> params;
    bool nonzero = false;
    std::string size; // "" (n), "8", "3n"
    std::optional<double> rtol;

    bool is_scalar() const { return gen == "scalar"; }
    size_t length(size_t n) const {
        if (size.empty()) return n;
        if (size.back() == 'n')
            return (size.size() == 1 ? 1 : std::stoull(size.substr(0, size.size() - 1))) * n;
        return std::stoull(size);
    }
};

struct CaseSpec {
    std::string path;
    std::string name; // file stem
    std::string kernel;
    size_t n = 0;
    // Backends on which the language rejects the case (LANGUAGE.md: recursion on OpenCL): there
    // the engine must report a located CompileError instead of running it. `rejected_on=opencl`.
    std::vector<std::string> rejected_on;
    std::vector<ArgSpec> args;
};

inline std::filesystem::path semantics_dir() {
    return std::filesystem::path(SMELT_TEST_DATA_DIR) / "semantics";
}

// Every case file, sorted by name.
inline std::vector<std::string> case_files() {
    std::vector<std::string> out;
    for (const auto &e : std::filesystem::directory_iterator(semantics_dir() / "cases"))
        if (e.path().extension() == ".py") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

inline std::string case_name(const std::string &path) {
    return std::filesystem::path(path).stem().string();
}

inline CaseSpec parse_case_spec(const std::string &path) {
    static const std::regex line_re(R"(^\s*#\s*smelt-(test|arg):(.*)$)");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    CaseSpec spec;
    spec.path = path;
    spec.name = case_name(path);
    std::string line;
    for (int lineno = 1; std::getline(in, line); ++lineno) {
        std::smatch m;
        if (!std::regex_match(line, m, line_re)) continue;
        std::vector<std::string> words;
        std::istringstream ws(m[2].str());
        for (std::string w; ws >> w;)
            words.push_back(w);
        std::string where = path + ":" + std::to_string(lineno) + ": ";
        if (m[1] == "test") {
            for (const auto &w : words) {
                auto eq = w.find('=');
                std::string key = w.substr(0, eq),
                            value = eq == std::string::npos ? "" : w.substr(eq + 1);
                if (key == "kernel")
                    spec.kernel = value;
                else if (key == "n")
                    spec.n = std::stoull(value);
                else if (key == "rejected_on")
                    spec.rejected_on.push_back(value);
                else
                    throw std::runtime_error(where + "unknown smelt-test key '" + key + "'");
            }
            continue;
        }
        if (words.size() < 3)
            throw std::runtime_error(where + "expected 'NAME DTYPE GENERATOR ...'");
        ArgSpec a;
        a.name = words[0];
        a.dtype = dtype_from_name(words[1]);
        a.gen = words[2];
        for (size_t k = 3; k < words.size(); ++k) {
            const std::string &w = words[k];
            if (w == "nonzero")
                a.nonzero = true;
            else if (w.rfind("size=", 0) == 0)
                a.size = w.substr(5);
            else if (w.rfind("rtol=", 0) == 0)
                a.rtol = std::stod(w.substr(5));
            else
                a.params.push_back(w);
        }
        size_t want = a.gen == "ints" || a.gen == "floats"   ? 2
                      : a.gen == "grid"                      ? 3
                      : a.gen == "fill" || a.gen == "scalar" ? 1
                      : a.gen == "zeros" || a.gen == "iota"  ? 0
                                                             : 99;
        bool ok = a.gen == "values" ? !a.params.empty() : want == a.params.size();
        if (!ok)
            throw std::runtime_error(where + "bad generator '" + a.gen +
                                     "' or wrong number of values");
        spec.args.push_back(a);
    }
    if (spec.kernel.empty() || spec.n == 0)
        throw std::runtime_error(path + ": no '# smelt-test: kernel=NAME n=N' line");
    return spec;
}

// splitmix64: small, fast, and the same on every platform.
struct SplitMix64 {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int64_t integer(int64_t lo, int64_t hi) { // inclusive
        return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
    }
    double uniform(double lo, double hi) {
        return lo + (hi - lo) * (static_cast<double>(next() >> 11) * 0x1p-53);
    }
};

inline uint64_t seed_for(const std::string &case_name, size_t arg_index) {
    uint64_t h = 1469598103934665603ull; // FNV-1a
    for (char c : case_name)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h ^ (arg_index * 0x9E3779B97F4A7C15ull);
}

// The input for argument `k` of `spec`: deterministic for a given case name and argument index.
inline HostArray generate_input(const CaseSpec &spec, size_t k) {
    const ArgSpec &a = spec.args[k];
    SplitMix64 rng{seed_for(spec.name, k)};
    auto number = [&](const std::string &s) { return s == "n" ? double(spec.n) : std::stod(s); };
    size_t m = a.is_scalar() ? 1 : a.length(spec.n);
    // Integers are drawn as int64 so 64-bit ranges stay exact; everything else as double.
    std::vector<double> d(m);
    std::vector<int64_t> ints;
    if (a.gen == "ints") {
        ints.resize(m);
        for (auto &v : ints) {
            v = rng.integer(std::stoll(a.params[0]), std::stoll(a.params[1]));
            if (a.nonzero && v == 0) v = 1;
        }
    } else {
        for (size_t j = 0; j < m; ++j) {
            if (a.gen == "floats")
                d[j] = rng.uniform(number(a.params[0]), number(a.params[1]));
            else if (a.gen == "grid") {
                double step = number(a.params[2]);
                d[j] = step * double(rng.integer(int64_t(std::ceil(number(a.params[0]) / step)),
                                                 int64_t(std::floor(number(a.params[1]) / step))));
            } else if (a.gen == "values")
                d[j] = number(a.params[j % a.params.size()]);
            else if (a.gen == "fill" || a.gen == "scalar")
                d[j] = number(a.params[0]);
            else if (a.gen == "iota")
                d[j] = double(j);
            else
                d[j] = 0; // zeros
            if (a.nonzero && d[j] == 0) d[j] = 1;
        }
    }
    HostArray out;
    visit_dtype(a.dtype, [&]<class T>() {
        std::vector<T> v(m);
        for (size_t j = 0; j < m; ++j)
            v[j] = ints.empty() ? static_cast<T>(d[j]) : static_cast<T>(ints[j]);
        out = HostArray::of(v, a.is_scalar());
    });
    return out;
}

// The kernel-language types the arguments have when the runner passes them (what Elementwise
// specialises an unannotated kernel on): arrays are pointers, 0-d inputs scalars.
inline std::map<std::string, Type> argument_types(const CaseSpec &spec) {
    std::map<std::string, Type> out;
    for (const auto &a : spec.args) {
        Scalar s = dtype_to_scalar(a.dtype);
        out[a.name] = a.is_scalar() ? Type::scalar(s) : Type::pointer(s);
    }
    return out;
}

} // namespace smelt::testing
