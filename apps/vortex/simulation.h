// vortex's state and its time step, as the kit's Stepper (apps/common/stepper.h): the arrays on
// the engine's backend, physics.py's kernels as engine primitives (built once), the velocity
// evaluation by Elementwise (every backend) or the tiled Kernel (OpenCL, CUDA), and the stage
// sequences of the four integrators (apps/vortex/README.md, "Integrators"). No physics here:
// every number is computed by a kernel of physics.py; this file only decides what runs when.
#pragma once

#include "common/stepper.h"
#include "smelt.h"
#include "vortex/config.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace smelt::apps::vortex {

// circulation, impulse_x, impulse_y, angular_impulse, hamiltonian (H5MD: the same names).
std::vector<ObservableColumn> observable_columns();

// physics.py's module constants that fix `velocity`'s case at compile time: FIXED_REGULARISATION
// and FIXED_PERIODIC, the values the kernels' regularisation and periodic arguments get.
std::map<std::string, smelt::ConstantValue> velocity_constants(const PhysicsConfig &physics);

// `physics` (parsed from its file, whose path is its name()) again, with velocity_constants():
// the Program the driver makes its velocity Elementwise from, so that the pair loop holds only
// this configuration's branch (physics.py, FIXED_REGULARISATION).
smelt::Program specialised_physics(const smelt::Program &physics, const PhysicsConfig &config);

class Simulation : public Stepper {
public:
    // Builds every primitive (they compile on first use). UsageError when the backend is not
    // available (or, for the tiled path, has no work-groups). The state is empty until
    // initialize(), set_state() or restore().
    Simulation(const VortexConfig &config, const smelt::Program &physics);

    // Replaces the state (n host values each, converted to the run's precision), sets the step
    // index and takes the output box's extent from these positions.
    void set_state(const std::vector<double> &x, const std::vector<double> &y,
                   const std::vector<double> &gamma, int64_t step = 0);

    // One velocity evaluation V(p, q) into u, v (the configured path).
    void evaluate(const smelt::Array &p, const smelt::Array &q);
    // u, v = V(x, y) (reusing the last evaluation when the positions have not moved since).
    void evaluate_at_positions();

    // Stepper.
    int64_t n() const override { return n_; }
    int64_t step_index() const override { return step_; }
    double time() const override { return double(step_) * config_.integrator.dt; }
    // [L or the initial x extent, the initial y extent]; periodic along x when periodic_x.
    Box box() const override;
    void initialize() override; // make_initial_state()
    void compile_kernels() override;
    void step() override;
    std::vector<ObservableColumn> columns() const override { return observable_columns(); }
    std::vector<double> sample() override;
    // position, velocity (V at the frame's positions) and circulation.
    std::vector<Field> frame() override;
    // x, y, gamma (as double: single precision widens and narrows back exactly) and the box.
    Checkpoint save() override;
    void restore(const Checkpoint &checkpoint) override;
    // Velocity evaluations since compile_kernels() and pair interactions per second over that
    // time (N^2 per evaluation).
    std::vector<std::string> summary() const override;

    const VortexConfig &config() const { return config_; }
    bool tiled() const { return velocity_tiled_.has_value(); }
    int64_t evaluations() const { return evaluations_; }

    // Host copies as double (single-precision arrays are widened).
    std::vector<double> host(const smelt::Array &a) const;
    const smelt::Array &x() const { return x_; }
    const smelt::Array &y() const { return y_; }
    const smelt::Array &gamma() const { return gamma_; }
    const smelt::Array &u() const { return u_; }
    const smelt::Array &v() const { return v_; }

private:
    smelt::Array device_array(const std::vector<double> &v) const;
    // The kernels' physics arguments: regularisation, delta, periodic, period.
    int32_t regularisation() const { return int32_t(config_.physics.regularisation); }
    int32_t periodic() const { return config_.physics.periodic_x ? 1 : 0; }

    VortexConfig config_;
    smelt::Options options_;
    smelt::Backend *backend_;
    smelt::DType real_;
    int64_t n_ = 0;
    int64_t step_ = 0;
    std::array<double, 2> box_edges_{0.0, 0.0};
    smelt::Array x_, y_, gamma_, u_, v_, xs_, ys_, au_, av_;
    bool velocity_current_ = false; // u, v = V(x, y) for the current x, y
    int64_t evaluations_ = 0;
    std::chrono::steady_clock::time_point compiled_at_;

    // physics.py specialised to this run's kernel case (specialised_physics), parsed once for
    // both velocity paths.
    smelt::Program velocity_physics_;
    smelt::Elementwise velocity_, euler_step_, stage_position_, stage_first_, stage_next_,
        stage_finish_;
    std::optional<smelt::Kernel> velocity_tiled_;
    smelt::Reduction circulation_, impulse_x_, impulse_y_, angular_impulse_, hamiltonian_;
};

} // namespace smelt::apps::vortex
