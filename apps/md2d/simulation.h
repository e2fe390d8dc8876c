// md2d's state and its time step, as the kit's Stepper (apps/common/stepper.h): the arrays on the
// engine's backend, the physics.py kernels as engine primitives (built once), the neighbour list,
// and velocity Verlet. No physics here: every number is computed by a kernel of physics.py; this
// file only decides what runs when.
#pragma once

#include "common/neighbor_list.h"
#include "common/newton_buffers.h"
#include "common/stepper.h"
#include "md2d/config.h"
#include "smelt.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace smelt::apps::md2d {

class Md2dDomain;

// The neighbour-list geometry of a config (r_list, box, cell grid, rebuild rule).
NeighborListSpec neighbor_spec(const Md2dConfig &config);

// Sums over the particles (engine reductions).
struct Observables {
    double ke = 0.0;
    double pe = 0.0;
    double virial = 0.0; // W = sum over pairs of r_ij . f_ij
};

// md2d's thermo sample: the observable columns of thermo_columns(), in that order.
struct ThermoSample {
    int64_t step = 0;
    double time = 0.0;
    double pe = 0.0;
    double ke = 0.0;
    double etotal = 0.0;
    double temperature = 0.0;
    double pressure = 0.0;

    std::vector<double> values() const { return {pe, ke, etotal, temperature, pressure}; }
};

// pe, ke, etotal, temperature, pressure (H5MD: potential_energy, kinetic_energy, total_energy,
// temperature, pressure).
std::vector<ObservableColumn> thermo_columns();

class Simulation : public Stepper {
public:
    // Builds every primitive (they compile on first use). UsageError when the backend is not
    // available. The state is empty until set_state() or set_initial_state().
    // On more than one MPI rank (mpi::distributed()) the Simulation holds this rank's part of a
    // domain decomposition (md2d/domain.h): its arrays hold the owned particles, the thermo sums
    // are global, and frame() and save() gather on rank 0 (empty elsewhere).
    Simulation(const Md2dConfig &config, const smelt::Program &physics);
    ~Simulation() override;

    // The config's lattice and velocities (make_initial_positions / make_velocities).
    void set_initial_state();
    // Replaces the state (n host values each, converted to the run's precision), sets the step
    // index, rebuilds the neighbour list and computes the forces. `built_at`, when given, holds
    // the positions at which the list of the run being continued was built: the list is built
    // there again, so a restart sums the forces in the uninterrupted run's order also with half
    // lists (which particle holds a pair depends on the cells at the build).
    // `ids` gives the particles' ids in the state's order (a checkpoint of a run that reordered
    // its particles by cell); empty: particle k has id k. `built_at` is in the state's order.
    // With a domain decomposition every rank passes the whole state in id order and keeps its
    // sub-box's particles (`built_at` and `ids` are then not used).
    void set_state(const std::vector<double> &x, const std::vector<double> &y,
                   const std::vector<double> &vx, const std::vector<double> &vy, int64_t step = 0,
                   const std::array<std::vector<double>, 2> &built_at = {},
                   const std::vector<int32_t> &ids = {});

    // One velocity-Verlet step: kick + drift (+ wrap), neighbour update, forces, kick. At steps
    // that are multiples of neighbor.sort_interval (one rank) the particles are first put in
    // cell order (reorder_by_cell).
    void step() override;
    // `steps` calls of step(), bit for bit. Where steps join (joins_steps()) every step but the
    // last leaves its chunks' sums and closing half-kick to the next step's opening launch
    // (newton_sum_kick_kick_drift), which also tests the list's displacements; a stop request
    // ends it after the step in progress, completed. There its force passes skip the energies
    // and virials (LAMMPS' eflag/vflag: the forces have the same bits), which
    // ensure_energies() computes when something asks: observables(), thermo() and frame() do;
    // pe() and vir() after advance() hold them only after ensure_energies().
    void advance(int64_t steps, const std::function<bool()> &stop) override;
    using Stepper::advance;
    // Whether advance() joins a step's end with the next one's start: half lists (cpu backend,
    // one rank) without walls.
    bool joins_steps() const { return joined_kicks_.has_value(); }
    // Neighbour update (as the rebuild rule says) and forces, energies and virials at the
    // current positions.
    void compute_forces();
    // pe() and vir() of the current forces, after an advance() whose passes skipped them (a
    // force pass with energies on the list and positions of the last one: the same forces).
    void ensure_energies();
    // compute_forces, then the closing half-kick v += (dt/2) f/m: with half lists and no walls
    // in one launch with the buffers' sums (newton_sum_2d_kick), else a kick after the forces.
    void compute_forces_and_kick(double dt);

    // Compiles every kernel of the step now (each primitive compiles on its first call), so a
    // timed loop measures steps only: runs kick_drift and kick with dt = 0, which leave the
    // state unchanged (x + 0 v = x; wrapped positions stay put), and the reductions (the
    // neighbour list's displacement check included). Call after set_state / set_initial_state.
    void compile_kernels() override;

    Observables observables();
    // The thermo sample at the current step (temperature and pressure from apps/common/thermo).
    ThermoSample thermo();

