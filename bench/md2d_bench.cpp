// md2d throughput: particle-steps per second of the velocity-Verlet loop (forces, neighbour
// updates by displacement, integration; no output) on the CPU backend, for several N and thread
// counts, and the same 2D LJ system in LAMMPS (`lmp`, MPI ranks) when it is installed, run in
// the same invocation so the ratio compares like with like. Writes JSON.
//
//   build/bench/md2d_bench [--n 10000,100000] [--threads 1,2] [--seconds 3]
//                          [--newton auto,false] [--cells-per-r-list auto,1,2] [--repeat 1]
//                          [--lammps lmp] [--ranks 1,2] [--out bench/results/md2d.json]
//
// Steps run through Simulation::advance, ten between clock reads, as the run loop runs them.
// --newton runs each case with these neighbor.newton values (auto: half lists on the cpu
// backend), --cells-per-r-list with these neighbor.cells_per_r_list values (auto: cells of
// r_list / 2 for the cpu's half lists), and --repeat runs the whole set of smelt cases that many
// times, interleaved (A/B/A/B), so that a shared machine's changing load falls on every variant
// alike.
//
// System: square lattice at density 0.7, T0 = 1.0, LJ cut at 2.5 and shifted, skin 0.3, dt 0.005,
// periodic (configs/md2d_lj.yaml scaled up). Timing starts after 20 warm-up steps (kernel
// compilation and the first list builds excluded).
#include "bench_machine.h"
#include "common/kernel_file.h"
#include "lammps_run.h"
#include "md2d/config.h"
#include "md2d/simulation.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace smelt::apps;
using namespace smelt::apps::md2d;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct Result {
    std::string code;
    std::string newton; // smelt: the neighbor.newton value
    std::string cells;  // smelt: the neighbor.cells_per_r_list value
    int64_t n = 0;
    int threads = 0; // smelt: CPU threads; lammps: MPI ranks
    int64_t steps = 0;
    double seconds = 0.0;
    int64_t builds = -1;
    double build_ms = -1; // smelt: one neighbour-list build
    double force_ms = -1; // smelt: forces with the list kept (displacement check included)
    // CPU time of the timed steps over every thread (LAMMPS: its "CPU use" times the ranks):
    // on a shared machine the rate per CPU second varies much less than the wall-clock rate.
    double cpu_seconds = -1;
    double rate() const { return double(n) * double(steps) / seconds; }
    double cpu_rate() const {
        return cpu_seconds > 0 ? double(n) * double(steps) / cpu_seconds : 0.0;
    }
};

// CPU time of this process (every thread), in seconds.
double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

int64_t side_of(int64_t n) {
    return std::llround(std::sqrt(double(n)));
}

std::string config_text(int64_t side, int threads, const std::string &newton,
                        const std::string &cells) {
    std::ostringstream s;
    s << "threads: " << threads << "\nsystem: {lattice: square, cells: [" << side << ", " << side
      << "], density: 0.7, temperature: 1.0, seed: 2024}\n"
      << "potential: {r_cut: 2.5, shift: true}\n"
      << "integrator: {dt: 0.005, steps: 1000000}\n"
      << "neighbor: {mode: binned, skin: 0.3, rebuild: displacement, newton: " << newton
      << ", cells_per_r_list: " << cells << "}\n"
      << "output: {h5md: false, csv: false, progress: false}\n";
    return s.str();
}

