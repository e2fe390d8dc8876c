// md3d's state and its time step, as the kit's Stepper (apps/common/stepper.h): structure-of-
// arrays state and per-type tables on the engine's backend, the physics.py kernels as engine
// primitives (built once), the 3D neighbour list, and the three integrators. Every per-particle
// number is computed by a kernel of physics.py; the host computes only what the README puts on
// it (Bussi's factor, the tail corrections, the degrees of freedom) in host_physics.cpp.
#pragma once

#include "common/neighbor_list.h"
#include "common/newton_buffers.h"
#include "common/stepper.h"
#include "md3d/config.h"
#include "md3d/host_physics.h"
#include "md3d/initial_state.h"
#include "smelt.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace smelt::apps::md3d {

class Md3dDomain;

// The neighbour-list geometry of a config (r_list, box, per-axis periodicity as the kernels'
// bit mask, cell grid, rebuild rule).
NeighborListSpec neighbor_spec(const Md3dConfig &config);

// Sums over the particles (engine reductions).
struct Observables {
    double ke = 0.0;
    double pe = 0.0;     // sum of pe[i] (pairs and walls), without the tail correction
    double virial = 0.0; // W = sum over pairs of r_ij . f_ij
    double momentum[3] = {0.0, 0.0, 0.0};
};

// md3d's thermo sample: the observable columns of thermo_columns(), in that order.
struct ThermoSample {
    double pe = 0.0; // with U_tail
    double ke = 0.0;
    double etotal = 0.0;
    double temperature = 0.0;
    double pressure = 0.0;  // with P_tail
    double conserved = 0.0; // etotal - heat
    double heat = 0.0;      // energy the thermostat put in since the start
    double momentum[3] = {0.0, 0.0, 0.0};

    std::vector<double> values() const {
        return {pe,        ke,   etotal,      temperature, pressure,
                conserved, heat, momentum[0], momentum[1], momentum[2]};
    }
};

// pe, ke, etotal, temperature, pressure, conserved, heat, px, py, pz (H5MD: potential_energy,
// kinetic_energy, total_energy, temperature, pressure, conserved_energy, thermostat_heat,
// momentum_x, momentum_y, momentum_z).
std::vector<ObservableColumn> thermo_columns();

class Simulation : public Stepper {
public:
    // Builds every primitive (they compile on first use) and the per-type tables. UsageError
    // when the backend is not available. The state is empty until set_state() or initialize().
    // On more than one MPI rank (mpi::distributed()) the Simulation holds this rank's part of a
    // domain decomposition (md3d/domain.h): its arrays hold the owned particles, the thermo sums
    // and outputs are global, and frame() and save() gather on rank 0 (empty elsewhere).
    Simulation(const Md3dConfig &config, const smelt::Program &physics);
    ~Simulation() override;

    // The config's initial state (make_initial_state).
    void set_initial_state();
    // Replaces the state (converted to the run's precision), wraps positions on periodic axes,
    // sets the step, the time origin and the heat, rebuilds the neighbour list and computes the
    // forces. The time is time0 + (step - step0) dt with (step0, time0) = (step, time) here,
    // unless `time_origin` gives it.
    // `ids` gives the particles' ids in the state's order (a checkpoint of a reordered run);
    // empty: particle k has id k. `built_at`, when given, holds the positions (state order) at
    // which the list of the run being continued was built: the list is built there again, so
    // a restart sums the forces in the uninterrupted run's order also with half lists.
    void set_state(const HostState &state,
                   std::optional<std::pair<int64_t, double>> time_origin = std::nullopt,
                   const std::vector<int32_t> &ids = {},
                   const std::array<std::vector<double>, 3> &built_at = {});

