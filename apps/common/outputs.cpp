#include "common/outputs.h"

#include "common/domain/mpi_env.h"
#include "common/xdmf_sidecar.h"
#include "smelt.h"

#include <cmath>
#include <filesystem>

namespace smelt::apps {

namespace fs = std::filesystem;

Outputs::Outputs(const RunConfig &config, Stepper &stepper, const RunOptions &options,
                 std::optional<int64_t> resume_step, std::vector<std::string> &files)
    : app_(options.app), config_yaml_(config.source.text), columns_(stepper.columns()) {
    const OutputConfig &o = config.output;
    frames_ = o.h5md || o.vtk;
    checkpoints_ = o.checkpoint;
    if (!mpi::is_root()) {
        log_ = std::make_unique<ObservableLog>(nullptr, "", columns_, resume_step);
        return;
    }
    fs::create_directories(o.directory);
    const Box box = stepper.box();
    const int dim = int(box.edges.size());
    if (o.h5md) {
        H5mdOptions h;
        h.n = stepper.n();
        h.dim = dim;
        h.box_edges = box.edges;
        h.periodic = box.periodic;
        h.periodic_axes = box.periodic_axes;
        h.creator = "smelt " + options.app;
        h.creator_version = SMELT_VERSION;
        h.config_yaml = config.source.text;
        if (!options.units.empty()) h.units = options.units;
        h.unit_names = options.h5md_units;
        const std::string path = h5md_path(o);
        if (resume_step && fs::exists(path))
            h5md_ = std::make_unique<H5mdWriter>(path, h, *resume_step);
        else
            h5md_ = std::make_unique<H5mdWriter>(path, h);
        files.push_back(path);
        if (o.xdmf) {
            xdmf_path_ = (fs::path(o.directory) / (o.prefix + ".xdmf")).string();
            write_xdmf_sidecar(path, xdmf_path_);
            files.push_back(xdmf_path_);
        }
    }
    if (o.vtk) {
        vtk_.emplace(o.directory, o.prefix, dim, resume_step);
        files.push_back(vtk_->pvd_path());
    }
    std::string csv;
    if (o.csv) {
        csv = csv_path(o);
        files.push_back(csv);
    }
    log_ = std::make_unique<ObservableLog>(options.console, csv, columns_, resume_step);
    if (o.checkpoint) {
        checkpoint_path_ = checkpoint_path(o);
        files.push_back(checkpoint_path_);
    }
}

namespace {

std::string not_finite(const std::string &name, double v) {
    return name + " = " + (std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

} // namespace

std::string Outputs::sample(Stepper &stepper) {
    ObservableSample s{stepper.step_index(), stepper.time(), stepper.sample()};
    log_->write(s);
    if (h5md_) h5md_->write_observables(columns_, s);
    for (size_t k = 0; k < s.values.size() && k < columns_.size(); ++k)
        if (!std::isfinite(s.values[k])) return not_finite(columns_[k].h5md_name, s.values[k]);
    return "";
}

std::string Outputs::frame(Stepper &stepper) {
    if (!frames_) return "";
    FrameData f;
    f.step = stepper.step_index();
    f.time = stepper.time();
    f.fields = stepper.frame();
    if (!mpi::is_root()) return mpi::broadcast("");
    f.box_edges = stepper.box().edges;
    if (h5md_) h5md_->write_frame(f);
    if (!xdmf_path_.empty()) write_xdmf_sidecar(h5md_->path(), xdmf_path_);
    if (vtk_) vtk_->write_frame(f);
    for (const Field &field : f.fields)
        for (size_t d = 0; d < field.real.size(); ++d)
            for (size_t i = 0; i < field.real[d].size(); ++i)
                if (!std::isfinite(field.real[d][i]))
                    return mpi::broadcast(
                        not_finite(field.name + "[" + std::to_string(i) + "]" +
                                       (field.real.size() > 1 ? "." + std::string(1, "xyz"[d % 3])
                                                              : std::string()),
                                   field.real[d][i]));
    return mpi::broadcast("");
}

std::string Outputs::checkpoint(Stepper &stepper) {
    if (!checkpoints_) return "";
    Checkpoint ck = stepper.save();
    if (!mpi::is_root()) return mpi::broadcast("");
    for (const auto &[name, values] : ck.entries())
        if (const auto *reals = std::get_if<std::vector<double>>(&values))
            for (double v : *reals)
                if (!std::isfinite(v))
                    return mpi::broadcast(not_finite("the checkpoint's " + name, v));
    ck.app = app_;
    ck.step = stepper.step_index();
    ck.time = stepper.time();
    ck.config_yaml = config_yaml_;
    write_checkpoint(checkpoint_path_, ck);
    return mpi::broadcast("");
}

void Outputs::close() {
    log_->close();
    if (h5md_) h5md_->close();
}

} // namespace smelt::apps
