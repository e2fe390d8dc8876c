// md3d throughput: atom-steps per second of md3d's time step (neighbour updates by displacement,
// forces, integration; no output) for one config on one backend, several precisions and CPU
// thread counts, and — when the config is a periodic one-type NVE lattice that LAMMPS can
// build itself (configs/md3d_lammps_inlj.yaml: LAMMPS' bench/in.lj) — Debian's LAMMPS on 1 and 2
// MPI ranks, run in the same invocation so the ratios compare like with like. Writes JSON.
//
//   build/bench/md3d_bench [--config configs/md3d_lammps_inlj.yaml] [--set key=value ...]
//                          [--backend cpu] [--precision double,single,mixed] [--threads 1,2]
//                          [--seconds 3] [--lammps lmp] [--ranks 1,2] [--out FILE]
//
// LAMMPS runs twice per rank count: as in.lj is distributed (`neigh_modify delay 0 every 20
// check no`: a list built every 20 steps, unchecked) and with md3d's rule (`every 1 delay 0 check
// yes`: rebuilt when a particle moved half the skin, so no pair is missed).
//
// --order measures what particle order costs: `lattice` (the order the lattice is built in,
// spatially coherent), `shuffled` (a random permutation: what diffusion makes of any order over
// a long run) and `cells` (sorted by the neighbour grid's cell, what reordering at list rebuilds
// would keep).
//
// Where a step's time goes: after the timed loop the bench times list builds alone and force
// evaluations alone (the list kept); the rest of a step is integration and the displacement test.
// --profile STEPS then runs that many more steps under the engine's profiling (smelt::
// set_profiling: each primitive call waited for and timed) and prints and records the table.
//
// On a shared machine wall-clock rates mislead: `per CPU s` (JSON atom_steps_per_cpu_s) divides
// by the CPU time of the timed loop instead (all threads; for LAMMPS its loop time times the
// "CPU use" it reports, times the ranks).
#include "bench_machine.h"
#include "common/kernel_file.h"
#include "lammps_run.h"
#include "md3d/config.h"
#include "md3d/simulation.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace smelt::apps;
using namespace smelt::apps::md3d;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct Result {
    std::string code;
    std::string backend;
    std::string precision;
    std::string order; // smelt: the particle order (--order)
    int64_t n = 0;
    int threads = 0; // smelt: CPU threads (0 on GPUs); lammps: MPI ranks
    int64_t steps = 0;
    double seconds = 0.0;
    int64_t builds = -1;
    double step_ms = -1;  // smelt: one step, averaged over the timed loop
    double build_ms = -1; // smelt: one neighbour-list build
    double force_ms = -1; // smelt: forces with the list kept (displacement test included)
    // CPU time of the timed loop, all threads (ranks) together; -1 unknown. On a shared machine
    // atom-steps per CPU second compare codes where wall times do not.
    double cpu_seconds = -1;
    // smelt with --profile: the engine's per-primitive profile of that many steps.
    int64_t profile_steps = 0;
    std::vector<smelt::ProfileEntry> profile;
    double rate() const { return seconds > 0 ? double(n) * double(steps) / seconds : 0.0; }
    double cpu_rate() const {
        return cpu_seconds > 0 ? double(n) * double(steps) / cpu_seconds : -1.0;
    }
};

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU time of this process (every thread), in seconds.
double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

Md3dConfig bench_config(const std::string &path, std::vector<ConfigOverride> overrides,
                        const std::string &backend, const std::string &precision, int threads) {
    auto set = [&](std::string key, std::string value) {
        overrides.push_back({key, value, "md3d_bench " + key + "=" + value});
    };
    set("backend", backend);
    set("precision", precision);
    set("threads", std::to_string(threads));
    set("output.h5md", "false");
    set("output.csv", "false");
    set("output.vtk", "false");
    set("output.progress", "false");
    set("output.checkpoint", "false");
    return parse_md3d_config(ConfigNode::load_file(path, std::move(overrides)));
}

