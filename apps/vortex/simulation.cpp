#include "vortex/simulation.h"

#include "backends/registry.h"
#include "common/kernel_file.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace smelt::apps::vortex {

std::vector<ObservableColumn> observable_columns() {
    return {{"circulation", "circulation", 16, 9, 'g'},
            {"impulse_x", "impulse_x", 16, 9, 'g'},
            {"impulse_y", "impulse_y", 16, 9, 'g'},
            {"angular_impulse", "angular_impulse", 16, 9, 'g'},
            {"hamiltonian", "hamiltonian", 19, 12, 'g'}};
}

std::map<std::string, smelt::ConstantValue> velocity_constants(const PhysicsConfig &physics) {
    return {{"FIXED_REGULARISATION", int(physics.regularisation)},
            {"FIXED_PERIODIC", physics.periodic_x ? 1 : 0}};
}

smelt::Program specialised_physics(const smelt::Program &physics, const PhysicsConfig &config) {
    return load_kernel_program(physics.name(), velocity_constants(config));
}

namespace {

smelt::Reduction sum_of(const smelt::Program &physics, const char *map,
                        const smelt::Options &options) {
    return smelt::Reduction(&physics, "a+b", map, DType::Float64, "0", options);
}

} // namespace

Simulation::Simulation(const VortexConfig &config, const smelt::Program &physics)
    : config_(config), options_(engine_options(config)), backend_(&backend_of(options_)),
      real_(config.precision == Precision::Single ? DType::Float32 : DType::Float64),
      n_(config.n()), velocity_physics_(specialised_physics(physics, config.physics)),
      velocity_(velocity_physics_, "velocity", options_),
      euler_step_(physics, "euler_step", options_),
      stage_position_(physics, "stage_position", options_),
      stage_first_(physics, "stage_first", options_), stage_next_(physics, "stage_next", options_),
      stage_finish_(physics, "stage_finish", options_),
      circulation_(sum_of(physics, "circulation_map", options_)),
      impulse_x_(sum_of(physics, "impulse_x_map", options_)),
      impulse_y_(sum_of(physics, "impulse_y_map", options_)),
      angular_impulse_(sum_of(physics, "angular_impulse_map", options_)),
      hamiltonian_(sum_of(physics, "hamiltonian_map", options_)) {
    if (config.evaluation.tiled)
        velocity_tiled_.emplace(velocity_physics_, "velocity_tiled", options_);
    const auto n = static_cast<size_t>(n_);
    for (Array *a : {&x_, &y_, &gamma_, &u_, &v_, &xs_, &ys_, &au_, &av_})
        *a = zeros(n, real_, backend_);
}

Array Simulation::device_array(const std::vector<double> &v) const {
    if (static_cast<int64_t>(v.size()) != n_)
        throw std::invalid_argument("vortex: state arrays need " + std::to_string(n_) +
                                    " values, got " + std::to_string(v.size()));
    if (real_ == DType::Float64) return Array::from_vector(v, backend_);
    return Array::from_vector(std::vector<float>(v.begin(), v.end()), backend_);
}

std::vector<double> Simulation::host(const Array &a) const {
    if (a.dtype() == DType::Float64) return a.to_vector<double>();
    auto f = a.to_vector<float>();
    return std::vector<double>(f.begin(), f.end());
}

void Simulation::set_state(const std::vector<double> &x, const std::vector<double> &y,
                           const std::vector<double> &gamma, int64_t step) {
    x_ = device_array(x);
    y_ = device_array(y);
    gamma_ = device_array(gamma);
    step_ = step;
    velocity_current_ = false;
    auto extent = [](const std::vector<double> &v) {
        if (v.empty()) return 0.0;
        auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        return *hi - *lo;
    };
    box_edges_ = {config_.physics.periodic_x ? config_.physics.period : extent(x), extent(y)};
}

void Simulation::initialize() {
    InitialState s;
    try {
        s = make_initial_state(config_);
    } catch (const InitialFileError &e) { // the file changed since the config was checked
        fail_at_path(config_.source, "initial." + e.key(), e.what());
    }
    if (s.size() != n_)
        fail_at_path(config_.source, "initial.path",
                     "the file now holds " + std::to_string(s.size()) + " vortices, not " +
                         std::to_string(n_));
    set_state(s.x, s.y, s.gamma);
}

void Simulation::evaluate(const Array &p, const Array &q) {
    const PhysicsConfig &ph = config_.physics;
    const double period = config_.kernel_period();
    if (velocity_tiled_) {
        const int64_t t = config_.evaluation.tile;
        const int64_t global = (n_ + t - 1) / t * t;
        const auto local = static_cast<size_t>(t);
        (*velocity_tiled_)(global, t,
                           {p, q, gamma_, u_, v_, smelt::LocalMem(local), smelt::LocalMem(local),
                            smelt::LocalMem(local), int32_t(n_), regularisation(), ph.delta,
                            periodic(), period});
    } else {
        velocity_(
            {p, q, gamma_, u_, v_, int32_t(n_), regularisation(), ph.delta, periodic(), period});
    }
    ++evaluations_;
}

void Simulation::evaluate_at_positions() {
    if (velocity_current_) return;
    evaluate(x_, y_);
    velocity_current_ = true;
}

