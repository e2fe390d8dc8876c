#include "md3d/simulation.h"

#include "backends/registry.h"
#include "common/domain/mpi_env.h"
#include "common/thermo.h"
#include "md3d/domain.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace smelt::apps::md3d {

NeighborListSpec neighbor_spec(const Md3dConfig &config) {
    NeighborListSpec s;
    s.search = config.neighbor.mode == NeighborMode::Binned ? NeighborSearch::Binned
                                                            : NeighborSearch::AllPairs;
    s.rebuild = config.neighbor.rebuild == Rebuild::EveryStep ? RebuildPolicy::EveryStep
                                                              : RebuildPolicy::Displacement;
    s.r_list = config.r_list();
    s.skin = config.neighbor.skin;
    s.box = {config.system.box[0], config.system.box[1], config.system.box[2]};
    s.periodic_axes = {config.axis_periodic(0), config.axis_periodic(1), config.axis_periodic(2)};
    s.periodic_arg = NeighborListSpec::PeriodicArg::AxisMask;
    if (s.search == NeighborSearch::Binned) {
        CellGrid g = cell_grid(config);
        s.cells = {g.cells[0], g.cells[1], g.cells[2]};
        s.cell_size = {g.size[0], g.size[1], g.size[2]};
        s.half = config.neighbor.newton_on(config.backend == "cpu");
        s.sorted = config.neighbor.lists_sorted(config.backend == "cpu", s.half);
        s.lanes = config.neighbor.lanes_for(config.backend == "cpu", config.n() / mpi::size());
    }
    return s;
}

std::vector<ObservableColumn> thermo_columns() {
    // Units: reduced Lennard-Jones (H5mdUnits::lennard_jones()); momentum m sigma/tau written
    // with epsilon, sigma and tau only.
    const char *energy = "epsilon", *momentum = "epsilon tau sigma-1";
    return {{"pe", "potential_energy", 15, 8, 'g', energy},
            {"ke", "kinetic_energy", 15, 8, 'g', energy},
            {"etotal", "total_energy", 15, 10, 'g', energy},
            {"temperature", "temperature", 12, 6, 'g', "epsilon kB-1"},
            {"pressure", "pressure", 12, 6, 'g', "epsilon sigma-3"},
            {"conserved", "conserved_energy", 15, 10, 'g', energy},
            {"heat", "thermostat_heat", 12, 5, 'g', energy},
            {"px", "momentum_x", 11, 3, 'e', momentum},
            {"py", "momentum_y", 11, 3, 'e', momentum},
            {"pz", "momentum_z", 11, 3, 'e', momentum}};
}

namespace {

std::unique_ptr<Md3dDomain> make_domain(const Md3dConfig &config, const smelt::Program &physics,
                                        const smelt::Options &options) {
    if (!mpi::distributed()) return nullptr;
    return std::make_unique<Md3dDomain>(config, physics, options);
}

// Along a decomposed axis the list sees ghosts with their images, not the minimum image.
NeighborListSpec local_neighbor_spec(const Md3dConfig &config, const Md3dDomain *domain) {
    NeighborListSpec s = neighbor_spec(config);
    if (domain)
        for (int a = 0; a < 3; ++a)
            if (domain->grid().decomposed(a)) s.periodic_axes[size_t(a)] = false;
    // Ghosts get no forces back (no reverse communication). A half list on the CPU has rows for
    // the ghosts too, so that every pair with an owned particle is in exactly one row; the
    // ghosts' sums are dropped (a pair across two ranks is computed on both, as LAMMPS' newton
    // off does at sub-box faces). The GPU forms keep full lists of the owned rows.
    return s;
}

// The force loop: its CPU form (chunked) or GPU form, in float64 (float32 with single
// precision) or mixed.
const char *force_kernel(Precision precision, bool chunked) {
    if (precision == Precision::Mixed)
        return chunked ? "compute_forces_chunked_mixed" : "compute_forces_mixed";
    return chunked ? "compute_forces_chunked" : "compute_forces";
}

} // namespace

