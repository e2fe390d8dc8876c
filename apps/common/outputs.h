// The output files of a run (H5MD, VTK, CSV + console, checkpoint), opened at the start (created,
// or resumed after a restart) and closed valid however the run ends. Used by the run loop.
//
// In an MPI job (domain/mpi_env.h) every rank makes an Outputs and calls the same functions (the
// stepper's frame, sample and save are collective: they gather on rank 0), but only rank 0
// writes files; the returned "not finite" text is rank 0's on every rank.
#pragma once

#include "common/h5md_writer.h"
#include "common/observables.h"
#include "common/run_config.h"
#include "common/run_loop.h"
#include "common/vtk_writer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace smelt::apps {

class Outputs {
public:
    // `resume_step`: a restart at that step (the files are continued, see run_loop.h).
    // The paths of the files it writes are added to `files`.
    Outputs(const RunConfig &config, Stepper &stepper, const RunOptions &options,
            std::optional<int64_t> resume_step, std::vector<std::string> &files);

    // Each returns the first value it wrote that is not finite, as "kinetic_energy = inf" (a
    // blown-up state; "" when every value is finite), so the run loop can stop there.
    std::string sample(Stepper &stepper);
    std::string frame(Stepper &stepper);
    // The stepper's state to <prefix>_checkpoint.h5 (through a temporary file and a rename);
    // a state that is not finite is not written (a checkpoint to restart from must be sound).
    std::string checkpoint(Stepper &stepper);
    bool checkpoints() const { return checkpoints_; }
    void close();

private:
    std::string app_;
    std::string config_yaml_;
    std::vector<ObservableColumn> columns_;
    std::unique_ptr<H5mdWriter> h5md_;
    std::string xdmf_path_; // "" = no XDMF sidecar
    std::optional<VtkWriter> vtk_;
    std::unique_ptr<ObservableLog> log_;
    std::string checkpoint_path_;
    bool frames_ = false;      // the config asks for frames (H5MD or VTK), on every rank
    bool checkpoints_ = false; // the config asks for checkpoints, on every rank
};

} // namespace smelt::apps
