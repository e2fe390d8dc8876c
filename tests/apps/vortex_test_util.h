// Shared pieces of the vortex tests: physics.py as a Program, configs from text, temporary
// folders, the CPython reference values (tests/apps/vortex_reference.py), OpenCL availability.
#pragma once

#include "backends/cpu/cpu_backend.h"
#include "backends/registry.h"
#include "common/kernel_file.h"
#include "smelt.h"
#include "test_process.h"
#include "test_python.h"
#include "vortex/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace smelt::apps::vortex_test {

inline const smelt::Program &vortex_physics() {
    static const smelt::Program p = smelt::apps::load_kernel_program(SMELT_VORTEX_PHYSICS_PATH);
    return p;
}

inline vortex::VortexConfig vortex_config(const std::string &yaml,
                                          const std::string &file = "test.yaml") {
    return vortex::load_vortex_config_string(yaml, file);
}

// A fresh, empty folder under the system's temp directory (removed by the caller).
inline std::filesystem::path vortex_temp_dir(const std::string &name) {
    auto dir = std::filesystem::temp_directory_path() /
               ("smelt_vortex_" + std::to_string(getpid()) + "_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

inline std::string read_text(const std::filesystem::path &p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The CPU backend on one thread while in scope: tests that launch hundreds of kernels on a few
// dozen vortices would spend their time waking OpenMP teams, and the reductions' rounding depends
// on the thread count (the positions do not: one writer per vortex).
class OneCpuThread {
public:
    OneCpuThread() : cpu_(dynamic_cast<smelt::cpu::CpuBackend &>(smelt::get_backend("cpu"))) {
        saved_ = cpu_.num_threads();
        cpu_.set_num_threads(1);
    }
    ~OneCpuThread() { cpu_.set_num_threads(saved_); }
    OneCpuThread(const OneCpuThread &) = delete;
    OneCpuThread &operator=(const OneCpuThread &) = delete;

private:
    smelt::cpu::CpuBackend &cpu_;
    int saved_ = 1;
};

// "" when an OpenCL device can be opened, else why not (for GTEST_SKIP).
inline std::string opencl_unavailable() {
    try {
        (void)smelt::get_backend("opencl");
        return "";
    } catch (const std::exception &e) {
        return e.what();
    }
}

#define VORTEX_OPENCL_OR_SKIP()                                                                    \
    do {                                                                                           \
        const std::string why = ::smelt::apps::vortex_test::opencl_unavailable();                  \
        if (!why.empty()) GTEST_SKIP() << "no OpenCL device: " << why;                             \
    } while (0)

// One CPython reference job: a config (YAML) run for `steps` steps.
struct ReferenceJob {
    std::string name, config;
    int steps = 0;
};

inline std::string json_string(const std::string &s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            o += std::string("\\") + c;
        else if (c == '\n')
            o += "\\n";
        else
            o += c;
    }
    return o + "\"";
}

// The reference values of the jobs, by line name (vortex_reference.py's output), the values read
// back exactly from float.hex(). An empty map (and `error` set) when CPython could not run.
inline std::map<std::string, std::vector<double>>
cpython_reference(const std::vector<ReferenceJob> &jobs, const std::filesystem::path &dir,
                  std::string &error) {
    const auto jobs_path = dir / "jobs.json";
    {
        std::ofstream out(jobs_path);
        out << "[";
        for (size_t k = 0; k < jobs.size(); ++k)
            out << (k ? ",\n" : "\n") << "{\"name\": " << json_string(jobs[k].name)
                << ", \"config\": " << json_string(jobs[k].config)
                << ", \"steps\": " << jobs[k].steps << "}";
        out << "]\n";
    }
    const std::string script = std::string(SMELT_TEST_DATA_DIR) + "/apps/vortex_reference.py";
    auto r =
        test_util::run_process(testing_util::test_python() + " " + test_util::shell_quote(script) +
                               " " + test_util::shell_quote(jobs_path.string()));
    std::map<std::string, std::vector<double>> out;
    if (r.status != 0) {
        error = r.output;
        return out;
    }
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string name, word;
        words >> name;
        std::vector<double> values;
        while (words >> word)
            values.push_back(std::strtod(word.c_str(), nullptr)); // hex floats read exactly
        out[name] = values;
    }
    return out;
}

} // namespace smelt::apps::vortex_test