    // One step of the config's integrator (README "Integrators").
    void step() override;
    // `steps` steps; with NVE on GPUs with lanes and no walls, each step's lanes' sums and
    // closing half-kick join the next step's opening kick in one launch (the same bits).
    void advance(int64_t steps, const std::function<bool()> &stop) override;
    using Stepper::advance;
    // Neighbour update (as the rebuild rule says), then forces, energies and virials at the
    // current positions (+ walls).
    void compute_forces();
    // With Newton's third law (cpu), with mixed precision, and with the GPU form on one rank
    // (opencl, cuda), a step computes the pair energies and virials only when the run loop will
    // sample its end (output.thermo_interval, output.frame_interval, the last step): LAMMPS'
    // eflag/vflag. The forces have the same bits either way. Whatever reads pe or vir
    // (observables(), frame(), pe(), vir()) first runs the force pass again with them when they are
    // missing (ensure_energies).
    void ensure_energies();
    // Force passes so far that computed energies and virials, and that did not.
    int64_t energy_passes() const { return energy_passes_; }
    int64_t force_only_passes() const { return force_only_passes_; }
    // Whether advance() joins a step's end with the next one's start (NVE without walls, on GPUs
    // with lanes or on the CPU's half lists).
    bool joins_steps() const { return join_kicks_; }
    // Compiles every kernel of a step with dt = 0 (which leaves the state unchanged) and the
    // reductions, so a timed loop measures steps only.
    void compile_kernels() override;

    Observables observables();
    ThermoSample thermo();

    int64_t n() const override { return n_; }
    // The particles on this rank's arrays (n() without domain decomposition).
    int64_t n_local() const { return n_local_; }
    // This rank's domain (null without domain decomposition).
    const Md3dDomain *domain() const { return domain_.get(); }
    int64_t step_index() const override { return step_; }
    double time() const override;
    Box box() const override;
    void initialize() override { set_initial_state(); }
    std::vector<ObservableColumn> columns() const override { return thermo_columns(); }
    std::vector<double> sample() override { return thermo().values(); }
    // position, velocity, image, species (+ force with output.force).
    std::vector<Field> frame() override;
    // x, y, z, vx, vy, vz (double: single precision widens and narrows back exactly), ix, iy,
    // iz, species, heat, time origin.
    Checkpoint save() override;
    void restore(const Checkpoint &checkpoint) override;
    std::vector<std::string> summary() const override;

    const Md3dConfig &config() const { return config_; }
    NeighborList &neighbors() { return neighbors_; }
    int64_t dof() const { return dof_; }
    double heat() const { return heat_; }
    const TailCorrection &tail() const { return tail_; }