Simulation::Simulation(const Md3dConfig &config, const smelt::Program &physics)
    : config_(config), options_(engine_options(config)), backend_(&backend_of(options_)),
      real_(config.precision == Precision::Single ? DType::Float32 : DType::Float64),
      n_(config.n()), n_local_(mpi::distributed() ? 0 : config.n()),
      dof_(degrees_of_freedom(config.n(), config.periodic_mask(), config.integrator.kind)),
      periodic_(config.periodic_mask()), local_periodic_(periodic_),
      domain_(make_domain(config, physics, options_)), tail_(tail_correction(config)),
      neighbors_(physics, options_, local_neighbor_spec(config, domain_.get()), n_local_),
      forces_chunked_(kernel_form(options_, "compute_forces_chunked", "compute_forces") ==
                      std::string("compute_forces_chunked")),
      forces_skip_energies_(!forces_chunked_ || config.precision == Precision::Mixed),
      kick_drift_(physics, "kick_drift", options_), kick_(physics, "kick", options_),
      forces_(physics, force_kernel(config.precision, forces_chunked_), options_),
      wrap_(physics, "wrap_positions", options_), baoab_(physics, "baoab_kick_drift", options_),
      scale_(physics, "scale_velocities", options_),
      permute_real_(physics, "permute_real", options_),
      permute_int_(physics, "permute_int", options_),
      ke_(&physics, "a+b", "kinetic_energy_map", DType::Float64, "0", options_),
      pe_sum_(&physics, "a+b", "potential_energy_map", DType::Float64, "0", options_),
      virial_(&physics, "a+b", "virial_map", DType::Float64, "0", options_),
      heat_sum_(&physics, "a+b", "heat_map", DType::Float64, "0", options_),
      px_(&physics, "a+b", "momentum_x_map", DType::Float64, "0", options_),
      py_(&physics, "a+b", "momentum_y_map", DType::Float64, "0", options_),
      pz_(&physics, "a+b", "momentum_z_map", DType::Float64, "0", options_) {
    if (!config.all_periodic()) walls_.emplace(physics, "apply_walls", options_);
    if (neighbors_.spec().half) {
        newton_forces_.emplace(physics, "compute_forces_newton", options_);
        // Chunks of 4096 beyond 8 of them: a 3D half list's rows reach about one layer of cells
        // past a chunk's particles (n / 12 of them on in.lj), so chunks of 1024 made buffers of
        // about 5 n entries for the sums to read and clear each step. in.lj gets 8 chunks, which
        // split evenly over 2, 4 and 8 threads; 10^6 atoms still get 64, for many-core CPUs
        // (apps/md3d/README.md, "Fewer Newton chunks").
        newton_.emplace(physics, options_, n_local_, real_, 3, kNewtonWideChunk);
        // With a domain the chunks span the ghosts' rows, which must not be kicked.
        if (!walls_ && !domain_ && physics.has_function("newton_sum_forces_kick"))
            newton_sum_kick_.emplace(physics, "newton_sum_forces_kick", options_);
    } else {
        if (neighbors_.spec().lanes > 1) {
            sum_lanes_.emplace(physics, "sum_lanes", options_);
            sum_lanes_kick_.emplace(physics, "sum_lanes_kick", options_);
        }
    }
    if (domain_) local_periodic_ = domain_->local_mask();
    test_ahead_ = config.neighbor.overlap_test && !domain_ && !newton_ && !forces_chunked_ &&
                  config.neighbor.rebuild == Rebuild::Displacement;
    // A step's end joined with the next one's start: lanes' sums on GPUs, the Newton chunks'
    // sums on the CPU (never with a domain: newton_sum_kick_ is off there).
    const char *joined = newton_ ? "newton_sum_kick_kick_drift" : "sum_lanes_kick_kick_drift";
    join_kicks_ =
        !walls_ && config.integrator.kind == IntegratorKind::Nve &&
        ((test_ahead_ && sum_lanes_kick_) || (newton_sum_kick_ && physics.has_function(joined)));
    if (join_kicks_) joined_kicks_.emplace(physics, joined, options_);
    // Only where launches are asynchronous (the GPU form): on the CPU a kernel runs on the
    // calling thread, and nothing could overlap the exchange. Through a device link the refresh
    // keeps the host from waiting without it.
    if (domain_ && !forces_chunked_ && config.domain.overlap && !domain_->linked() &&
        config.precision != Precision::Mixed)
        forces_subset_.emplace(physics, "compute_forces_subset", options_);
    const auto n = static_cast<size_t>(n_local_);
    for (auto *set : {&pos_, &vel_, &force_})
        for (Array &a : *set)
            a = zeros(n, real_, backend_);
    for (Array &a : img_)
        a = zeros(n, DType::Int32, backend_);
    typ_ = zeros(n, DType::Int32, backend_);
    pe_ = zeros(n, real_, backend_);
    vir_ = zeros(n, real_, backend_);
    dke_ = zeros(n, real_, backend_);
    id_ = zeros(n, DType::Int32, backend_);
    real_tmp_ = zeros(n, real_, backend_);
    int_tmp_ = zeros(n, DType::Int32, backend_);

    // Per-type tables; eshift_t is filled on the device by pair_shift_table.
    const size_t nt = size_t(config.ntypes());
    std::vector<double> eps, sig, rc2;
    for (const PairParameters &p : config.potential.pairs) {
        eps.push_back(p.epsilon);
        sig.push_back(p.sigma);
        rc2.push_back(p.r_cut * p.r_cut);
    }
    mass_ = real_array(config.system.masses, nt);
    eps_t_ = real_array(eps, nt * nt);
    sig_t_ = real_array(sig, nt * nt);
    rc2_t_ = real_array(rc2, nt * nt);
    eshift_t_ = zeros(nt * nt, real_, backend_);
    smelt::Elementwise shift_table(physics, "pair_shift_table", options_);
    shift_table({eps_t_, sig_t_, rc2_t_, eshift_t_, int32_t(config.potential.shift ? 1 : 0)});
}

