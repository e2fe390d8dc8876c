// The interface between an app's physics and the kit's run loop (run_loop.h). An app implements
// a Stepper over its state (arrays on the engine's backend, its kernels as primitives); the run
// loop decides when to step, sample, write frames and checkpoints, and draws the progress.
#pragma once

#include "common/checkpoint.h"
#include "common/frame.h"
#include "common/observables.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace smelt::apps {

// The simulation box: [0, edges[d]) per axis.
struct Box {
    std::vector<double> edges; // one per axis: the dimension is edges.size()
    bool periodic = true;      // false: closed (walls), stored as H5MD boundary "none"
    // Per-axis periodicity (a box periodic along some axes only); empty: every axis `periodic`.
    std::vector<bool> periodic_axes;

    bool axis_periodic(size_t axis) const {
        return periodic_axes.empty() ? periodic : bool(periodic_axes.at(axis));
    }
};

class Stepper {
public:
    virtual ~Stepper() = default;

    virtual int64_t n() const = 0;          // particles
    virtual int64_t step_index() const = 0; // steps done since the start of the simulation
    virtual double time() const = 0;        // simulated time at step_index()
    virtual Box box() const = 0;

    // The config's initial state at step 0 (not called when a run restarts from a checkpoint).
    virtual void initialize() = 0;
    // Compiles every kernel of a step, leaving the state unchanged, so the timed loop measures
    // steps only. Called once, after initialize() or restore().
    virtual void compile_kernels() = 0;
    // Advances the state by one step.
    virtual void step() = 0;
    // Advances the state by up to `steps` steps that nothing observes in between: the run
    // loop samples, writes and checkpoints only after the last of them. An app may then carry
    // work over a step's end (md3d joins a step's closing half-kick with the next one's opening
    // kick); the state after each call is what as many calls of step() leave, bit for bit.
    // `stop` is asked before every step after the first: once it says true, advance() returns
    // with the steps done so far (step_index() tells how many).
    virtual void advance(int64_t steps, const std::function<bool()> &stop) {
        for (int64_t k = 0; k < steps && (k == 0 || !stop()); ++k)
            step();
    }
    void advance(int64_t steps) {
        advance(steps, [] { return false; });
    }

    // The columns sample() fills (fixed for a run) and their values at the current step.
    virtual std::vector<ObservableColumn> columns() const = 0;
    virtual std::vector<double> sample() = 0;
    // The per-particle fields of a trajectory frame; at least a spatial "position".
    virtual std::vector<Field> frame() = 0;

    // The state as named entries (the run loop fills app, step, time and the config text), and
    // back. restore() sets step_index() and time() from the checkpoint; it throws
    // CheckpointError naming the entry when the checkpoint does not fit this run (another
    // particle count, a missing array).
    virtual Checkpoint save() = 0;
    virtual void restore(const Checkpoint &checkpoint) = 0;

    // Extra items for the run's final line ("12 neighbour builds"); none by default.
    virtual std::vector<std::string> summary() const { return {}; }
};

} // namespace smelt::apps