    // Host copies as double (single precision widened) or int32; per-particle arrays in id
    // order, whatever order the particles have on the device (neighbor.sort_interval).
    std::vector<double> host(const smelt::Array &a) const;
    std::vector<int32_t> host_int(const smelt::Array &a) const;
    // The particles in cell order (NeighborList::cell_order): every per-particle array is
    // gathered, ids move along, and the next force evaluation rebuilds the list. step() calls
    // it at steps that are multiples of neighbor.sort_interval.
    void reorder_by_cell();
    // On several ranks: the owned particles in cell order, between migration and the halo
    // build (simulation_domain.cpp).
    void reorder_owned_by_cell();
    // The id of the particle at each device index.
    const smelt::Array &ids() const { return id_; }
    const smelt::Array &position(int axis) const { return pos_[size_t(axis)]; }
    const smelt::Array &velocity(int axis) const { return vel_[size_t(axis)]; }
    const smelt::Array &force(int axis) const { return force_[size_t(axis)]; }
    const smelt::Array &image(int axis) const { return img_[size_t(axis)]; }
    const smelt::Array &species() const { return typ_; }
    const smelt::Array &pe() {
        ensure_energies();
        return pe_;
    }
    const smelt::Array &vir() {
        ensure_energies();
        return vir_;
    }
    // The Newton chunks of the CPU's half lists (NewtonBuffers::chunks_for with chunks of this
    // many particles beyond 8 chunks); 0 without half lists.
    static constexpr int32_t kNewtonWideChunk = 4096;
    int32_t newton_chunks() const { return newton_ ? newton_->chunks() : 0; }
    // Entries of each Newton buffer in use after the last list build (0 without half lists).
    int64_t newton_entries() const { return newton_ ? newton_->entries() : 0; }

private:
    smelt::Array real_array(const std::vector<double> &v, size_t expected) const;
    // Host copies in device order.
    std::vector<double> device_order(const smelt::Array &a) const;
    std::vector<int32_t> device_order_int(const smelt::Array &a) const;
    smelt::Array int_array(const std::vector<int32_t> &v) const;
    // One step; `defer`: leave the force sums (lanes' or Newton chunks') and the closing
    // half-kick to the next step.
    void step_one(bool defer);
    void step_nve(bool defer);
    void step_langevin();
    // Applies a deferred closing half-kick (with the lanes' or chunks' sums) now.
    void flush_kick();
    // The force sums (lanes' or Newton chunks'), the deferred closing half-kick, then kick_drift,
    // all by dt, in one launch; with `may_test` also the list's displacement test on the new
    // positions where the list has one (NeighborList::can_test_ahead): true when it did, and the
    // next update_and_evaluate() must be told so (`tested`).
    bool joined_kick_drift(double dt, bool may_test);
    // The lanes' sums into force_ (and pe_, vir_ with `energies`), then the kick by dt.
    void sum_lanes_kick(bool energies, double dt);
    // The Newton chunks' force sums into force_ (no energies), then the kick by dt.
    void newton_sum_kick(double dt);
    // The neighbour update of compute_forces (serial or with the domain's ghosts).
    void update_neighbors();
    // update_neighbors() then evaluate_forces(), or the same with the list's test read back
    // while the force loop runs (test_ahead_; `tested`: joined_kick_drift did the test).
    bool update_and_evaluate(bool energies, double kick_dt, bool defer = false,
                             bool tested = false);
    // Forces at the current positions with the current list (+ walls); energies and virials
    // too when `energies` (and always where writes_energies says so). kick_dt != 0: the caller
    // kicks with these forces next (v += (kick_dt/2) f/m), which it may do itself: true when it
    // did (finish_forces). With `defer`, the sums (lanes' or chunks') and the kick are left to
    // the next step's joined launch (finish_forces).
    bool evaluate_forces(bool energies, double kick_dt = 0.0, bool defer = false);
    // The full-list force kernel alone; `stale`: the list's pending displacement test, whose
    // value makes the kernel skip its work when it finds the list stale (nullptr: compute).
    void launch_pair_forces(bool energies, const smelt::Array *stale);
    // What follows the force kernel: the lanes' sums, the walls, the energy bookkeeping; with
    // lanes and no walls, the kick that follows too when kick_dt != 0 (then it returns true).
    // With `defer`, neither: the next step's opening launch sums the lanes (or the Newton
    // chunks' buffers) and kicks.
    bool finish_forces(bool energies, double kick_dt, bool defer = false);
    bool writes_energies(bool energies) const;
    // With a domain and half lists: the Newton chunks' sums over every row (owned and ghost),
    // then the owned particles' part into force_ (and pe_, vir_ when `energies`).
    void sum_owned_newton(bool energies);
    // Whether the run loop samples the state at the end of the step in progress (step_ + 1).
    bool sampled_after_step() const;
    // Domain decomposition (simulation_domain.cpp): the neighbour update with migration and
    // ghosts; frames and checkpoints gathered on rank 0.
    void update_domain();
    std::vector<Field> gathered_frame();
    // The force launch of evaluate_forces on several ranks (compute_forces' items and
    // arguments): with a halo refresh pending, the interior's forces run while it is in flight,
    // then the boundary's (simulation_domain.cpp says why in that order); else one launch.
    void domain_forces(int64_t items, int lanes, std::vector<smelt::Arg> args);
    // Compiles compute_forces_subset (a force pass through the overlapped path), so a timed
    // loop measures steps only. Collective.
    void compile_domain_kernels();
    // "rank 0: 1000 owned, 800 ghosts, 28.8 kB sent per step; ms per step: rebuild test ...,
    // halo refresh ...; ms per rebuild: ..." (the halo's cost, for the docs; a phase's time
    // includes waiting for kernels queued before it).
    std::string domain_summary() const;
    Checkpoint gathered_save();