Simulation::~Simulation() = default;

Array Simulation::real_array(const std::vector<double> &v, size_t expected) const {
    if (v.size() != expected)
        throw std::invalid_argument("md3d: an array needs " + std::to_string(expected) +
                                    " values, got " + std::to_string(v.size()));
    if (real_ == DType::Float64) return Array::from_vector(v, backend_);
    return Array::from_vector(std::vector<float>(v.begin(), v.end()), backend_);
}

Array Simulation::int_array(const std::vector<int32_t> &v) const {
    if (static_cast<int64_t>(v.size()) != n_local_)
        throw std::invalid_argument("md3d: an array needs " + std::to_string(n_local_) +
                                    " values, got " + std::to_string(v.size()));
    return Array::from_vector(v, backend_);
}

std::vector<double> Simulation::device_order(const Array &a) const {
    if (a.dtype() == DType::Float64) return a.to_vector<double>();
    auto f = a.to_vector<float>();
    return std::vector<double>(f.begin(), f.end());
}

std::vector<int32_t> Simulation::device_order_int(const Array &a) const {
    return a.to_vector<int32_t>();
}

namespace {

// v in id order: out[id[k]] = v[k].
template <class T> std::vector<T> by_id(const std::vector<T> &v, const std::vector<int32_t> &id) {
    std::vector<T> out(v.size());
    for (size_t k = 0; k < v.size(); ++k)
        out[size_t(id[k])] = v[k];
    return out;
}

} // namespace

std::vector<double> Simulation::host(const Array &a) const {
    std::vector<double> v = device_order(a);
    if (!reordered_ || int64_t(v.size()) != n_) return v;
    return by_id(v, id_.to_vector<int32_t>());
}

std::vector<int32_t> Simulation::host_int(const Array &a) const {
    std::vector<int32_t> v = device_order_int(a);
    if (!reordered_ || int64_t(v.size()) != n_) return v;
    return by_id(v, id_.to_vector<int32_t>());
}

void Simulation::reorder_by_cell() {
    const Array &order = neighbors_.cell_order({pos_[0], pos_[1], pos_[2]});
    auto gather_real = [&](Array &a) {
        permute_real_({order, a, real_tmp_});
        std::swap(a, real_tmp_);
    };
    auto gather_int = [&](Array &a) {
        permute_int_({order, a, int_tmp_});
        std::swap(a, int_tmp_);
    };
    // dke is written afresh in every step before it is read; pe and vir move along, so that
    // energies of the current forces stay readable without another force pass.
    for (size_t a = 0; a < 3; ++a) {
        gather_real(pos_[a]);
        gather_real(vel_[a]);
        gather_real(force_[a]);
        gather_int(img_[a]);
    }
    gather_real(pe_);
    gather_real(vir_);
    gather_int(typ_);
    gather_int(id_);
    reordered_ = true;
    neighbors_.invalidate();
}

void Simulation::set_initial_state() {
    HostState s = make_initial_state(config_);
    set_state(s);
}

