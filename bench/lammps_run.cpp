#include "lammps_run.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>

namespace smelt::bench {

bool lammps_available(const std::string &lmp) {
    return !lmp.empty() && std::system(("command -v " + lmp + " > /dev/null 2>&1").c_str()) == 0;
}

LammpsTiming run_lammps(const std::string &lmp, int ranks, const std::string &input,
                        const std::filesystem::path &work) {
    std::filesystem::create_directories(work);
    LammpsTiming t;
    t.log = (work / "lammps.out").string();
    std::ofstream(work / "in.bench") << input;
    // --oversubscribe: a 2-core VM may report fewer slots than the ranks asked for.
    const std::string cmd =
        "cd '" + work.string() + "' && mpirun --allow-run-as-root --oversubscribe -np " +
        std::to_string(ranks) + " " + lmp + " -in in.bench -log none > '" + t.log + "' 2>&1";
    if (std::system(cmd.c_str()) != 0) return t;
    std::ifstream f(t.log);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::regex loop(
        R"(Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), loop);
         it != std::sregex_iterator(); ++it) {
        t.seconds = std::stod((*it)[1]);
        t.steps = std::stoll((*it)[3]);
        t.atoms = std::stoll((*it)[4]);
        t.ok = t.seconds > 0;
    }
    const std::regex cpu(R"(([0-9.]+)% CPU use with)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), cpu);
         it != std::sregex_iterator(); ++it)
        t.cpu_fraction = std::stod((*it)[1]) / 100.0;
    const std::regex builds(R"(Neighbor list builds = (\d+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), builds);
         it != std::sregex_iterator(); ++it)
        t.builds = std::stoll((*it)[1]);
    return t;
}

} // namespace smelt::bench