// The initial state with its particles in `order` (see the header).
HostState ordered_state(const Md3dConfig &config, const std::string &order) {
    HostState s = make_initial_state(config);
    const size_t n = s.species.size();
    std::vector<size_t> perm(n);
    std::iota(perm.begin(), perm.end(), size_t(0));
    if (order == "shuffled") {
        std::shuffle(perm.begin(), perm.end(), std::mt19937_64(12345));
    } else if (order == "cells") {
        const CellGrid grid = cell_grid(config);
        std::vector<int64_t> key(n);
        for (size_t i = 0; i < n; ++i) {
            int64_t k = 0;
            for (int a = 2; a >= 0; --a) {
                const auto c = std::clamp<int64_t>(
                    int64_t(std::floor(s.position[size_t(a)][i] / grid.size[size_t(a)])), 0,
                    grid.cells[size_t(a)] - 1);
                k = k * grid.cells[size_t(a)] + c;
            }
            key[i] = k;
        }
        std::stable_sort(perm.begin(), perm.end(),
                         [&](size_t a, size_t b) { return key[a] < key[b]; });
    } else if (order != "lattice") {
        throw std::invalid_argument("--order: expected lattice, shuffled or cells, not '" + order +
                                    "'");
    }
    HostState out = s;
    for (size_t k = 0; k < n; ++k) {
        for (int a = 0; a < 3; ++a) {
            out.position[size_t(a)][k] = s.position[size_t(a)][perm[k]];
            out.velocity[size_t(a)][k] = s.velocity[size_t(a)][perm[k]];
            out.image[size_t(a)][k] = s.image[size_t(a)][perm[k]];
        }
        out.species[k] = s.species[perm[k]];
    }
    return out;
}

// The engine's per-primitive profile of `steps` steps (each call waited for, so slower than
// the timed loop): where a step's time goes.
void profile_steps(Simulation &sim, int64_t steps, Result &r) {
    (void)sim.observables();
    smelt::reset_profile();
    smelt::set_profiling(true);
    sim.advance(steps);
    smelt::set_profiling(false);
    r.profile_steps = steps;
    r.profile = smelt::profile_entries();
    std::printf("%s", smelt::profile_table().c_str());
    smelt::reset_profile();
}

// Waits for the work queued on the simulation's device. Not observables(): on a step nothing
// samples the force loop skips the energies, and observables() would then run it again.
void wait_for_device(const Simulation &sim) {
    sim.position(0).backend().synchronize();
}

// Steps until `seconds` have passed (at least 20), after 20 warm-up steps.
Result run_smelt(const Md3dConfig &config, const smelt::Program &physics, double seconds,
                 const std::string &order, int64_t profile) {
    Result r{"smelt md3d", config.backend, to_string(config.precision),
             order,        config.n(),     configure_threads(config)};
    Simulation sim(config, physics);
    sim.set_state(ordered_state(config, order));
    sim.compile_kernels();
    sim.advance(20);
    wait_for_device(sim);
    const int64_t builds0 = sim.neighbors().builds();
    const double cpu0 = process_cpu_seconds();
    const auto t0 = Clock::now();
    double elapsed = 0.0;
    // Ten steps between clock reads, as the run loop advances between the steps it samples.
    while (r.steps < 20 || elapsed < seconds) {
        sim.advance(10);
        r.steps += 10;
        wait_for_device(sim);
        elapsed = seconds_since(t0);
    }
    wait_for_device(sim);
    r.seconds = seconds_since(t0);
    r.cpu_seconds = process_cpu_seconds() - cpu0;
    r.builds = sim.neighbors().builds() - builds0;
    r.step_ms = 1e3 * r.seconds / double(r.steps);
    const int reps = 5;
    auto t1 = Clock::now();
    for (int k = 0; k < reps; ++k)
        sim.neighbors().build({sim.position(0), sim.position(1), sim.position(2)});
    wait_for_device(sim);
    r.build_ms = 1e3 * seconds_since(t1) / reps;
    t1 = Clock::now();
    for (int k = 0; k < reps; ++k)
        sim.compute_forces();
    wait_for_device(sim);
    r.force_ms = 1e3 * seconds_since(t1) / reps;
    if (profile > 0) profile_steps(sim, profile, r);
    return r;
}