void Simulation::set_state(const HostState &global,
                           std::optional<std::pair<int64_t, double>> time_origin,
                           const std::vector<int32_t> &ids,
                           const std::array<std::vector<double>, 3> &built_at) {
    const auto n = size_t(n_);
    for (const auto &sp : global.species)
        if (sp < 0 || sp >= config_.ntypes())
            throw std::invalid_argument("md3d: species " + std::to_string(sp) +
                                        " outside the config's " +
                                        std::to_string(config_.ntypes()) + " types");
    std::vector<int32_t> id = ids;
    if (id.empty()) {
        id.resize(n);
        std::iota(id.begin(), id.end(), 0);
    }
    std::vector<bool> seen(n, false);
    for (int32_t k : id) {
        if (k < 0 || size_t(k) >= n || seen[size_t(k)])
            throw std::invalid_argument("md3d: particle ids must be a permutation of 0.." +
                                        std::to_string(n_ - 1));
        seen[size_t(k)] = true;
    }
    HostState owned;
    if (domain_) {
        // Every rank reads the whole state and keeps its sub-box's particles.
        owned = global;
        domain_->keep_owned(owned, id);
        domain_->invalidate();
        n_local_ = int64_t(id.size());
        for (Array *a : {&force_[0], &force_[1], &force_[2], &pe_, &vir_, &dke_})
            *a = zeros(size_t(n_local_), real_, backend_);
    }
    const HostState &s = domain_ ? owned : global;
    for (size_t a = 0; a < 3; ++a) {
        pos_[a] = real_array(s.position[a], size_t(n_local_));
        vel_[a] = real_array(s.velocity[a], size_t(n_local_));
        img_[a] = int_array(s.image[a]);
    }
    typ_ = int_array(s.species);
    id_ = int_array(id);
    reordered_ = !std::is_sorted(id.begin(), id.end());
    const auto &box = config_.system.box;
    // Positions from outside (a file, a checkpoint) into the box; wrapped ones stay put.
    wrap_(
        {pos_[0], pos_[1], pos_[2], img_[0], img_[1], img_[2], box[0], box[1], box[2], periodic_});
    step_ = s.step;
    heat_ = s.heat;
    if (time_origin) {
        step0_ = time_origin->first;
        time0_ = time_origin->second;
    } else {
        step0_ = s.step;
        time0_ = s.time;
    }
    neighbors_.invalidate();
    // A half list depends on the cells at its build (which of two particles holds a pair), and
    // so does the order of the force sums: the list the continued run had is built again.
    if (!domain_ && !built_at[0].empty() && config_.neighbor.rebuild == Rebuild::Displacement)
        neighbors_.build({real_array(built_at[0], size_t(n_local_)),
                          real_array(built_at[1], size_t(n_local_)),
                          real_array(built_at[2], size_t(n_local_))});
    compute_forces();
}

double Simulation::time() const {
    return time0_ + double(step_ - step0_) * config_.integrator.dt;
}

void Simulation::compute_forces() {
    update_neighbors();
    evaluate_forces(true);
}

void Simulation::update_neighbors() {
    if (domain_)
        update_domain();
    else
        neighbors_.update({pos_[0], pos_[1], pos_[2]});
}

bool Simulation::sampled_after_step() const {
    const int64_t s = step_ + 1;
    const OutputConfig &o = config_.output;
    return s == config_.integrator.steps || (o.thermo_interval > 0 && s % o.thermo_interval == 0) ||
           (o.frame_interval > 0 && s % o.frame_interval == 0);
}

void Simulation::ensure_energies() {
    if (energies_current_) return;
    // The list of these forces (the update finds no displacement since its last test), or a
    // new one when reorder_by_cell() made it stale.
    update_neighbors();
    evaluate_forces(true);
}

bool Simulation::update_and_evaluate(bool energies, double kick_dt, bool defer, bool tested) {
    const std::vector<Array> x = {pos_[0], pos_[1], pos_[2]};
    if (tested) {
        neighbors_.start_flag_read(); // the joined kicks' launch did the test
    } else if (!test_ahead_ || !neighbors_.start_update(x)) {
        update_neighbors();
        return evaluate_forces(energies, kick_dt, defer);
    }
    if (!test_ahead_) {
        // The CPU's joined launch did the test, and has finished (a CPU launch returns when it
        // is done): the flag decides the list, then the forces run on it.
        neighbors_.finish_update(x);
        return evaluate_forces(energies, kick_dt, defer);
    }
    // The device runs the force loop on the current list while the host waits for the list's
    // displacement test, which was queued before it; when the test finds the list stale the
    // loop exits at once (it reads the test's flag) and runs again on the rebuilt list.
    // Without this the device would idle for the read-back and the next launch every step.
    launch_pair_forces(energies, &neighbors_.stale_flag());
    if (neighbors_.finish_update(x)) launch_pair_forces(energies, nullptr);
    return finish_forces(energies, kick_dt, defer);
}

