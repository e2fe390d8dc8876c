// Runs Debian's LAMMPS (`lmp`) on an input script under `mpirun -np RANKS` and reads its timing
// from the log: the last "Loop time of T on P procs for S steps with N atoms" line (so an input
// that runs a short warm-up first and then the timed run reports the timed one) and the last
// "Neighbor list builds = B".
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace smelt::bench {

struct LammpsTiming {
    bool ok = false;
    double seconds = 0.0;
    int64_t steps = 0;
    int64_t atoms = 0;
    int64_t builds = -1;
    // "NN% CPU use" of the last loop: CPU time per rank over the loop time (below 1 when the
    // machine is shared); -1 when the log has none.
    double cpu_fraction = -1.0;
    std::string log; // the log file, for the message when the run failed
    double atom_steps_per_s() const { return ok ? double(atoms) * double(steps) / seconds : 0.0; }
};

// True when `lmp` can be started (`command -v`).
bool lammps_available(const std::string &lmp);

// Writes `input` to WORK/in.bench and runs it there; ok false when LAMMPS failed or printed no
// loop time.
LammpsTiming run_lammps(const std::string &lmp, int ranks, const std::string &input,
                        const std::filesystem::path &work);

} // namespace smelt::bench