void Simulation::step() {
    const double dt = config_.integrator.dt;
    // k1 = V(x, y), already there when a frame was written at this step.
    evaluate_at_positions();
    switch (config_.integrator.kind) {
    case Integrator::Euler:
        euler_step_({x_, y_, u_, v_, dt});
        break;
    case Integrator::Rk2:
        stage_position_({x_, y_, u_, v_, xs_, ys_, 0.5 * dt});
        evaluate(xs_, ys_);
        euler_step_({x_, y_, u_, v_, dt});
        break;
    case Integrator::Heun:
        stage_first_({x_, y_, u_, v_, xs_, ys_, au_, av_, dt});
        evaluate(xs_, ys_);
        stage_finish_({x_, y_, u_, v_, au_, av_, 1.0, 0.5 * dt});
        break;
    case Integrator::Rk4:
        stage_first_({x_, y_, u_, v_, xs_, ys_, au_, av_, 0.5 * dt});
        evaluate(xs_, ys_);
        stage_next_({x_, y_, u_, v_, xs_, ys_, au_, av_, 2.0, 0.5 * dt});
        evaluate(xs_, ys_);
        stage_next_({x_, y_, u_, v_, xs_, ys_, au_, av_, 2.0, dt});
        evaluate(xs_, ys_);
        stage_finish_({x_, y_, u_, v_, au_, av_, 1.0, dt / 6.0});
        break;
    }
    velocity_current_ = false;
    ++step_;
}

void Simulation::compile_kernels() {
    // Every kernel once on arrays of one vortex (the same specialisations as the run's arrays,
    // none of the run's O(N^2) cost), so the state and u, v stay as they are.
    auto one = [&] { return zeros(1, real_, backend_); };
    Array a = one(), b = one(), c = one(), d = one(), e = one(), f = one(), g = one(), h = one();
    const PhysicsConfig &ph = config_.physics;
    const double period = config_.kernel_period();
    if (velocity_tiled_) {
        const auto t = static_cast<size_t>(config_.evaluation.tile);
        (*velocity_tiled_)(int64_t(t), int64_t(t),
                           {a, b, c, d, e, smelt::LocalMem(t), smelt::LocalMem(t),
                            smelt::LocalMem(t), int32_t(1), regularisation(), ph.delta, periodic(),
                            period});
    } else {
        velocity_({a, b, c, d, e, int32_t(1), regularisation(), ph.delta, periodic(), period});
    }
    euler_step_({a, b, c, d, 0.0});
    stage_position_({a, b, c, d, e, f, 0.0});
    stage_first_({a, b, c, d, e, f, g, h, 0.0});
    stage_next_({a, b, c, d, e, f, g, h, 2.0, 0.0});
    stage_finish_({a, b, c, d, g, h, 1.0, 0.0});
    (void)circulation_({a, b, c}).as<double>();
    (void)impulse_x_({a, b, c}).as<double>();
    (void)impulse_y_({a, b, c}).as<double>();
    (void)angular_impulse_({a, b, c}).as<double>();
    (void)hamiltonian_({a, b, c, int32_t(1), regularisation(), ph.delta, periodic(), period})
        .as<double>();
    evaluations_ = 0;
    compiled_at_ = std::chrono::steady_clock::now();
}

std::vector<double> Simulation::sample() {
    const PhysicsConfig &ph = config_.physics;
    return {circulation_({x_, y_, gamma_}).as<double>(), impulse_x_({x_, y_, gamma_}).as<double>(),
            impulse_y_({x_, y_, gamma_}).as<double>(),
            angular_impulse_({x_, y_, gamma_}).as<double>(),
            hamiltonian_({x_, y_, gamma_, int32_t(n_), regularisation(), ph.delta, periodic(),
                          config_.kernel_period()})
                .as<double>()};
}

Box Simulation::box() const {
    Box b;
    b.edges = {box_edges_[0], box_edges_[1]};
    b.periodic = config_.physics.periodic_x;
    b.periodic_axes = {config_.physics.periodic_x, false};
    return b;
}

std::vector<Field> Simulation::frame() {
    evaluate_at_positions();
    return {Field::vector("position", {host(x_), host(y_)}),
            Field::vector("velocity", {host(u_), host(v_)}),
            Field::reals("circulation", {host(gamma_)})};
}

Checkpoint Simulation::save() {
    Checkpoint ck;
    ck.put("x", host(x_));
    ck.put("y", host(y_));
    ck.put("gamma", host(gamma_));
    ck.put("box", std::vector<double>{box_edges_[0], box_edges_[1]});
    return ck;
}

void Simulation::restore(const Checkpoint &ck) {
    // Checked in this order, so the message names the first entry that does not fit.
    const auto &x = ck.get<double>("x", n_);
    const auto &y = ck.get<double>("y", n_);
    const auto &gamma = ck.get<double>("gamma", n_);
    const auto &box = ck.get<double>("box", 2);
    set_state(x, y, gamma, ck.step);
    box_edges_ = {box[0], box[1]}; // the first run's: the output files continue with it
}

std::vector<std::string> Simulation::summary() const {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - compiled_at_).count();
    const double pairs = double(n_) * double(n_) * double(evaluations_);
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.4g pairs/s", seconds > 0 ? pairs / seconds : 0.0);
    return {std::to_string(evaluations_) + " velocity evaluations (" +
                (velocity_tiled_ ? "tiled, T = " + std::to_string(config_.evaluation.tile)
                                 : std::string("elementwise")) +
                ")",
            rate};
}

} // namespace smelt::apps::vortex
