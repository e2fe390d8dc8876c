// Helpers for runtime tests: a temporary folder and a scoped environment variable.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace smelt::testing_util {

class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "smelt-test-XXXXXX").string();
        path_ = ::mkdtemp(tmpl.data()) ? tmpl : std::string();
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::filesystem::path &path() const { return path_; }

private:
    std::filesystem::path path_;
};

// Sets (or with nullopt unsets) an environment variable until the end of the scope.
class ScopedEnv {
public:
    ScopedEnv(std::string name, std::optional<std::string> value) : name_(std::move(name)) {
        if (const char *old = std::getenv(name_.c_str())) old_ = old;
        if (value)
            ::setenv(name_.c_str(), value->c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }
    ~ScopedEnv() {
        if (old_)
            ::setenv(name_.c_str(), old_->c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }

private:
    std::string name_;
    std::optional<std::string> old_;
};

inline std::string slurp(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline void spew(const std::filesystem::path &p, const std::string &text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// A CPU entry point (see backends/cpu/cpu_backend.h) that adds `c` to each x[i]; `tag` makes
// distinct sources (and so distinct cache keys) for tests that need fresh entries.
inline std::string add_kernel_source(const std::string &tag, bool openmp = true) {
    return "// " + tag + "\n" +
           "#include <cstdint>\n"
           "extern \"C\" void add_const(int64_t n, int32_t num_threads, void **args) {\n"
           "    double *x = *(double **)args[0];\n"
           "    const double c = *(const double *)args[1];\n" +
           (openmp ? "    #pragma omp parallel for num_threads(num_threads)\n" : "") +
           "    for (int64_t i = 0; i < n; ++i) x[i] += c;\n"
           "    (void)num_threads;\n"
           "}\n";
}

} // namespace smelt::testing_util
