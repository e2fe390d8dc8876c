// What a benchmark's JSON records about the machine it ran on: the CPU model, the load average
// before and after (a 2-core VM shares its cores), and the OpenMP wait policy the run used.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>

namespace smelt::bench {

inline std::string load_average() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a + " " + b + " " + c;
}

inline std::string cpu_name() {
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

// OMP_WAIT_POLICY, and GOMP_SPINCOUNT when set (libgomp's spin before sleeping).
inline std::string omp_wait_policy() {
    const char *wait = std::getenv("OMP_WAIT_POLICY");
    const char *spin = std::getenv("GOMP_SPINCOUNT");
    std::string s = wait ? wait : "";
    if (spin) s += std::string(s.empty() ? "" : ", ") + "GOMP_SPINCOUNT=" + spin;
    return s;
}

} // namespace smelt::bench