    // Stepper: initialize() = set_initial_state(); sample() = thermo().values(); frame():
    // position (x, y) and velocity (vx, vy); a checkpoint holds x, y, vx, vy (as double: single
    // precision values widen and narrow back exactly) and x_list, y_list (the positions of the
    // last list build, with the displacement rule); summary(): the neighbour-list builds.
    int64_t n() const override { return n_; }
    // The particles on this rank's arrays (n() without domain decomposition).
    int64_t n_local() const { return n_local_; }
    // This rank's domain (null without domain decomposition).
    const Md2dDomain *domain() const { return domain_.get(); }
    int64_t step_index() const override { return step_; }
    double time() const override { return double(step_) * config_.integrator.dt; }
    Box box() const override;
    void initialize() override { set_initial_state(); }
    std::vector<ObservableColumn> columns() const override { return thermo_columns(); }
    std::vector<double> sample() override { return thermo().values(); }
    std::vector<Field> frame() override;
    Checkpoint save() override;
    void restore(const Checkpoint &checkpoint) override;
    std::vector<std::string> summary() const override;

    const Md2dConfig &config() const { return config_; }
    NeighborList &neighbors() { return neighbors_; }
    int64_t dof() const;

    // Host copies as double (single-precision arrays are widened); per-particle arrays in id
    // order, whatever order the particles have on the device (neighbor.sort_interval).
    std::vector<double> host(const smelt::Array &a) const;
    // The same in the device's order.
    std::vector<double> device_order(const smelt::Array &a) const;
    // The particles in cell order (NeighborList::cell_order, as md3d's): every per-particle
    // array is gathered (permute_real, permute_int), the ids move along, and the next force
    // evaluation rebuilds the list. step() calls it at steps that are multiples of
    // neighbor.sort_interval. One rank only.
    void reorder_by_cell();
    // The id of the particle at each device index (int32).
    const smelt::Array &ids() const { return id_; }
    const smelt::Array &x() const { return x_; }
    const smelt::Array &y() const { return y_; }
    const smelt::Array &vx() const { return vx_; }
    const smelt::Array &vy() const { return vy_; }
    const smelt::Array &fx() const { return fx_; }
    const smelt::Array &fy() const { return fy_; }
    const smelt::Array &pe() const { return pe_; }
    const smelt::Array &vir() const { return vir_; }

private:
    smelt::Array device_array(const std::vector<double> &v) const;
    // The kernels' periodic flag for pairs and the drift's wrap: 0 on a rank of a domain
    // decomposition, whose ghosts carry the periodic images (md2d/domain.h).
    int32_t local_periodic() const;
    // Domain decomposition (simulation_domain.cpp): the neighbour update with migration and
    // ghosts; frames and checkpoints gathered on rank 0.
    void update_domain();
    std::vector<Field> gathered_frame();
    Checkpoint gathered_save();
    // "rank 0: 500 owned, 300 ghosts, 4.8 kB sent per step" (the last halo refresh).
    std::string domain_summary() const;
    // One step; `defer`: leave the chunks' sums and the closing half-kick to the next step.
    void step_one(bool defer);
    // compute_forces_and_kick; `defer`: the force loop only, its sums and kick pending
    // (kick_pending_); `tested`: joined_kick_drift did the list's displacement test.
    void forces_and_kick(double dt, bool defer, bool tested);
    // The chunks' sums into fx_, fy_, pe_, vir_, then the kick by dt (newton_sum_2d_kick).
    void newton_sum_kick(double dt);
    // The pending chunks' sums and closing half-kick by dt (the run's by default), now: the
    // forces of a pass without energies (pe and vir keep older values).
    void flush_kick(double dt);
    void flush_kick() { flush_kick(config_.integrator.dt); }
    // The half lists' force pass into the chunks' buffers, with or without energies.
    void newton_pass(bool energy);
    // The pending sums and kick, then kick_drift, by dt in one launch; with `may_test` also the
    // list's displacement test where it has one (NeighborList::can_test_ahead): true when it did.
    bool joined_kick_drift(double dt, bool may_test);

    Md2dConfig config_;
    smelt::Options options_;
    smelt::Backend *backend_;
    smelt::DType real_;
    int64_t n_ = 0;
    int64_t n_local_ = 0; // particles on this rank (n_ unless the domain is decomposed)
    int64_t step_ = 0;
    smelt::Array x_, y_, vx_, vy_, fx_, fy_, pe_, vir_;
    std::unique_ptr<Md2dDomain> domain_;
    NeighborList neighbors_;
    smelt::Elementwise kick_drift_, kick_, forces_;
    std::optional<smelt::Elementwise> walls_;
    // Newton's third law on a half list (neighbor.newton, cpu backend): the chunked force kernel
    // and its buffers; empty with full lists.
    std::optional<smelt::Elementwise> newton_forces_;
    std::optional<NewtonBuffers> newton_;
    std::optional<smelt::Elementwise> newton_sum_kick_; // half lists without walls
    // Its form after a pass without energies (the joined steps' pending sums).
    std::optional<smelt::Elementwise> newton_sum_forces_kick_;
    // advance(): newton_sum_kick_kick_drift (half lists without walls); kick_pending_ while the
    // buffers wait for their sums into fx_, fy_, pe_, vir_ and vx_, vy_ for the closing kick.
    std::optional<smelt::Elementwise> joined_kicks_;
    bool kick_pending_ = false;
    bool energies_current_ = true; // pe_ and vir_ belong to the current forces
    smelt::Array no_flag_; // the stale flag's stand-in where the joined launch does not test
    smelt::Reduction ke_, pe_sum_, virial_;
    // neighbor.sort_interval (one rank): the gathers, their scratch targets (swapped in) and
    // the ids of the particles at each index.
    std::optional<smelt::Elementwise> permute_real_, permute_int_;
    smelt::Array id_, real_tmp_, int_tmp_;
    bool reordered_ = false; // id_ is not the identity
};

} // namespace smelt::apps::md2d