// The config's system in LAMMPS' own words (lattice, velocities from LAMMPS' generator), or ""
// when LAMMPS cannot build it the same way.
std::string lammps_system(const Md3dConfig &c) {
    const LatticeSpec &l = c.system.lattice;
    const char *kind = l.kind == LatticeKind::FaceCentredCubic   ? "fcc"
                       : l.kind == LatticeKind::BodyCentredCubic ? "bcc"
                       : l.kind == LatticeKind::SimpleCubic      ? "sc"
                                                                 : nullptr;
    if (!kind || c.system.from_file || !c.all_periodic() || c.ntypes() != 1 ||
        c.integrator.kind != IntegratorKind::Nve || c.potential.tail || l.density <= 0 ||
        !c.system.temperature || c.system.masses[0] != 1.0)
        return "";
    const PairParameters &p = c.pair(0, 0);
    std::ostringstream s;
    s.precision(17);
    s << "units lj\natom_style atomic\nlattice " << kind << " " << l.density << "\n"
      << "region box block 0 " << c.system.plan.nx << " 0 " << c.system.plan.ny << " 0 "
      << c.system.plan.nz << "\ncreate_box 1 box\ncreate_atoms 1 box\nmass 1 1.0\n"
      << "velocity all create " << *c.system.temperature << " 87287 loop geom\n"
      << "pair_style lj/cut " << p.r_cut << "\npair_coeff 1 1 " << p.epsilon << " " << p.sigma
      << " " << p.r_cut << "\npair_modify shift " << (c.potential.shift ? "yes" : "no") << "\n"
      << "neighbor " << c.neighbor.skin << " bin\n"
      << "fix 1 all nve\ntimestep " << c.integrator.dt << "\n";
    return s.str();
}

std::string json(const std::vector<Result> &rs, const std::string &config,
                 const std::string &load_before) {
    std::ostringstream s;
    s << "{\n  \"benchmark\": \"md3d\",\n  \"config\": \"" << config << "\",\n  \"cpu\": \""
      << smelt::bench::cpu_name()
      << "\",\n  \"hardware_threads\": " << std::thread::hardware_concurrency()
      << ",\n  \"load_average_before\": \"" << load_before << "\",\n  \"load_average_after\": \""
      << smelt::bench::load_average() << "\",\n  \"omp_wait_policy\": \""
      << smelt::bench::omp_wait_policy() << "\",\n  \"results\": [\n";
    for (size_t i = 0; i < rs.size(); ++i) {
        const Result &r = rs[i];
        s << "    {\"code\": \"" << r.code << "\", \"backend\": \"" << r.backend
          << "\", \"precision\": \"" << r.precision << "\", \"order\": \"" << r.order
          << "\", \"n\": " << r.n
          << (r.code.rfind("lammps", 0) == 0 ? ", \"mpi_ranks\": " : ", \"threads\": ") << r.threads
          << ", \"steps\": " << r.steps << ", \"seconds\": " << r.seconds
          << ", \"neighbor_builds\": " << r.builds << ", \"step_ms\": " << r.step_ms
          << ", \"build_ms\": " << r.build_ms << ", \"force_ms\": " << r.force_ms
          << ", \"cpu_seconds\": " << r.cpu_seconds << ", \"atom_steps_per_s\": " << r.rate()
          << ", \"atom_steps_per_cpu_s\": " << r.cpu_rate();
        if (r.profile_steps > 0) {
            s << ", \"profile_steps\": " << r.profile_steps << ", \"profile\": [";
            for (size_t k = 0; k < r.profile.size(); ++k)
                s << (k ? ", " : "") << "{\"name\": \"" << r.profile[k].name
                  << "\", \"calls\": " << r.profile[k].calls
                  << ", \"seconds\": " << r.profile[k].seconds << "}";
            s << "]";
        }
        s << "}" << (i + 1 < rs.size() ? "," : "") << "\n";
    }
    s << "  ]\n}\n";
    return s.str();
}

} // namespace

