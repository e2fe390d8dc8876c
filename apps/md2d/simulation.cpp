#include "md2d/simulation.h"

#include "backends/registry.h"
#include "common/domain/mpi_env.h"
#include "common/lattice.h"
#include "common/thermo.h"
#include "md2d/domain.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace smelt::apps::md2d {

NeighborListSpec neighbor_spec(const Md2dConfig &config) {
    NeighborListSpec s;
    s.search = config.neighbor.mode == NeighborMode::Binned ? NeighborSearch::Binned
                                                            : NeighborSearch::AllPairs;
    s.rebuild = config.neighbor.rebuild == Rebuild::EveryStep ? RebuildPolicy::EveryStep
                                                              : RebuildPolicy::Displacement;
    s.r_list = config.r_list();
    s.skin = config.neighbor.skin;
    s.box = {config.box()[0], config.box()[1]};
    s.periodic = config.periodic();
    if (s.search == NeighborSearch::Binned) {
        CellGrid g = cell_grid(config);
        s.cells = {g.ncx, g.ncy};
        s.cell_size = {g.cell_w, g.cell_h};
        // On several MPI ranks ghosts would need their forces sent back: full lists there.
        s.half = config.neighbor.newton_on(config.backend == "cpu") && !mpi::distributed();
        s.sorted = config.neighbor.lists_sorted(s.half);
        // compute_forces_newton runs over the entries of packed rows.
        s.packed = s.half;
    }
    return s;
}

std::vector<ObservableColumn> thermo_columns() {
    // Units: reduced Lennard-Jones (H5mdUnits::lennard_jones()); 2D pressure is per area.
    return {{"pe", "potential_energy", 15, 8, 'g', "epsilon"},
            {"ke", "kinetic_energy", 15, 8, 'g', "epsilon"},
            {"etotal", "total_energy", 15, 10, 'g', "epsilon"},
            {"temperature", "temperature", 12, 6, 'g', "epsilon kB-1"},
            {"pressure", "pressure", 12, 6, 'g', "epsilon sigma-2"}};
}

namespace {

std::unique_ptr<Md2dDomain> make_domain(const Md2dConfig &config, const smelt::Program &physics,
                                        const smelt::Options &options) {
    if (!mpi::distributed()) return nullptr;
    return std::make_unique<Md2dDomain>(config, physics, options);
}

} // namespace

Simulation::Simulation(const Md2dConfig &config, const smelt::Program &physics)
    : config_(config), options_(engine_options(config)), backend_(&backend_of(options_)),
      real_(config.precision == Precision::Single ? DType::Float32 : DType::Float64),
      n_(config.n()), n_local_(mpi::distributed() ? 0 : config.n()),
      domain_(make_domain(config, physics, options_)),
      neighbors_(physics, options_, domain_ ? local_neighbor_spec(config) : neighbor_spec(config),
                 n_local_),
      kick_drift_(physics, "kick_drift", options_), kick_(physics, "kick", options_),
      forces_(physics, kernel_form(options_, "compute_forces_chunked", "compute_forces"), options_),
      ke_(&physics, "a+b", "kinetic_energy_map", DType::Float64, "0", options_),
      pe_sum_(&physics, "a+b", "potential_energy_map", DType::Float64, "0", options_),
      virial_(&physics, "a+b", "virial_map", DType::Float64, "0", options_) {
    if (!config.periodic()) walls_.emplace(physics, "apply_walls", options_);
    if (neighbors_.spec().half) {
        newton_forces_.emplace(physics, "compute_forces_newton", options_);
        if (!walls_ && physics.has_function("newton_sum_2d_kick"))
            newton_sum_kick_.emplace(physics, "newton_sum_2d_kick", options_);
        // advance() joins a step's end with the next one's start where nothing acts on the
        // forces between the sums and the kick (no walls); the steps it joins skip the energies.
        if (newton_sum_kick_ && physics.has_function("newton_sum_kick_kick_drift") &&
            physics.has_function("newton_sum_2d_forces_kick")) {
            joined_kicks_.emplace(physics, "newton_sum_kick_kick_drift", options_);
            newton_sum_forces_kick_.emplace(physics, "newton_sum_2d_forces_kick", options_);
        }
        newton_.emplace(physics, options_, n_, real_, 2);
    }
    if (config.neighbor.sort_interval > 0 && config.neighbor.mode == NeighborMode::Binned &&
        !domain_) {
        permute_real_.emplace(physics, "permute_real", options_);
        permute_int_.emplace(physics, "permute_int", options_);
    }
    const auto n = static_cast<size_t>(n_local_);
    for (Array *a : {&x_, &y_, &vx_, &vy_, &fx_, &fy_, &pe_, &vir_})
        *a = zeros(n, real_, backend_);
    if (permute_real_) {
        real_tmp_ = zeros(n, real_, backend_);
        int_tmp_ = zeros(n, DType::Int32, backend_);
    }
}