// Steps until `seconds` have passed (at least 20), after 20 warm-up steps.
Result run_smelt(const smelt::Program &physics, int64_t side, int threads, double seconds,
                 const std::string &newton, const std::string &cells) {
    Md2dConfig c = load_md2d_config_string(config_text(side, threads, newton, cells), "bench.yaml");
    Result r{"smelt md2d", newton, cells, c.n(), configure_threads(c)};
    Simulation sim(c, physics);
    sim.set_initial_state();
    sim.compile_kernels();
    sim.advance(20);
    const int64_t builds0 = sim.neighbors().builds();
    const double cpu0 = process_cpu_seconds();
    const auto t0 = Clock::now();
    double elapsed = 0.0;
    // Ten steps between clock reads, as the run loop advances between the steps it samples.
    while (r.steps < 20 || elapsed < seconds) {
        sim.advance(10);
        r.steps += 10;
        elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    (void)sim.observables(); // waits for queued work on GPU backends
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.cpu_seconds = process_cpu_seconds() - cpu0;
    r.builds = sim.neighbors().builds() - builds0;
    // Where a step's time goes: list builds and force evaluations alone.
    const int reps = 5;
    auto t1 = Clock::now();
    for (int k = 0; k < reps; ++k)
        sim.neighbors().build({sim.x(), sim.y()});
    auto t2 = Clock::now();
    for (int k = 0; k < reps; ++k)
        sim.compute_forces();
    auto t3 = Clock::now();
    r.build_ms = 1e3 * std::chrono::duration<double>(t2 - t1).count() / reps;
    r.force_ms = 1e3 * std::chrono::duration<double>(t3 - t2).count() / reps;
    return r;
}

std::string lammps_input(int64_t side, int64_t warmup, int64_t steps) {
    std::ostringstream s;
    s << "dimension 2\nunits lj\natom_style atomic\nboundary p p p\n"
      << "lattice sq 0.7\nregion box block 0 " << side << " 0 " << side << " -0.5 0.5\n"
      << "create_box 1 box\ncreate_atoms 1 box\nmass 1 1.0\n"
      << "velocity all create 1.0 2024 mom yes dist gaussian\n"
      << "pair_style lj/cut 2.5\npair_modify shift yes\npair_coeff 1 1 1.0 1.0 2.5\n"
      << "neighbor 0.3 bin\nneigh_modify every 1 delay 0 check yes\n"
      << "fix 1 all nve\nfix 2 all enforce2d\ntimestep 0.005\nthermo " << steps << "\n"
      << "run " << warmup << "\nrun " << steps << "\n";
    return s.str();
}

// LAMMPS on `ranks` MPI ranks; steps chosen from smelt's rate so both run about as long.
Result run_lammps(const std::string &lmp, int ranks, int64_t side, int64_t steps,
                  const fs::path &work) {
    const smelt::bench::LammpsTiming t =
        smelt::bench::run_lammps(lmp, ranks, lammps_input(side, 20, steps), work);
    Result r{"lammps", "", "", side * side, ranks, steps};
    if (!t.ok) {
        std::fprintf(stderr, "lammps failed; see %s\n", t.log.c_str());
        r.seconds = -1;
        return r;
    }
    r.seconds = t.seconds;
    r.steps = t.steps;
    r.n = t.atoms;
    r.builds = t.builds;
    if (t.cpu_fraction > 0) r.cpu_seconds = t.seconds * t.cpu_fraction * ranks;
    return r;
}

std::string json(const std::vector<Result> &rs, const std::string &cpu,
                 const std::string &load_before) {
    std::ostringstream s;
    s << "{\n  \"benchmark\": \"md2d\",\n  \"system\": \"2D LJ, square lattice, density 0.7, T0 "
         "1.0, r_cut 2.5 shifted, skin 0.3, dt 0.005, periodic, binned, rebuild on "
         "displacement\",\n  \"cpu\": \""
      << cpu << "\",\n  \"hardware_threads\": " << std::thread::hardware_concurrency()
      << ",\n  \"load_average_before\": \"" << load_before << "\",\n  \"load_average_after\": \""
      << smelt::bench::load_average() << "\",\n  \"omp_wait_policy\": \""
      << smelt::bench::omp_wait_policy() << "\",\n  \"results\": [\n";
    for (size_t i = 0; i < rs.size(); ++i) {
        const Result &r = rs[i];
        s << "    {\"code\": \"" << r.code << "\", \"n\": " << r.n;
        if (r.code != "lammps")
            s << ", \"newton\": \"" << r.newton << "\", \"cells_per_r_list\": \"" << r.cells
              << "\"";
        s << (r.code == "lammps" ? ", \"mpi_ranks\": " : ", \"threads\": ") << r.threads
          << ", \"steps\": " << r.steps << ", \"seconds\": " << r.seconds
          << ", \"neighbor_builds\": " << r.builds
          << ", \"particle_steps_per_s\": " << (r.seconds > 0 ? r.rate() : 0.0)
          << ", \"cpu_seconds\": " << r.cpu_seconds
          << ", \"particle_steps_per_cpu_s\": " << r.cpu_rate() << "}"
          << (i + 1 < rs.size() ? "," : "") << "\n";
    }
    s << "  ]\n}\n";
    return s.str();
}

} // namespace