bool Simulation::evaluate_forces(bool energies, double kick_dt, bool defer) {
    if (!newton_) {
        launch_pair_forces(energies, nullptr);
        return finish_forces(energies, kick_dt, defer);
    }
    const auto &box = config_.system.box;
    // With a domain: the positions and types with ghosts, whose rows are chunks' rows too.
    const std::array<Array, 3> &x = domain_ ? domain_->ext() : pos_;
    const auto rows = int32_t(neighbors_.size());
    // Half list: each pair once into the chunks' buffers, then their sums (newton.py).
    newton_->prepare(neighbors_);
    (*newton_forces_)(newton_->chunks(), {x[0],
                                          x[1],
                                          x[2],
                                          newton_->buffers()[0],
                                          newton_->buffers()[1],
                                          newton_->buffers()[2],
                                          newton_->buffers()[3],
                                          newton_->buffers()[4],
                                          newton_->range_lo(),
                                          newton_->offsets(),
                                          rows,
                                          newton_->chunks(),
                                          int32_t(energies ? 1 : 0),
                                          neighbors_.start(),
                                          neighbors_.count(),
                                          neighbors_.indices(),
                                          box[0],
                                          box[1],
                                          box[2],
                                          local_periodic_,
                                          domain_ ? domain_->ext_typ() : typ_,
                                          int32_t(config_.ntypes()),
                                          eps_t_,
                                          sig_t_,
                                          rc2_t_,
                                          eshift_t_});
    // The chunks' sums and the kick in the next step's launch (newton_sum_kick_kick_drift).
    if (defer) return finish_forces(energies, kick_dt, true);
    bool kicked = false;
    if (domain_) {
        sum_owned_newton(energies);
    } else if (energies) {
        newton_->sum_into(force_[0], force_[1], force_[2], pe_, vir_);
    } else if (kick_dt != 0.0 && newton_sum_kick_) {
        // The sums and the closing half-kick in one launch (no walls to add in between): one
        // OpenMP region less a step, each costing the other threads' wake-up.
        newton_sum_kick(kick_dt);
        kicked = true;
    } else {
        newton_->sum_forces_into(force_[0], force_[1], force_[2]);
    }
    return finish_forces(energies, 0.0) || kicked;
}

void Simulation::sum_owned_newton(bool energies) {
    // Every row's sums, ghosts' included (the chunks span them), then the owned particles'.
    const auto rows = size_t(neighbors_.size());
    if (rows_sums_[0].size() != rows)
        for (Array &a : rows_sums_)
            a = empty(rows, real_, backend_); // the sums set every entry
    if (energies)
        newton_->sum_into(rows_sums_[0], rows_sums_[1], rows_sums_[2], rows_sums_[3],
                          rows_sums_[4]);
    else
        newton_->sum_forces_into(rows_sums_[0], rows_sums_[1], rows_sums_[2]);
    const size_t bytes = size_t(n_local_) * dtype_size(real_);
    if (bytes == 0) return;
    const std::array<Array *, 5> out = {&force_[0], &force_[1], &force_[2], &pe_, &vir_};
    for (size_t q = 0; q < (energies ? 5u : 3u); ++q)
        backend_->copy(out[q]->buffer(), 0, rows_sums_[q].buffer(), 0, bytes);
}

bool Simulation::writes_energies(bool energies) const {
    // The GPU forms and the mixed CPU form write pe and vir only when asked; compute_forces_chunked
    // always does. With a domain too: the run loop asks at the steps it samples, so the halo
    // refresh that ensure_energies would redo is rare, where writing them at every step cost
    // the GPU force kernel 7 % per call (10^6 atoms per H200).
    return energies || !forces_skip_energies_;
}

void Simulation::launch_pair_forces(bool energies, const Array *stale) {
    const auto &box = config_.system.box;
    const std::array<Array, 3> &x = domain_ ? domain_->ext() : pos_;
    // One lane: the kernel writes the totals; more: each lane's part, then their sum.
    const int lanes = neighbors_.spec().lanes;
    std::array<Array *, 5> out = {&force_[0], &force_[1], &force_[2], &pe_, &vir_};
    if (lanes > 1) {
        const auto parts = size_t(lanes * n_local_);
        for (size_t q = 0; q < 5; ++q) {
            if (lane_parts_[q].size() != parts) lane_parts_[q] = empty(parts, real_, backend_);
            out[q] = &lane_parts_[q];
        }
    }
    std::vector<smelt::Arg> args = {x[0],
                                    x[1],
                                    x[2],
                                    *out[0],
                                    *out[1],
                                    *out[2],
                                    *out[3],
                                    *out[4],
                                    neighbors_.start(),
                                    neighbors_.count(),
                                    neighbors_.indices(),
                                    neighbors_.stride(),
                                    box[0],
                                    box[1],
                                    box[2],
                                    local_periodic_,
                                    domain_ ? domain_->ext_typ() : typ_,
                                    int32_t(config_.ntypes()),
                                    eps_t_,
                                    sig_t_,
                                    rc2_t_,
                                    eshift_t_};
    if (!forces_chunked_) {
        // The GPU form also takes its lanes, whether to write pe and vir, and the stale flag of
        // the displacement test it may have been queued behind (a zero: always compute).
        if (fresh_.is_null()) fresh_ = zeros(1, DType::Int32, backend_);
        args.push_back(int32_t(lanes));
        args.push_back(int32_t(writes_energies(energies) ? 1 : 0));
        args.push_back(stale ? *stale : fresh_);
    } else if (forces_skip_energies_) {
        args.push_back(int32_t(writes_energies(energies) ? 1 : 0)); // compute_forces_chunked_mixed
    }
    if (domain_)
        domain_forces(lanes * n_local_, lanes, std::move(args));
    else
        forces_(lanes * n_local_, args);
}