Simulation::~Simulation() = default;

int32_t Simulation::local_periodic() const {
    return config_.periodic() && !domain_ ? 1 : 0;
}

Array Simulation::device_array(const std::vector<double> &v) const {
    if (static_cast<int64_t>(v.size()) != n_local_)
        throw std::invalid_argument("md2d: state arrays need " + std::to_string(n_local_) +
                                    " values, got " + std::to_string(v.size()));
    if (real_ == DType::Float64) return Array::from_vector(v, backend_);
    return Array::from_vector(std::vector<float>(v.begin(), v.end()), backend_);
}

std::vector<double> Simulation::device_order(const Array &a) const {
    if (a.dtype() == DType::Float64) return a.to_vector<double>();
    auto f = a.to_vector<float>();
    return std::vector<double>(f.begin(), f.end());
}

std::vector<double> Simulation::host(const Array &a) const {
    std::vector<double> v = device_order(a);
    if (!reordered_ || int64_t(v.size()) != n_) return v;
    // In id order: out[id[k]] = v[k].
    const std::vector<int32_t> id = id_.to_vector<int32_t>();
    std::vector<double> out(v.size());
    for (size_t k = 0; k < v.size(); ++k)
        out[size_t(id[k])] = v[k];
    return out;
}

void Simulation::reorder_by_cell() {
    if (domain_ || !permute_real_)
        throw std::logic_error("md2d: reorder_by_cell needs one rank, binned lists and "
                               "neighbor.sort_interval > 0");
    flush_kick(); // the gathers move fx_ and vx_, not the chunks' buffers
    const Array &order = neighbors_.cell_order({x_, y_});
    // pe and vir move along, so that the energies of the current forces stay readable.
    for (Array *a : {&x_, &y_, &vx_, &vy_, &fx_, &fy_, &pe_, &vir_}) {
        (*permute_real_)({order, *a, real_tmp_});
        std::swap(*a, real_tmp_);
    }
    (*permute_int_)({order, id_, int_tmp_});
    std::swap(id_, int_tmp_);
    reordered_ = true;
    neighbors_.invalidate();
}

void Simulation::set_initial_state() {
    Positions p = make_initial_positions(config_);
    auto v = make_velocities(2, n_, config_.system.temperature, config_.system.mass, dof(),
                             config_.system.seed);
    set_state(p.x, p.y, v[0], v[1]);
}

void Simulation::set_state(const std::vector<double> &x, const std::vector<double> &y,
                           const std::vector<double> &vx, const std::vector<double> &vy,
                           int64_t step, const std::array<std::vector<double>, 2> &built_at,
                           const std::vector<int32_t> &ids) {
    flush_kick(); // clears the buffers of a pending step (advance() leaves none)
    if (domain_) {
        for (const auto *v : {&x, &y, &vx, &vy})
            if (int64_t(v->size()) != n_)
                throw std::invalid_argument("md2d: state arrays need " + std::to_string(n_) +
                                            " values, got " + std::to_string(v->size()));
        std::vector<double> ox = x, oy = y, ovx = vx, ovy = vy;
        domain_->keep_owned(ox, oy, ovx, ovy);
        domain_->invalidate();
        n_local_ = int64_t(ox.size());
        for (Array *a : {&fx_, &fy_, &pe_, &vir_})
            *a = zeros(size_t(n_local_), real_, backend_);
        x_ = device_array(ox);
        y_ = device_array(oy);
        vx_ = device_array(ovx);
        vy_ = device_array(ovy);
    } else {
        x_ = device_array(x);
        y_ = device_array(y);
        vx_ = device_array(vx);
        vy_ = device_array(vy);
        std::vector<int32_t> id = ids;
        if (id.empty()) {
            id.resize(size_t(n_));
            for (size_t k = 0; k < id.size(); ++k)
                id[k] = int32_t(k);
        }
        std::vector<bool> seen(size_t(n_), false);
        if (int64_t(id.size()) != n_) seen.clear();
        for (int32_t k : id) {
            if (seen.empty() || k < 0 || k >= n_ || seen[size_t(k)])
                throw std::invalid_argument("md2d: particle ids must be a permutation of 0.." +
                                            std::to_string(n_ - 1));
            seen[size_t(k)] = true;
        }
        reordered_ = !std::is_sorted(id.begin(), id.end());
        id_ = Array::from_vector(id, backend_);
    }
    step_ = step;
    neighbors_.invalidate();
    // A domain's list is built over its ghosts at its first update (built_at is a serial run's).
    if (!domain_ && !built_at[0].empty() && config_.neighbor.rebuild == Rebuild::Displacement)
        neighbors_.build({device_array(built_at[0]), device_array(built_at[1])});
    compute_forces();
}

