// Trajectories and observables in H5MD 1.1 (https://www.nongnu.org/h5md/), readable by h5py,
// MDAnalysis, VMD's h5md plugin:
//
//   /h5md                       @version = [1, 1]
//     author                    @name
//     creator                   @name, @version
//   /particles/all/box          @dimension, @boundary = "periodic" or "none" per axis
//     edges                     [dim] double
//   /particles/all/<field>      one per frame field (frame.h): value [frames, N, components]
//                               ([frames, N] for a one-component field that is not spatial),
//                               float64 or int64 (chunked, extendable), step [frames] int64,
//                               time [frames] double; "position" is always there
//   /observables/<name>         value [frames], step, time (md2d: potential_energy,
//                               kinetic_energy, total_energy, temperature, pressure)
//   /parameters                 @config_yaml (the run's configuration text), @units
//
// The file is flushed after every frame and every observable sample, so a run that is
// interrupted leaves a readable file; the destructor closes it. A restarted run opens the file of
// the run it continues and appends (the resume constructor).
#pragma once

#include "frame.h"
#include "observables.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace smelt::apps {

struct H5mdOptions {
    int64_t n = 0; // particles (>= 1)
    int dim = 2;
    std::vector<double> box_edges; // dim entries
    bool periodic = true;
    std::vector<bool> periodic_axes; // per axis; empty: every axis `periodic`
    std::string author = "smelt";
    std::string creator = "smelt";
    std::string creator_version = "0";
    std::string config_yaml;
    std::string units = "reduced Lennard-Jones units (sigma, epsilon, m, tau)";
};

class H5mdWriter {
public:
    // Creates the file, replacing one that is there: built as "<path>.tmp" and renamed over
    // `path`, so a file that another run or program holds open (locked) is never truncated (that
    // is an error instead). Errors throw std::runtime_error naming the path.
    H5mdWriter(const std::string &path, const H5mdOptions &options);
    // Opens an existing file for appending (a restart at `resume_step`): every frame and
    // observable entry at steps >= resume_step is dropped, later writes continue after the
    // rest. The file keeps its own author, creator and parameters. std::runtime_error when the
    // file is not an H5MD file of this writer's dimension, particle count and box.
    H5mdWriter(const std::string &path, const H5mdOptions &options, int64_t resume_step);
    ~H5mdWriter();
    H5mdWriter(const H5mdWriter &) = delete;
    H5mdWriter &operator=(const H5mdWriter &) = delete;

    // Appends every field of the frame at frame.step / frame.time (check_frame() rules; a field
    // keeps its name, type and component count for the whole file).
    void write_frame(const FrameData &frame);
    // Appends one value to /observables/<name> (created on first use).
    void write_observable(const std::string &name, int64_t step, double time, double value);
    // One value per column, to /observables/<column.h5md_name>.
    void write_observables(const std::vector<ObservableColumn> &columns,
                           const ObservableSample &sample);
    void flush();
    void close();

    int64_t frames() const; // position frames in the file
    const std::string &path() const { return path_; }

private:
    struct Impl;
    std::string path_;
    std::unique_ptr<Impl> impl_;
};

} // namespace smelt::apps
