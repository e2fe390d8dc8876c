// md3d's steps joined at their ends (apps/md3d/README.md, "Steps joined at their ends"):
// within advance(), a step's force sums (the GPU lanes' or the CPU Newton chunks') and its
// closing half-kick run in the next step's opening launch, which also does the list's
// displacement test. The step itself is in simulation.cpp.
#include "md3d/simulation.h"

namespace smelt::apps::md3d {

void Simulation::advance(int64_t steps, const std::function<bool()> &stop) {
    for (int64_t k = 0; k < steps; ++k) {
        if (k > 0 && stop()) {
            flush_kick(); // the last step done, completed
            return;
        }
        step_one(join_kicks_ && k + 1 < steps);
    }
}

void Simulation::flush_kick() {
    if (!kick_pending_) return;
    kick_pending_ = false;
    if (newton_)
        newton_sum_kick(config_.integrator.dt);
    else
        sum_lanes_kick(false, config_.integrator.dt);
}

void Simulation::sum_lanes_kick(bool energies, double dt) {
    (*sum_lanes_kick_)(n_local_, {vel_[0], vel_[1], vel_[2], force_[0], force_[1], force_[2], pe_,
                                  vir_, lane_parts_[0], lane_parts_[1], lane_parts_[2],
                                  lane_parts_[3], lane_parts_[4], int32_t(neighbors_.spec().lanes),
                                  int32_t(energies ? 1 : 0), typ_, mass_, dt});
}

void Simulation::newton_sum_kick(double dt) {
    const std::vector<Array> &b = newton_->buffers();
    (*newton_sum_kick_)(newton_->chunks(),
                        {force_[0], force_[1], force_[2], b[0], b[1], b[2], newton_->range_lo(),
                         newton_->range_hi(), newton_->offsets(), int32_t(n_local_),
                         newton_->chunks(), vel_[0], vel_[1], vel_[2], typ_, mass_, dt});
}

bool Simulation::joined_kick_drift(double dt, bool may_test) {
    const auto &box = config_.system.box;
    // The list's displacement test in the same launch, where the list has one to test against
    // (otherwise the arguments are placeholders the kernel does not read).
    const bool test = may_test && neighbors_.can_test_ahead();
    const std::vector<Array> &x0 =
        test ? neighbors_.build_positions() : std::vector<Array>{pos_[0], pos_[1], pos_[2]};
    if (fresh_.is_null()) fresh_ = zeros(1, DType::Int32, backend_);
    const Array &stale = test ? neighbors_.stale_flag() : fresh_;
    std::vector<smelt::Arg> args = {pos_[0], pos_[1],   pos_[2],   vel_[0],  vel_[1],
                                    vel_[2], force_[0], force_[1], force_[2]};
    // Then what the sums read: the Newton chunks' buffers and ranges, or the lanes' parts.
    int64_t items = n_local_;
    if (newton_) {
        const std::vector<Array> &b = newton_->buffers();
        args.insert(args.end(), {b[0], b[1], b[2], newton_->range_lo(), newton_->range_hi(),
                                 newton_->offsets(), int32_t(n_local_), newton_->chunks()});
        items = newton_->chunks();
    } else {
        args.insert(args.end(), {pe_, vir_, lane_parts_[0], lane_parts_[1], lane_parts_[2],
                                 lane_parts_[3], lane_parts_[4], int32_t(neighbors_.spec().lanes)});
    }
    args.insert(args.end(), {img_[0], img_[1], img_[2], typ_, mass_, dt, box[0], box[1], box[2],
                             local_periodic_, int32_t(test ? 1 : 0), x0[0], x0[1], x0[2],
                             neighbors_.rebuild_limit2(), stale});
    (*joined_kicks_)(items, args);
    return test;
}

} // namespace smelt::apps::md3d