int64_t Simulation::dof() const {
    return degrees_of_freedom(n_, 2, config_.periodic());
}

void Simulation::compute_forces() {
    compute_forces_and_kick(0.0);
}

void Simulation::compute_forces_and_kick(double dt) {
    flush_kick();
    forces_and_kick(dt, false, false);
}

void Simulation::forces_and_kick(double dt, bool defer, bool tested) {
    const auto box = config_.box();
    const int32_t periodic = local_periodic();
    const auto &pot = config_.potential;
    const double rc2 = pot.r_cut * pot.r_cut;
    const int32_t shift = pot.shift ? 1 : 0;
    if (domain_) {
        update_domain();
    } else if (tested) {
        // The joined launch did the test and has finished (a CPU launch returns when it is
        // done): the flag decides the list, then the forces run on it.
        neighbors_.start_flag_read();
        neighbors_.finish_update({x_, y_});
    } else {
        neighbors_.update({x_, y_});
    }
    if (newton_) {
        // Half list (one rank only): each pair once into the chunks' buffers, then their sums
        // (newton.py). A deferred step's energies are never read: its pass skips them.
        newton_pass(!defer);
        energies_current_ = !defer;
        if (defer) {
            // joined_kicks_: the next step's launch sums the buffers and kicks.
            kick_pending_ = true;
            return;
        }
        if (dt != 0.0 && newton_sum_kick_) {
            // The sums and the closing half-kick in one launch: one OpenMP region less a step.
            newton_sum_kick(dt);
            return;
        }
        newton_->sum_into({fx_, fy_, pe_, vir_});
    } else {
        // With a domain: the owned particles' forces from the positions with ghosts.
        const Array &x = domain_ ? domain_->ext()[0] : x_, &y = domain_ ? domain_->ext()[1] : y_;
        forces_(n_local_, {x, y, fx_, fy_, pe_, vir_, neighbors_.start(), neighbors_.count(),
                           neighbors_.indices(), neighbors_.stride(), box[0], box[1], periodic,
                           pot.epsilon, pot.sigma, rc2, shift});
    }
    if (walls_)
        (*walls_)({x_, y_, fx_, fy_, pe_, box[0], box[1], config_.system.wall_stiffness,
                   config_.system.wall_range});
    if (dt != 0.0) kick_({vx_, vy_, fx_, fy_, config_.system.mass, dt});
}

void Simulation::newton_pass(bool energy) {
    const auto box = config_.box();
    const auto &pot = config_.potential;
    newton_->prepare(neighbors_);
    const std::vector<Array> &b = newton_->buffers();
    (*newton_forces_)(newton_->chunks(), {x_,
                                          y_,
                                          b[0],
                                          b[1],
                                          b[2],
                                          b[3],
                                          newton_->range_lo(),
                                          newton_->offsets(),
                                          int32_t(n_),
                                          newton_->chunks(),
                                          int32_t(energy ? 1 : 0),
                                          neighbors_.start(),
                                          neighbors_.count(),
                                          neighbors_.indices(),
                                          neighbors_.entry_rows(),
                                          box[0],
                                          box[1],
                                          local_periodic(),
                                          pot.epsilon,
                                          pot.sigma,
                                          pot.r_cut * pot.r_cut,
                                          int32_t(pot.shift ? 1 : 0)});
}

void Simulation::newton_sum_kick(double dt) {
    const std::vector<Array> &b = newton_->buffers();
    (*newton_sum_kick_)(newton_->chunks(),
                        {fx_, fy_, pe_, vir_, b[0], b[1], b[2], b[3], newton_->range_lo(),
                         newton_->range_hi(), newton_->offsets(), int32_t(n_), newton_->chunks(),
                         vx_, vy_, config_.system.mass, dt});
}

void Simulation::flush_kick(double dt) {
    if (!kick_pending_) return;
    kick_pending_ = false;
    // The pending pass ran without energies: its sums are the forces alone.
    const std::vector<Array> &b = newton_->buffers();
    (*newton_sum_forces_kick_)(newton_->chunks(),
                               {fx_, fy_, b[0], b[1], newton_->range_lo(), newton_->range_hi(),
                                newton_->offsets(), int32_t(n_), newton_->chunks(), vx_, vy_,
                                config_.system.mass, dt});
}

