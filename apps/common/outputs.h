// The output files of a run (H5MD, VTK, CSV + console, checkpoint), opened at the start (created,
// or resumed after a restart) and closed valid however the run ends. Used by the run loop.
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

    void sample(Stepper &stepper);
    void frame(Stepper &stepper);
    // The stepper's state to <prefix>_checkpoint.h5 (through a temporary file and a rename).
    void checkpoint(Stepper &stepper);
    bool checkpoints() const { return !checkpoint_path_.empty(); }
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
};

} // namespace smelt::apps
