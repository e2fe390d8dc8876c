// Trajectories and observables in H5MD 1.1 (https://www.nongnu.org/h5md/), readable by h5py,
// MDAnalysis, VMD's h5md plugin:
//
//   /h5md                       @version = [1, 1]
//     author                    @name
//     creator                   @name, @version
//   /particles/all/box          @dimension, @boundary = ["periodic", ...] or ["none", ...]
//     edges                     [dim] double
//   /particles/all/position     value [frames, N, dim] (chunked, extendable), step [frames] int64,
//   /particles/all/velocity     time [frames] double (velocity: same layout)
//   /observables/<name>         value [frames], step, time (potential_energy, kinetic_energy,
//                               total_energy, temperature, pressure)
//   /parameters                 @config_yaml (the run's configuration text), @units
//
// The file is flushed after every frame and every thermo sample, so a run that is interrupted
// leaves a readable file; the destructor closes it.
#pragma once

#include "frame.h"
#include "thermo.h"

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
    std::string author = "smelt";
    std::string creator = "smelt md2d";
    std::string creator_version = "0";
    std::string config_yaml;
    std::string units = "reduced Lennard-Jones units (sigma, epsilon, m, tau)";
    bool velocity = true; // also store particles/all/velocity
};

class H5mdWriter {
public:
    // Creates (truncates) the file; errors throw std::runtime_error naming the path.
    H5mdWriter(const std::string &path, const H5mdOptions &options);
    ~H5mdWriter();
    H5mdWriter(const H5mdWriter &) = delete;
    H5mdWriter &operator=(const H5mdWriter &) = delete;

    // Appends positions (and velocities) of all particles at frame.step / frame.time.
    void write_frame(const Frame &frame);
    // Appends one value to /observables/<name> (created on first use).
    void write_observable(const std::string &name, int64_t step, double time, double value);
    // The five thermo observables of a sample.
    void write_thermo(const ThermoSample &sample);
    void flush();
    void close();

    int64_t frames() const;
    const std::string &path() const { return path_; }

private:
    struct Impl;
    std::string path_;
    std::unique_ptr<Impl> impl_;
};

} // namespace smelt::apps