void Simulation::ensure_energies() {
    if (energies_current_) return;
    // The energies and virials of the current forces: a pass with them on the same list and
    // positions (the last force pass's: nothing moved since), whose force sums are the same bits.
    newton_pass(true);
    newton_->sum_into({fx_, fy_, pe_, vir_});
    energies_current_ = true;
}

bool Simulation::joined_kick_drift(double dt, bool may_test) {
    const auto box = config_.box();
    // The list's displacement test in the same launch, where the list has one to test against
    // (built, Displacement rule); the flag's stand-in and the positions as x0 where it has none.
    const bool test = may_test && neighbors_.can_test_ahead();
    const std::vector<Array> &x0 = test ? neighbors_.build_positions() : std::vector<Array>{x_, y_};
    if (no_flag_.is_null()) no_flag_ = zeros(1, DType::Int32, backend_);
    const std::vector<Array> &b = newton_->buffers();
    (*joined_kicks_)(newton_->chunks(), {x_,
                                         y_,
                                         vx_,
                                         vy_,
                                         b[0],
                                         b[1],
                                         newton_->range_lo(),
                                         newton_->range_hi(),
                                         newton_->offsets(),
                                         int32_t(n_),
                                         newton_->chunks(),
                                         config_.system.mass,
                                         dt,
                                         box[0],
                                         box[1],
                                         local_periodic(),
                                         int32_t(test ? 1 : 0),
                                         x0[0],
                                         x0[1],
                                         neighbors_.rebuild_limit2(),
                                         test ? neighbors_.stale_flag() : no_flag_});
    return test;
}

void Simulation::step_one(bool defer) {
    const auto box = config_.box();
    const double m = config_.system.mass, dt = config_.integrator.dt;
    // At fixed steps, not at list rebuilds: a restarted run then reorders where the
    // uninterrupted one did, from the same state (restarts stay bit-identical).
    const int64_t every = config_.neighbor.sort_interval;
    if (permute_real_ && every > 0 && step_ % every == 0) reorder_by_cell();
    bool tested = false;
    if (kick_pending_) {
        tested = joined_kick_drift(dt, true);
        kick_pending_ = false;
    } else {
        kick_drift_({x_, y_, vx_, vy_, fx_, fy_, m, dt, box[0], box[1], local_periodic()});
    }
    forces_and_kick(dt, defer, tested);
    ++step_;
}

void Simulation::step() {
    flush_kick();
    step_one(false);
}

void Simulation::advance(int64_t steps, const std::function<bool()> &stop) {
    // Nothing observes the state between these steps (the run loop samples, writes and
    // checkpoints after the last): each leaves its sums and kick to the next, and the last's
    // are done below.
    for (int64_t k = 0; k < steps; ++k) {
        if (k > 0 && stop()) break;
        step_one(joined_kicks_.has_value());
    }
    // The last step done, completed; its energies when something asks (ensure_energies).
    flush_kick();
}

void Simulation::compile_kernels() {
    const auto box = config_.box();
    const double m = config_.system.mass;
    kick_drift_({x_, y_, vx_, vy_, fx_, fy_, m, 0.0, box[0], box[1], local_periodic()});
    kick_({vx_, vy_, fx_, fy_, m, 0.0});
    // The rebuild check (after the first build); a domain's runs on the extended positions.
    if (!domain_) (void)neighbors_.max_displacement2({x_, y_});
    if (joined_kicks_) {
        // A force pass whose sums the joined launch does, with a kick and a drift by dt = 0: the
        // same forces (the same positions and list), the state unchanged. Then one whose sums
        // and kick (dt = 0) end an advance(), and the energies again.
        forces_and_kick(0.0, true, false);
        joined_kick_drift(0.0, false);
        kick_pending_ = false;
        forces_and_kick(0.0, true, false);
        flush_kick(0.0);
        ensure_energies();
    }
    if (permute_real_) {
        // The gathers into the scratch arrays, which are not swapped in: the state stays.
        const Array &order = neighbors_.cell_order({x_, y_});
        (*permute_real_)({order, x_, real_tmp_});
        (*permute_int_)({order, id_, int_tmp_});
    }
    (void)observables();
}