bool Simulation::finish_forces(bool energies, double kick_dt, bool defer) {
    const auto &box = config_.system.box;
    bool kicked = false;
    if (defer) {
        // join_kicks_: lanes or Newton chunks, and no walls; the next step's joined launch
        // completes force_.
        energies_current_ = false;
        ++force_only_passes_;
        kick_pending_ = true;
        return true;
    }
    if (!newton_) {
        energies = writes_energies(energies);
        const int lanes = neighbors_.spec().lanes;
        if (lanes > 1 && kick_dt != 0.0 && !walls_) {
            // The lanes' sum and the closing half-kick in one launch: a step's smallest kernels
            // cost their launch more than their work.
            sum_lanes_kick(energies, kick_dt);
            kicked = true;
        } else if (lanes > 1) {
            (*sum_lanes_)(n_local_, {force_[0], force_[1], force_[2], pe_, vir_, lane_parts_[0],
                                     lane_parts_[1], lane_parts_[2], lane_parts_[3], lane_parts_[4],
                                     int32_t(lanes), int32_t(energies ? 1 : 0)});
        }
    }
    if (walls_)
        (*walls_)({pos_[0], pos_[1], pos_[2], force_[0], force_[1], force_[2], pe_, box[0], box[1],
                   box[2], periodic_, config_.system.wall_stiffness, config_.system.wall_range});
    energies_current_ = energies;
    ++(energies_current_ ? energy_passes_ : force_only_passes_);
    return kicked;
}

void Simulation::step_nve(bool defer) {
    const auto &box = config_.system.box;
    const double dt = config_.integrator.dt;
    bool tested = false;
    if (kick_pending_) {
        tested = joined_kick_drift(dt, true);
        kick_pending_ = false;
    } else {
        kick_drift_({pos_[0], pos_[1], pos_[2], vel_[0], vel_[1], vel_[2], force_[0], force_[1],
                     force_[2], img_[0], img_[1], img_[2], typ_, mass_, dt, box[0], box[1], box[2],
                     local_periodic_});
    }
    const bool sampled = sampled_after_step();
    if (!update_and_evaluate(sampled, dt, defer && !sampled, tested))
        kick_({vel_[0], vel_[1], vel_[2], force_[0], force_[1], force_[2], typ_, mass_, dt});
}

void Simulation::step_langevin() {
    const auto &box = config_.system.box;
    const auto &in = config_.integrator;
    baoab_({pos_[0],       pos_[1],   pos_[2],         vel_[0],  vel_[1], vel_[2],
            force_[0],     force_[1], force_[2],       img_[0],  img_[1], img_[2],
            typ_,          id_,       mass_,           dke_,     in.dt,   box[0],
            box[1],        box[2],    local_periodic_, in.gamma, in.kT,   uint64_t(in.seed),
            int64_t(step_)});
    if (!update_and_evaluate(sampled_after_step(), in.dt))
        kick_({vel_[0], vel_[1], vel_[2], force_[0], force_[1], force_[2], typ_, mass_, in.dt});
    heat_ += mpi::sum_in_rank_order(heat_sum_({dke_}).as<double>());
}

void Simulation::step() {
    step_one(false);
}

void Simulation::step_one(bool defer) {
    const auto &in = config_.integrator;
    // At fixed steps, not at list rebuilds: a restarted run then reorders where the
    // uninterrupted one did, from the same state (restarts stay bit-identical).
    const int64_t every = config_.neighbor.sort_interval;
    if (every > 0 && step_ % every == 0 && !domain_) {
        flush_kick(); // the gathers move force_ and vel_, not the lanes' parts or the buffers
        reorder_by_cell();
    }
    switch (in.kind) {
    case IntegratorKind::Nve:
        step_nve(defer);
        break;
    case IntegratorKind::Langevin:
        step_langevin();
        break;
    case IntegratorKind::Bussi: {
        step_nve(false);
        const double ke =
            mpi::sum_in_rank_order(ke_({vel_[0], vel_[1], vel_[2], typ_, mass_}).as<double>());
        const double alpha = bussi_alpha(ke, in.kT, dof_, in.dt, in.tau, in.seed, step_);
        if (alpha != 1.0) scale_({vel_[0], vel_[1], vel_[2], alpha});
        heat_ += (alpha * alpha - 1.0) * ke;
        break;
    }
    }
    ++step_;
}

