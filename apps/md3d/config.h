// md3d's configuration: the typed form of a YAML file (schema, units and equations in
// apps/md3d/README.md). The shared run keys (backend, precision, threads, output) are the kit's
// RunConfig (apps/common/run_config.h); md3d adds system, potential, integrator and neighbor, and
// output.force. parse_md3d_config() checks every key (type, range, unknown keys, combinations)
// and resolves the initial geometry (a lattice's plan, or the particle count and box of a
// from_file frame), so a config that parses can be run; errors are ConfigError naming the file,
// line, column and key path.
#pragma once

#include "common/config_yaml.h"
#include "common/domain/device_link.h"
#include "common/lattice.h"
#include "common/run_config.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smelt::apps::md3d {

enum class Boundary { Periodic, Walls };
enum class IntegratorKind { Nve, Langevin, Bussi };
enum class NeighborMode { AllPairs, Binned };
enum class Rebuild { EveryStep, Displacement };

// system.from_file: start from a frame of an md3d H5MD file.
struct FromFileConfig {
    std::string path;
    int64_t frame = -1;      // as given (negative: from the end)
    int64_t frame_index = 0; // resolved, counted from 0
    int64_t frames = 0;      // frames in the file
    int64_t step = 0;        // the frame's step and time
    double time = 0.0;
    bool continue_run = false; // continue step, time and thermostat heat
};

// All quantities in reduced Lennard-Jones units (length sigma_0, energy epsilon_0, mass m_0,
// time tau = sigma_0 sqrt(m_0 / epsilon_0), k_B = 1).
struct SystemConfig {
    LatticeSpec lattice; // kind, n or cells, density or lattice constant, min_spacing, box, seed
    LatticePlan plan;    // the resolved lattice geometry (not used with from_file)
    std::optional<FromFileConfig> from_file;
    std::array<Boundary, 3> boundary{Boundary::Periodic, Boundary::Periodic, Boundary::Periodic};
    std::array<double, 3> box{};  // resolved edges [sigma]
    int64_t n = 0;                // resolved particle count
    double wall_stiffness = 50.0; // k of the harmonic soft walls [epsilon / sigma^2]
    double wall_range = 0.5;      // distance from a wall at which its force starts [sigma]
    std::vector<std::string> types{"A"};
    std::vector<int64_t> counts;       // resolved particles per type (from_file: of the file)
    std::vector<double> masses;        // per type [m]
    std::optional<double> temperature; // initial temperature; empty: velocities of the file
    uint64_t seed = 1;                 // lattice, type shuffle and velocities
};

// Per-pair parameters, one entry per ordered type pair a * ntypes + b (symmetric).
struct PairParameters {
    double epsilon = 1.0;
    double sigma = 1.0;
    double r_cut = 2.5;
};

struct PotentialConfig {
    std::vector<PairParameters> pairs; // ntypes * ntypes
    bool shift = false;                // subtract u_ab(r_cut,ab)
    bool tail = false;                 // add the analytic tail corrections
    double max_r_cut() const;
};

struct IntegratorConfig {
    IntegratorKind kind = IntegratorKind::Nve;
    double dt = 0.005;  // time step [tau]
    int64_t steps = 0;  // the step index the run ends at
    double kT = 0.0;    // bath temperature (langevin, bussi)
    double gamma = 1.0; // langevin friction rate [1/tau]
    double tau = 0.5;   // bussi time constant [tau]
    uint64_t seed = 1;  // key of the thermostat's counter-based RNG
};