int main(int argc, char **argv) {
    CLI::App app{"md3d throughput (atom-steps/s), against LAMMPS in the same run"};
    std::string config_path = SMELT_MD3D_CONFIG_DEFAULT;
    std::vector<std::string> sets;
    std::string backend = "cpu";
    std::vector<std::string> precisions{"double"};
    std::vector<int> threads{1, 2};
    double seconds = 3.0;
    std::string lmp = "lmp", out;
    std::vector<int> ranks{1, 2};
    std::vector<std::string> orders{"lattice"};
    std::string physics_path = SMELT_MD3D_PHYSICS_DEFAULT;
    int64_t profile = 0;
    app.add_option("--config", config_path, "md3d config (its output section is ignored)");
    app.add_option("--set", sets, "key.path=value over the config, as md3d run --set");
    app.add_option("--backend", backend, "cpu, opencl or cuda");
    app.add_option("--precision", precisions, "any of double, single, mixed")->delimiter(',');
    app.add_option("--threads", threads, "CPU thread counts (cpu backend)")->delimiter(',');
    app.add_option("--seconds", seconds, "timed seconds per case");
    app.add_option("--order", orders, "particle orders: lattice, shuffled, cells")->delimiter(',');
    app.add_option("--lammps", lmp, "LAMMPS binary ('' to skip)");
    app.add_option("--ranks", ranks, "LAMMPS MPI rank counts")->delimiter(',');
    app.add_option("--physics", physics_path, "physics.py");
    app.add_option("--out", out, "JSON file to write");
    app.add_option("--profile", profile,
                   "after each timed case, profile this many steps per primitive (engine "
                   "profiling; each call waited for)");
    CLI11_PARSE(app, argc, argv);

    try {
        std::vector<ConfigOverride> overrides;
        for (const std::string &s : sets)
            overrides.push_back(parse_set_option(s));
        if (backend != "cpu") threads = {0};
        smelt::Program physics = load_kernel_program(physics_path);
        const std::string load_before = smelt::bench::load_average();
        std::vector<Result> results;
        std::printf("%-22s %-8s %-7s %-7s %8s %8s %6s %8s %7s %9s %9s %9s %14s %14s\n", "code",
                    "order", "backend", "prec", "n", "threads", "steps", "seconds", "builds",
                    "step ms", "build ms", "force ms", "atom-steps/s", "per CPU s");
        auto show = [&](const Result &r) {
            std::printf("%-22s %-8s %-7s %-7s %8lld %8d %6lld %8.3f %7lld %9.3f %9.3f %9.3f %14.4g "
                        "%14.4g\n",
                        r.code.c_str(), r.order.c_str(), r.backend.c_str(), r.precision.c_str(),
                        (long long)r.n, r.threads, (long long)r.steps, r.seconds,
                        (long long)r.builds, r.step_ms, r.build_ms, r.force_ms, r.rate(),
                        r.cpu_rate());
            std::fflush(stdout);
            results.push_back(r);
        };
        double best = 0.0;
        Md3dConfig last;
        for (const std::string &order : orders)
            for (const std::string &precision : precisions)
                for (int t : threads) {
                    last = bench_config(config_path, overrides, backend, precision, t);
                    Result r = run_smelt(last, physics, seconds, order, profile);
                    best = std::max(best, r.rate());
                    show(r);
                }
        const std::string system = lammps_system(last);
        if (!system.empty() && smelt::bench::lammps_available(lmp)) {
            const int64_t steps = std::max<int64_t>(50, int64_t(best * seconds / double(last.n())));
            const fs::path work = fs::temp_directory_path() / "smelt_md3d_bench_lammps";
            const std::pair<const char *, const char *> rules[] = {
                {"lammps in.lj", "neigh_modify delay 0 every 20 check no\n"},
                {"lammps checked", "neigh_modify delay 0 every 1 check yes\n"}};
            for (const auto &[name, rule] : rules)
                for (int k : ranks) {
                    const std::string input = system + rule + "thermo " + std::to_string(steps) +
                                              "\nrun 20\nrun " + std::to_string(steps) + "\n";
                    const smelt::bench::LammpsTiming t =
                        smelt::bench::run_lammps(lmp, k, input, work);
                    if (!t.ok) {
                        std::fprintf(stderr, "lammps failed; see %s\n", t.log.c_str());
                        continue;
                    }
                    Result r{name, "mpi", "double", "", t.atoms, k, t.steps, t.seconds, t.builds};
                    r.step_ms = 1e3 * t.seconds / double(t.steps);
                    if (t.cpu_fraction > 0) r.cpu_seconds = t.seconds * t.cpu_fraction * k;
                    show(r);
                }
        } else if (system.empty()) {
            std::printf("(LAMMPS not run: the config is not a periodic one-type NVE lattice)\n");
        } else {
            std::printf("(LAMMPS: '%s' not found, not compared)\n", lmp.c_str());
        }
        if (!out.empty()) {
            std::ofstream(out) << json(results, config_path, load_before);
            std::printf("wrote %s\n", out.c_str());
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "md3d_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