Observables Simulation::observables() {
    ensure_energies();
    Observables o;
    o.ke = ke_({vx_, vy_, config_.system.mass}).as<double>();
    o.pe = pe_sum_({pe_}).as<double>();
    o.virial = virial_({vir_}).as<double>();
    if (domain_) {
        const std::vector<double> g = mpi::sum_in_rank_order({o.ke, o.pe, o.virial});
        o = {g[0], g[1], g[2]};
    }
    return o;
}

ThermoSample Simulation::thermo() {
    Observables o = observables();
    const auto box = config_.box();
    ThermoSample s;
    s.step = step_;
    s.time = time();
    s.pe = o.pe;
    s.ke = o.ke;
    s.etotal = o.pe + o.ke;
    s.temperature = temperature_from_ke(o.ke, dof());
    s.pressure = virial_pressure(o.ke, o.virial, box[0] * box[1], 2);
    return s;
}

Box Simulation::box() const {
    return {{config_.box()[0], config_.box()[1]}, config_.periodic(), {}};
}

std::vector<Field> Simulation::frame() {
    ensure_energies();
    if (domain_) return gathered_frame();
    std::vector<Field> f;
    f.push_back(Field::vector("position", {host(x_), host(y_)}).with_unit("sigma"));
    f.push_back(Field::vector("velocity", {host(vx_), host(vy_)}).with_unit("sigma tau-1"));
    f.push_back(Field::vector("force", {host(fx_), host(fy_)}).with_unit("epsilon sigma-1"));
    // Each pair's energy split equally between its two particles: they sum to pe.
    f.push_back(Field::reals("potential_energy", {host(pe_)}).with_unit("epsilon"));
    return f;
}

Checkpoint Simulation::save() {
    if (domain_) return gathered_save();
    Checkpoint ck;
    // In device order with the ids, so that a restart continues with the same order and sums
    // the forces in the same order.
    ck.put("x", device_order(x_));
    ck.put("y", device_order(y_));
    ck.put("vx", device_order(vx_));
    ck.put("vy", device_order(vy_));
    const std::vector<int32_t> id = id_.to_vector<int32_t>();
    ck.put("id", std::vector<int64_t>(id.begin(), id.end()));
    // The positions of the last list build (device order), so a restart rebuilds the same list.
    const std::vector<Array> &built = neighbors_.build_positions();
    if (built.size() == 2) {
        ck.put("x_list", device_order(built[0]));
        ck.put("y_list", device_order(built[1]));
    }
    return ck;
}

void Simulation::restore(const Checkpoint &ck) {
    // Checked in this order, so the message names the first entry that does not fit.
    const auto &x = ck.get<double>("x", n_);
    const auto &y = ck.get<double>("y", n_);
    const auto &vx = ck.get<double>("vx", n_);
    const auto &vy = ck.get<double>("vy", n_);
    // Checkpoints written before they held the list's build positions: a fresh build.
    std::array<std::vector<double>, 2> built_at;
    if (ck.has("x_list")) built_at = {ck.get<double>("x_list", n_), ck.get<double>("y_list", n_)};
    // Checkpoints of runs that never reordered, or written before md2d reordered: identity.
    std::vector<int32_t> ids;
    if (ck.has("id")) {
        const auto &v = ck.get<int64_t>("id", n_);
        for (int64_t k : v)
            if (k < 0 || k >= n_)
                throw CheckpointError(ck.source + ": entry 'id' holds " + std::to_string(k) +
                                      ", outside 0.." + std::to_string(n_ - 1));
        ids.assign(v.begin(), v.end());
    }
    if (domain_ && !ids.empty()) {
        // A domain takes the state in id order.
        std::vector<double> sx(x.size()), sy(x.size()), svx(x.size()), svy(x.size());
        std::vector<bool> seen(x.size(), false);
        for (size_t k = 0; k < ids.size(); ++k) {
            const auto d = size_t(ids[k]);
            if (seen[d])
                throw CheckpointError(ck.source +
                                      ": entry 'id': particle ids must be a "
                                      "permutation of 0.." +
                                      std::to_string(n_ - 1));
            seen[d] = true;
            sx[d] = x[k];
            sy[d] = y[k];
            svx[d] = vx[k];
            svy[d] = vy[k];
        }
        set_state(sx, sy, svx, svy, ck.step);
        return;
    }
    try {
        set_state(x, y, vx, vy, ck.step, built_at, ids);
    } catch (const std::invalid_argument &e) {
        throw CheckpointError(ck.source + ": entry 'id': " + e.what());
    }
}

std::vector<std::string> Simulation::summary() const {
    std::vector<std::string> items = {std::to_string(neighbors_.builds()) + " neighbour builds"};
    if (domain_) items.push_back(domain_summary());
    return items;
}

} // namespace smelt::apps::md2d