void Simulation::compile_kernels() {
    // dt = 0 leaves every kernel's state unchanged: x + 0 v = x, wrapped positions stay put,
    // the O step with gamma dt = 0 keeps v (and writes dke = 0), alpha = 1 scales by 1.
    const auto &box = config_.system.box;
    const auto &in = config_.integrator;
    if (in.kind == IntegratorKind::Langevin) {
        baoab_({pos_[0],       pos_[1],   pos_[2],   vel_[0],  vel_[1], vel_[2],
                force_[0],     force_[1], force_[2], img_[0],  img_[1], img_[2],
                typ_,          id_,       mass_,     dke_,     0.0,     box[0],
                box[1],        box[2],    periodic_, in.gamma, in.kT,   uint64_t(in.seed),
                int64_t(step_)});
        (void)heat_sum_({dke_});
    } else {
        kick_drift_({pos_[0], pos_[1], pos_[2], vel_[0], vel_[1], vel_[2], force_[0], force_[1],
                     force_[2], img_[0], img_[1], img_[2], typ_, mass_, 0.0, box[0], box[1], box[2],
                     periodic_});
    }
    if (in.kind == IntegratorKind::Bussi) scale_({vel_[0], vel_[1], vel_[2], 1.0});
    kick_({vel_[0], vel_[1], vel_[2], force_[0], force_[1], force_[2], typ_, mass_, 0.0});
    if (!domain_) (void)neighbors_.max_displacement2({pos_[0], pos_[1], pos_[2]});
    if (domain_) compile_domain_kernels();
    if (newton_) {
        // The pass without energies (newton_sum_forces) and back: the same force bits. Where
        // steps join: a pass whose sums the joined launch does, with a kick and a drift by 0.
        evaluate_forces(false);
        if (joined_kicks_) {
            evaluate_forces(false, 0.0, true);
            joined_kick_drift(0.0, false);
            kick_pending_ = false;
        }
        evaluate_forces(true);
    }
    if (config_.neighbor.sort_interval > 0 && !domain_) {
        // The gathers into the scratch arrays, which are not swapped in: the state stays.
        const Array &order = neighbors_.cell_order({pos_[0], pos_[1], pos_[2]});
        permute_real_({order, pos_[0], real_tmp_});
        permute_int_({order, typ_, int_tmp_});
    }
    (void)observables();
    if (joined_kicks_ && !newton_) {
        // As below, then a drift by dt = 0: wrapped positions stay put.
        joined_kick_drift(0.0, false);
    }
    if (sum_lanes_kick_) {
        // The lanes of the forces just computed, summed again into the same forces, and a kick
        // by dt = 0.
        sum_lanes_kick(true, 0.0);
    }
}

Observables Simulation::observables() {
    ensure_energies();
    Observables o;
    o.ke = ke_({vel_[0], vel_[1], vel_[2], typ_, mass_}).as<double>();
    o.pe = pe_sum_({pe_}).as<double>();
    o.virial = virial_({vir_}).as<double>();
    o.momentum[0] = px_({vel_[0], typ_, mass_}).as<double>();
    o.momentum[1] = py_({vel_[1], typ_, mass_}).as<double>();
    o.momentum[2] = pz_({vel_[2], typ_, mass_}).as<double>();
    if (domain_) {
        const std::vector<double> g = mpi::sum_in_rank_order(
            {o.ke, o.pe, o.virial, o.momentum[0], o.momentum[1], o.momentum[2]});
        o = {g[0], g[1], g[2], {g[3], g[4], g[5]}};
    }
    return o;
}

ThermoSample Simulation::thermo() {
    const Observables o = observables();
    ThermoSample s;
    s.pe = o.pe + tail_.energy;
    s.ke = o.ke;
    s.etotal = s.pe + s.ke;
    s.temperature = temperature_from_ke(o.ke, dof_);
    s.pressure = virial_pressure(o.ke, o.virial, config_.volume(), 3) + tail_.pressure;
    s.heat = heat_;
    s.conserved = s.etotal - heat_;
    for (int a = 0; a < 3; ++a)
        s.momentum[a] = o.momentum[a];
    return s;
}

Box Simulation::box() const {
    const auto &b = config_.system.box;
    Box box{{b[0], b[1], b[2]}, config_.all_periodic(), {}};
    box.periodic_axes = {config_.axis_periodic(0), config_.axis_periodic(1),
                         config_.axis_periodic(2)};
    return box;
}