int main(int argc, char **argv) {
    CLI::App app{"md2d throughput (particle-steps/s) against LAMMPS"};
    std::vector<int64_t> ns{10000, 100000};
    std::vector<int> threads{1, 2};
    double seconds = 3.0;
    std::string lmp = "lmp", out;
    std::vector<int> ranks{2};
    std::vector<std::string> newton{"auto"};
    std::vector<std::string> cells{"auto"};
    int repeat = 1;
    std::string physics_path = SMELT_MD2D_PHYSICS_DEFAULT;
    app.add_option("--n", ns, "particle counts (rounded to square lattices)")->delimiter(',');
    app.add_option("--threads", threads, "CPU thread counts")->delimiter(',');
    app.add_option("--seconds", seconds, "timed seconds per case (smelt)");
    app.add_option("--newton", newton, "neighbor.newton values (auto, true, false)")
        ->delimiter(',');
    app.add_option("--cells-per-r-list", cells, "neighbor.cells_per_r_list values (auto, 1, 2)")
        ->delimiter(',');
    app.add_option("--repeat", repeat, "runs of every smelt case, interleaved")
        ->check(CLI::PositiveNumber);
    app.add_option("--lammps", lmp, "LAMMPS binary ('' to skip)");
    app.add_option("--ranks", ranks, "LAMMPS MPI rank counts")->delimiter(',');
    app.add_option("--physics", physics_path, "physics.py");
    app.add_option("--out", out, "JSON file to write");
    CLI11_PARSE(app, argc, argv);

    const bool have_lammps = smelt::bench::lammps_available(lmp);
    smelt::Program physics = smelt::apps::load_kernel_program(physics_path);
    const std::string load_before = smelt::bench::load_average();
    std::vector<Result> results;
    std::printf("%-12s %6s %5s %9s %8s %7s %9s %7s %9s %9s %16s %14s %6s\n", "code", "newton",
                "cells", "n", "threads", "steps", "seconds", "builds", "build ms", "force ms",
                "particle-steps/s", "per CPU s", "load");
    auto show = [&](const Result &r) {
        std::printf("%-12s %6s %5s %9lld %8d %7lld %9.3f %7lld %9.3f %9.3f %16.4g %14.4g %6s\n",
                    r.code.c_str(), r.newton.c_str(), r.cells.c_str(), (long long)r.n, r.threads,
                    (long long)r.steps, r.seconds, (long long)r.builds, r.build_ms, r.force_ms,
                    r.seconds > 0 ? r.rate() : 0.0, r.cpu_rate(),
                    smelt::bench::load_average().substr(0, 5).c_str());
        std::fflush(stdout);
        results.push_back(r);
    };
    for (int64_t n : ns) {
        const int64_t side = side_of(n);
        double best = 0.0;
        for (int k = 0; k < repeat; ++k)
            for (int t : threads)
                for (const std::string &nv : newton)
                    for (const std::string &cv : cells) {
                        Result r = run_smelt(physics, side, t, seconds, nv, cv);
                        best = std::max(best, r.rate());
                        show(r);
                    }
        if (have_lammps) {
            const auto steps = std::max<int64_t>(50, int64_t(best * seconds / double(side * side)));
            for (int k : ranks)
                show(run_lammps(lmp, k, side, steps,
                                fs::temp_directory_path() / "smelt_md2d_bench_lammps"));
        }
    }
    if (!have_lammps) std::printf("(LAMMPS: '%s' not found, not compared)\n", lmp.c_str());
    if (!out.empty()) {
        std::ofstream(out) << json(results, smelt::bench::cpu_name(), load_before);
        std::printf("wrote %s\n", out.c_str());
    }
    return 0;
}