struct NeighborConfig {
    NeighborMode mode = NeighborMode::Binned;
    double skin = 0.3; // list radius max(r_cut) + skin [sigma]
    Rebuild rebuild = Rebuild::Displacement;
    // Every this many steps (at steps that are multiples of it) the particles are reordered by
    // neighbour cell, so that neighbours sit close in memory; 0: never. Binned only.
    int64_t sort_interval = 100;
    // Each particle's list in increasing index order (NeighborListSpec::sorted); unset: on the
    // cpu backend with full lists only. GPUs spend about half of a list build sorting; a half
    // list (`half`: Newton's third law) splits the pairs by cell offset, so its sums depend on
    // the cell grid whatever the row order, and sorting its rows cost 5 % of an in.lj run's
    // instructions for nothing.
    std::optional<bool> sorted_lists;
    bool lists_sorted(bool on_cpu, bool half) const {
        return sorted_lists.value_or(on_cpu && !half);
    }
    // Newton's third law on half lists (NeighborListSpec::half, NewtonBuffers): each pair once,
    // its force added to both particles. Unset (auto): on the cpu backend with binned lists.
    // Never on several MPI ranks (ghost forces would need a reverse communication).
    std::optional<bool> newton;
    bool newton_on(bool on_cpu) const {
        return mode == NeighborMode::Binned && newton.value_or(on_cpu);
    }
    // GPU threads per particle in the list build and the force loop (NeighborListSpec::lanes,
    // compute_forces), a power of two; unset (auto): on GPU backends with binned, unsorted
    // lists, the fewest that make lanes * N at least 10^5 threads, at most 8 (measured on an
    // H100: 2 lanes are best at N = 64 000, 1 at 10^6); otherwise 1 (the cpu backend's chunked
    // loops have no lanes).
    std::optional<int> lanes;
    int lanes_for(bool on_cpu, int64_t n) const {
        if (lanes) return *lanes;
        if (on_cpu || mode != NeighborMode::Binned || lists_sorted(on_cpu, false)) return 1;
        int l = 1;
        while (l < 8 && int64_t(l) * n < 100000)
            l *= 2;
        return l;
    }
    // The displacement test read back while the force loop of the current list runs
    // (Simulation::update_and_evaluate): on GPU-family backends, one rank, displacement rule.
    // false: the test is waited for before the force loop (the same results, one read-back
    // stall per step; for comparisons).
    bool overlap_test = true;
    // Cells of the binned search per r_list along each axis (NeighborListSpec::cell_size): 1,
    // cells at least r_list wide, 3 x 3 x 3 searched; 2, cells at least r_list / 2 wide,
    // 5 x 5 x 5 searched by the *_small_cells kernels, about 40 % fewer candidates tested. Unset
    // (auto): 1 (on the cpu backend the half-list build took 1.5 to 2 times as long on cells of
    // r_list / 2, its per-row work outweighing the fewer candidates; on GPUs not measured yet).
    std::optional<int> cells_per_r_list;
    int cells_per_r_list_for(bool /*on_cpu*/) const { return cells_per_r_list.value_or(1); }
};

// MPI domain decomposition (apps/common/domain/): ranks per axis; 0 lets MPI_Dims_create
// choose. Only read when the run has more than one MPI rank.
struct DomainConfig {
    std::array<int, 3> grid{0, 0, 0};
    // On GPU backends (opencl, cuda): between list rebuilds, the forces of the particles whose
    // list holds no ghost run while the halo refresh is in flight (md3d/domain.h). Off: the
    // refresh completes before the forces. The forces have the same bits either way. Not used
    // with the NCCL transport, whose refresh waits for nothing on the host.
    bool overlap = true;
    // How the halo refresh travels between ranks (common/domain/device_link.h): auto, host
    // (staged through host memory) or nccl (device to device on cuda).
    domain::Transport transport = domain::Transport::Auto;
};

// RunConfig: backend, precision, threads, output, source (the file and its text).
struct Md3dConfig : RunConfig {
    SystemConfig system;
    PotentialConfig potential;
    IntegratorConfig integrator;
    NeighborConfig neighbor;
    DomainConfig domain;
    bool output_force = false; // output.force: frames also hold the forces

    int64_t n() const { return system.n; }
    int ntypes() const { return int(system.types.size()); }
    bool axis_periodic(int axis) const {
        return system.boundary[size_t(axis)] == Boundary::Periodic;
    }
    // The kernels' `periodic` argument: bit a set when axis a is periodic (7: periodic box).
    int32_t periodic_mask() const;
    bool all_periodic() const { return periodic_mask() == 7; }
    double volume() const { return system.box[0] * system.box[1] * system.box[2]; }
    double r_list() const { return potential.max_r_cut() + neighbor.skin; }
    const PairParameters &pair(int a, int b) const {
        return potential.pairs[size_t(a * ntypes() + b)];
    }
};

Md3dConfig parse_md3d_config(const ConfigNode &root);
Md3dConfig load_md3d_config(const std::string &path);
Md3dConfig load_md3d_config_string(std::string text, std::string file_name);

// The resolved configuration, one aspect per line (what `md3d check` prints).
std::string describe(const Md3dConfig &config);

// The binned-search grid of a config: cells per axis (each at least r_list / per_r_list wide)
// and their edges.
struct CellGrid {
    std::array<int, 3> cells{1, 1, 1};
    std::array<double, 3> size{};
    int per_r_list = 1; // neighbor.cells_per_r_list, resolved
};
CellGrid cell_grid(const Md3dConfig &config);

// The domain grid of a run on `ranks` MPI ranks (domain.grid, zeros chosen by MPI_Dims_create).
std::array<int, 3> domain_dims(const Md3dConfig &config, int ranks);

const char *to_string(Boundary b);
const char *to_string(IntegratorKind k);
const char *to_string(NeighborMode m);
const char *to_string(Rebuild r);

} // namespace smelt::apps::md3d