std::vector<Field> Simulation::frame() {
    ensure_energies();
    if (domain_) return gathered_frame();
    // Every field in id order, with the ids downloaded once for the frame.
    const std::vector<int32_t> ids = reordered_ ? id_.to_vector<int32_t>() : std::vector<int32_t>{};
    auto real = [&](const Array &a) {
        std::vector<double> v = device_order(a);
        return ids.empty() ? v : by_id(v, ids);
    };
    auto ints = [&](const Array &a) {
        std::vector<int32_t> v = device_order_int(a);
        if (!ids.empty()) v = by_id(v, ids);
        return std::vector<int64_t>(v.begin(), v.end());
    };
    std::vector<Field> f;
    f.push_back(Field::vector("position", {real(pos_[0]), real(pos_[1]), real(pos_[2])})
                    .with_unit("sigma"));
    f.push_back(Field::vector("velocity", {real(vel_[0]), real(vel_[1]), real(vel_[2])})
                    .with_unit("sigma tau-1"));
    if (config_.output_force)
        f.push_back(Field::vector("force", {real(force_[0]), real(force_[1]), real(force_[2])})
                        .with_unit("epsilon sigma-1"));
    // Pairs split equally and walls: they sum to pe without the tail correction.
    f.push_back(Field::reals("potential_energy", {real(pe_)}).with_unit("epsilon"));
    f.push_back(Field::integers("image", {ints(img_[0]), ints(img_[1]), ints(img_[2])}));
    f.push_back(Field::integers("species", {ints(typ_)}));
    return f;
}

Checkpoint Simulation::save() {
    if (domain_) return gathered_save();
    auto widen = [](const std::vector<int32_t> &v) {
        return std::vector<int64_t>(v.begin(), v.end());
    };
    Checkpoint ck;
    const char *axes[3] = {"x", "y", "z"};
    // In device order with the ids, so that a restart continues with the same order and sums
    // the forces in the same order.
    for (size_t a = 0; a < 3; ++a) {
        ck.put(axes[a], device_order(pos_[a]));
        ck.put(std::string("v") + axes[a], device_order(vel_[a]));
        ck.put(std::string("i") + axes[a], widen(device_order_int(img_[a])));
    }
    ck.put("species", widen(device_order_int(typ_)));
    ck.put("id", widen(device_order_int(id_)));
    // The positions of the last list build (device order), so a restart rebuilds the same list.
    const std::vector<Array> &built = neighbors_.build_positions();
    if (built.size() == 3)
        for (size_t a = 0; a < 3; ++a)
            ck.put(std::string(axes[a]) + "_list", device_order(built[a]));
    ck.put_scalar("heat", heat_);
    ck.put_scalar("time_origin_step", step0_);
    ck.put_scalar("time_origin", time0_);
    return ck;
}

void Simulation::restore(const Checkpoint &ck) {
    // Checked in this order, so the message names the first entry that does not fit.
    HostState s;
    const char *axes[3] = {"x", "y", "z"};
    auto narrow = [&](const std::string &name) {
        const auto &v = ck.get<int64_t>(name, n_);
        return std::vector<int32_t>(v.begin(), v.end());
    };
    for (size_t a = 0; a < 3; ++a) {
        s.position[a] = ck.get<double>(axes[a], n_);
        s.velocity[a] = ck.get<double>(std::string("v") + axes[a], n_);
        s.image[a] = narrow(std::string("i") + axes[a]);
    }
    s.species = narrow("species");
    for (int32_t sp : s.species)
        if (sp < 0 || sp >= config_.ntypes())
            throw CheckpointError(ck.source + ": entry 'species' holds type " + std::to_string(sp) +
                                  ", but the config has " + std::to_string(config_.ntypes()) +
                                  " type(s)");
    s.step = ck.step;
    s.time = ck.time;
    s.heat = ck.scalar<double>("heat");
    // Checkpoints written before particles were reordered hold no ids: identity.
    const std::vector<int32_t> ids = ck.has("id") ? narrow("id") : std::vector<int32_t>{};
    // Checkpoints written before they held the list's build positions: a fresh build.
    std::array<std::vector<double>, 3> built_at;
    if (ck.has("x_list"))
        for (size_t a = 0; a < 3; ++a)
            built_at[a] = ck.get<double>(std::string(axes[a]) + "_list", n_);
    try {
        set_state(
            s, std::pair{ck.scalar<int64_t>("time_origin_step"), ck.scalar<double>("time_origin")},
            ids, built_at);
    } catch (const std::invalid_argument &e) {
        throw CheckpointError(ck.source + ": entry 'id': " + e.what());
    }
}

std::vector<std::string> Simulation::summary() const {
    std::vector<std::string> items = {std::to_string(neighbors_.builds()) + " neighbour builds"};
    if (domain_) items.push_back(domain_summary());
    return items;
}

} // namespace smelt::apps::md3d
