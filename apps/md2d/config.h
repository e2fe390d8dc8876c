// md2d's configuration: the typed form of a YAML file (schema and units in apps/md2d/README.md).
// The shared run keys (backend, precision, threads, output) are the kit's RunConfig
// (apps/common/run_config.h); md2d adds system, potential, integrator and neighbor.
// parse_md2d_config() checks every key (type, range, unknown keys, combinations) and resolves the
// initial geometry, so a config that parses can be run; errors are ConfigError naming the file,
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

namespace smelt::apps::md2d {

enum class Boundary { Periodic, Walls };
enum class NeighborMode { AllPairs, Binned };
enum class Rebuild { EveryStep, Displacement };

// All quantities in reduced Lennard-Jones units (length sigma_0, energy epsilon_0, mass m_0,
// time tau = sigma_0 sqrt(m_0 / epsilon_0), k_B = 1).
struct SystemConfig {
    LatticeSpec lattice; // kind, n or cells, density or spacing, min_spacing, box, box_scale, seed
    LatticePlan plan;    // the resolved geometry: particle count, box, lattice constant
    Boundary boundary = Boundary::Periodic;
    double wall_stiffness = 50.0; // k of the harmonic soft walls [epsilon / sigma^2]
    double wall_range = 0.5;      // distance from a wall at which its force starts [sigma]
    double mass = 1.0;            // particle mass [m]
    double temperature = 0.0;     // initial temperature [epsilon / k_B]
    uint64_t seed = 1;            // random lattice and initial velocities
};

struct PotentialConfig {
    double epsilon = 1.0; // well depth [epsilon]
    double sigma = 1.0;   // zero crossing of u(r) [sigma]
    double r_cut = 2.5;   // pairs at r >= r_cut do not interact [sigma]
    bool shift = false;   // subtract u(r_cut) so the energy is continuous at the cutoff
};

struct IntegratorConfig {
    double dt = 0.005; // time step [tau]
    int64_t steps = 0; // number of velocity-Verlet steps
};

struct NeighborConfig {
    NeighborMode mode = NeighborMode::Binned;
    double skin = 0.3; // list radius r_cut + skin [sigma]
    Rebuild rebuild = Rebuild::Displacement;
    // Newton's third law on half lists (NeighborListSpec::half, NewtonBuffers): each pair once,
    // its force added to both particles. Unset (auto): on the cpu backend with binned lists.
    std::optional<bool> newton;
    bool newton_on(bool on_cpu) const {
        return mode == NeighborMode::Binned && newton.value_or(on_cpu);
    }
    // Cells of the binned search per r_list along each axis (NeighborListSpec::cell_size): 1,
    // cells at least r_list wide, 3 x 3 searched; 2, cells at least r_list / 2 wide, 5 x 5
    // searched by the *_small_cells kernels. Unset (auto): 2 for the cpu backend's half lists
    // (at 10^6 particles a build takes longer, but the force loop over the finer-ordered rows
    // gained more: 3 % a step), 1 otherwise; 1 where a periodic box would get fewer than 5.
    std::optional<int> cells_per_r_list;
    int cells_per_r_list_for(bool on_cpu) const {
        if (cells_per_r_list) return *cells_per_r_list;
        return on_cpu && newton_on(on_cpu) ? 2 : 1;
    }
    // Each particle's list in increasing index order (NeighborListSpec::sorted). Unset (auto):
    // sorted except the half lists (whose sums follow the cells at the build whatever the
    // order of a row, so sorting them buys no bit-for-bit equality; at 10^6 particles it took a
    // third of a build). `half`: the lists are half lists (neighbor_spec).
    std::optional<bool> sorted_lists;
    bool lists_sorted(bool half) const { return sorted_lists.value_or(!half); }
    // Reorder the particles by cell at steps that are multiples of it (0: never), as md3d does
    // (Simulation::reorder_by_cell); one MPI rank only.
    int64_t sort_interval = 100;
};

// MPI domain decomposition (apps/common/domain/, md2d/domain.h): ranks along x and y; 0 lets
// MPI_Dims_create choose. Only read when the run has more than one MPI rank.
struct DomainConfig {
    std::array<int, 2> grid{0, 0};
    // How the halo refresh travels between ranks (common/domain/device_link.h): auto, host
    // (staged through host memory) or nccl (device to device on cuda).
    domain::Transport transport = domain::Transport::Auto;
};

// RunConfig: backend, precision, threads, output, source (the file and its text).
struct Md2dConfig : RunConfig {
    SystemConfig system;
    PotentialConfig potential;
    IntegratorConfig integrator;
    NeighborConfig neighbor;
    DomainConfig domain;

    int64_t n() const { return system.plan.n; }
    std::array<double, 2> box() const { return {system.plan.box[0], system.plan.box[1]}; }
    bool periodic() const { return system.boundary == Boundary::Periodic; }
    double r_list() const { return potential.r_cut + neighbor.skin; }
};

Md2dConfig parse_md2d_config(const ConfigNode &root);
Md2dConfig load_md2d_config(const std::string &path);
Md2dConfig load_md2d_config_string(std::string text, std::string file_name);

// The `domain` section (domain_config.cpp), and on more than one MPI rank its check against the
// rank count and the box: a grid that does not fit the ranks, or sub-boxes thinner than
// r_cut + neighbor.skin, is a ConfigError at domain.grid.
DomainConfig parse_domain(const ConfigNode &domain);
void check_domain(const ConfigNode &root, const Md2dConfig &config);
// The domain grid of a run on `ranks` MPI ranks: [x, y, 1] (zeros chosen by MPI_Dims_create).
std::array<int, 3> domain_dims(const Md2dConfig &config, int ranks);

// The resolved configuration, one aspect per line (what `md2d check` prints).
std::string describe(const Md2dConfig &config);

// The initial positions of a parsed config. A random lattice that cannot be placed throws a
// ConfigError located at the key to change (system.density or system.min_spacing).
Positions make_initial_positions(const Md2dConfig &config);

// The binned-search grid for a box: cells per side (each cell >= r_list / per_r_list) and
// cell sizes.
struct CellGrid {
    int ncx = 1, ncy = 1;
    double cell_w = 0.0, cell_h = 0.0;
    int per_r_list = 1; // neighbor.cells_per_r_list, resolved
};
CellGrid cell_grid(const Md2dConfig &config);

const char *to_string(Boundary b);
const char *to_string(NeighborMode m);
const char *to_string(Rebuild r);

} // namespace smelt::apps::md2d
