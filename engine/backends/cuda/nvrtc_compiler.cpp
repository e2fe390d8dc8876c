#include "backends/cuda/nvrtc_compiler.h"

#include "support/error.h"

#include <nvrtc.h>

#include <chrono>
#include <regex>
#include <sstream>

namespace smelt::cuda {

namespace {

void check_nvrtc(nvrtcResult r, const char *what) {
    SMELT_INTERNAL_ASSERT(r == NVRTC_SUCCESS, what << ": " << nvrtcGetErrorString(r));
}

// Releases the program on every path out of nvrtc_compile.
struct Program {
    nvrtcProgram p = nullptr;
    ~Program() {
        if (p) nvrtcDestroyProgram(&p);
    }
};

} // namespace

std::string nvrtc_version() {
    int major = 0, minor = 0;
    check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
    return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvrtc_options(const std::string &arch,
                                       const std::vector<std::string> &extra, bool fast_math) {
    // NVRTC contracts a*b + c into an FMA by default; --fmad=false keeps CPython's one rounding
    // per operation unless fast math is asked for.
    std::vector<std::string> out = {"--gpu-architecture=" + arch, "-std=c++17",
                                    fast_math ? "--use_fast_math" : "--fmad=false"};
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
}

std::string map_log(const std::string &log) {
    // NVRTC (EDG) writes "name(LINE): error: ..." and "name(LINE): warning: ...".
    static const std::regex located(R"(^(.+)\((\d+)\): (error|warning|remark)(.*)$)");
    std::istringstream in(log);
    std::string line, out;
    while (std::getline(in, line)) {
        out += std::regex_replace(line, located, "$1:$2: $3$4");
        out += "\n";
    }
    return out;
}

NvrtcOutput nvrtc_compile(const std::string &source, const std::string &name,
                          const std::vector<std::string> &options) {
    NvrtcOutput out;
    out.command = "nvrtc";
    bool ptx = false;
    for (const auto &o : options) {
        out.command += " " + o;
        if (o.rfind("--gpu-architecture=compute_", 0) == 0) ptx = true;
    }
    out.command += " " + name;

    const auto t0 = std::chrono::steady_clock::now();
    Program prog;
    check_nvrtc(nvrtcCreateProgram(&prog.p, source.c_str(), name.c_str(), 0, nullptr, nullptr),
                "nvrtcCreateProgram");
    std::vector<const char *> argv;
    for (const auto &o : options)
        argv.push_back(o.c_str());
    nvrtcResult r = nvrtcCompileProgram(prog.p, static_cast<int>(argv.size()), argv.data());

    size_t log_size = 0;
    check_nvrtc(nvrtcGetProgramLogSize(prog.p, &log_size), "nvrtcGetProgramLogSize");
    std::string log(log_size, '\0');
    if (log_size) check_nvrtc(nvrtcGetProgramLog(prog.p, log.data()), "nvrtcGetProgramLog");
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    out.log = log.empty() ? "" : map_log(log);

    if (r == NVRTC_SUCCESS) {
        size_t size = 0;
        if (ptx) {
            check_nvrtc(nvrtcGetPTXSize(prog.p, &size), "nvrtcGetPTXSize");
            out.binary.resize(size);
            check_nvrtc(nvrtcGetPTX(prog.p, out.binary.data()), "nvrtcGetPTX");
            while (!out.binary.empty() && out.binary.back() == '\0')
                out.binary.pop_back();
        } else {
            check_nvrtc(nvrtcGetCUBINSize(prog.p, &size), "nvrtcGetCUBINSize");
            out.binary.resize(size);
            check_nvrtc(nvrtcGetCUBIN(prog.p, out.binary.data()), "nvrtcGetCUBIN");
        }
        out.ok = !out.binary.empty();
        if (!out.ok) out.log += "NVRTC produced an empty binary\n";
    } else if (r != NVRTC_ERROR_COMPILATION) {
        out.log += std::string("nvrtcCompileProgram: ") + nvrtcGetErrorString(r) + "\n";
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

} // namespace smelt::cuda
