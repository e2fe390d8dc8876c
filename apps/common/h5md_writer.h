// Trajectories and observables in H5MD 1.1 (https://www.nongnu.org/h5md/), readable by h5py,
// MDAnalysis (3D; see apps/README.md "Reading the outputs"), pyh5md, VMD's h5md plugin:
//
//   /h5md                       @version = [1, 1]
//     author                    @name (fixed-length string, as every H5MD attribute below)
//     creator                   @name, @version
//     modules/units             @version = [1, 0], @system (when the app has a unit system)
//   /particles/all/box          @dimension, @boundary = "periodic" or "none" per axis
//     edges                     value [frames, dim, dim] double: the box of every frame (H5MD's
//                               time-dependent box) as the matrix of its edge vectors (diagonal;
//                               the form MDAnalysis reads), step and time hard links to position's
//   /particles/all/id           [N] int64: 0..N-1, the particles' identity (they keep their order)
//   /particles/all/<field>      one per frame field (frame.h): value [frames, N, components]
//                               ([frames, N] for a one-component field that is not spatial),
//                               float64 or int64 (chunked, extendable), @unit on value except
//                               for position, velocity, force (MDAnalysis refuses units it does
//                               not know, reduced LJ ones among them); "position" owns step
//                               [frames] int64 and time [frames] double (no @unit, for the same
//                               reason), every other field hard-links them (H5MD asks this of
//                               image and box)
//   /observables/<name>         value [samples], step, time (@unit on both): their own clock
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
    H5mdUnits unit_names = H5mdUnits::lennard_jones(); // the units module and @unit attributes
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

    // Appends every field of the frame and the box (frame.box_edges, else the options' box) at
    // frame.step / frame.time (check_frame() rules; the fields are those of the first frame for
    // the whole file, with their names, types and component counts; "id" is the writer's).
    void write_frame(const FrameData &frame);
    // Appends one value to /observables/<name> (created on first use, with `unit`).
    void write_observable(const std::string &name, int64_t step, double time, double value,
                          const std::string &unit = "");
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