    Md3dConfig config_;
    smelt::Options options_;
    smelt::Backend *backend_;
    smelt::DType real_;
    int64_t n_ = 0;
    int64_t n_local_ = 0; // particles on this rank (n_ unless the domain is decomposed)
    int64_t step_ = 0;
    int64_t step0_ = 0; // time origin: time() = time0_ + (step_ - step0_) dt
    double time0_ = 0.0;
    double heat_ = 0.0; // energy the thermostat put in (the conserved quantity subtracts it)
    int64_t dof_ = 0;
    int32_t periodic_ = 7;
    // The mask of pair deltas, the neighbour search and the drift's wrap: periodic_ without
    // the decomposed axes (md3d/domain.h).
    int32_t local_periodic_ = 7;
    std::unique_ptr<Md3dDomain> domain_;
    TailCorrection tail_;
    std::array<smelt::Array, 3> pos_, vel_, force_, img_;
    smelt::Array typ_, pe_, vir_, dke_;
    smelt::Array id_;                 // particle id at each index
    bool reordered_ = false;          // id_ is not the identity
    smelt::Array real_tmp_, int_tmp_; // gather targets of reorder_by_cell, swapped in
    smelt::Array mass_, eps_t_, sig_t_, rc2_t_, eshift_t_; // per-type tables
    NeighborList neighbors_;
    // The CPU form of the force loop (compute_forces_chunked, compute_forces_chunked_mixed), no
    // lanes.
    bool forces_chunked_;
    // The force loop takes `energy` and may skip pe and vir (every form but
    // compute_forces_chunked).
    bool forces_skip_energies_;
    smelt::Elementwise kick_drift_, kick_, forces_, wrap_, baoab_, scale_, permute_real_,
        permute_int_;
    std::optional<smelt::Elementwise> walls_;
    // Newton's third law on a half list (neighbor.newton, cpu backend, one rank): the chunked
    // force kernel and its buffers; empty with full lists.
    std::optional<smelt::Elementwise> newton_forces_;
    std::optional<NewtonBuffers> newton_;
    std::array<smelt::Array, 5> rows_sums_; // sum_owned_newton's fx, fy, fz, pe, vir of every row
    // newton_sum_forces and kick in one launch (half lists without walls; steps without
    // energies).
    std::optional<smelt::Elementwise> newton_sum_kick_;
    // Full lists with several threads per particle (the list's lanes > 1): compute_forces writes
    // each lane's sums into lane_parts_ (fx, fy, fz, pe, vir; lanes * n entries), sum_lanes adds
    // them in lane order.
    std::array<smelt::Array, 5> lane_parts_;
    std::optional<smelt::Elementwise> sum_lanes_, sum_lanes_kick_;
    // advance(): sum_lanes_kick_kick_drift where join_kicks_ (NVE, GPU form on one rank, lanes,
    // no walls), newton_sum_kick_kick_drift on half lists (NVE, no walls); kick_pending_ while
    // force_ waits for its sums (lanes' or chunks') and vel_ for its kick.
    std::optional<smelt::Elementwise> joined_kicks_;
    bool join_kicks_ = false, kick_pending_ = false;
    // The GPU form on one rank with the displacement rule: the list's test is read back while
    // the force loop of the current list runs (update_and_evaluate).
    bool test_ahead_ = false;
    smelt::Array fresh_;            // int32 zero: the stale flag of a launch that always computes
    bool energies_current_ = false; // pe_ and vir_ belong to the current forces
    int64_t energy_passes_ = 0, force_only_passes_ = 0;
    smelt::Reduction ke_, pe_sum_, virial_, heat_sum_, px_, py_, pz_;
    // With MPI on a GPU backend (domain.overlap): compute_forces over a list of particles, and
    // whether update_domain left the halo refresh to domain_forces.
    std::optional<smelt::Elementwise> forces_subset_;
    bool refresh_pending_ = false;
    // Wall time in update_domain's phases and domain_forces' (Out, Exchange, In: the parts of
    // an overlapped refresh), for domain_summary.
    enum class DomainPhase { Test, Refresh, Migrate, Halo, List, Out, Exchange, In };
    std::array<double, 8> domain_seconds_{};
    int64_t domain_updates_ = 0, domain_rebuilds_ = 0, overlapped_refreshes_ = 0;
    int64_t sorted_at_ = -1; // the step of the last reorder_owned_by_cell (-1: none yet)
};

} // namespace smelt::apps::md3d
