// Reading one frame back from an H5MD file (h5md_writer.h's layout, or any H5MD 1.1 file with
// /particles/all/position), for apps that start from a stored state (md3d's system.from_file).
//
//   H5mdFrame f = read_h5md_frame("out/md3d/md3d.h5", -1);     // the last frame
//   const Field *v = f.data.find("velocity");                   // null when the file has none
#pragma once

#include "frame.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::apps {

struct H5mdFrame {
    int64_t n = 0;                   // particles
    int dim = 0;                     // /particles/all/box@dimension
    std::vector<double> box_edges;   // dim entries
    std::vector<bool> periodic_axes; // @boundary per axis: "periodic" or "none"
    int64_t frames = 0;              // position frames in the file
    int64_t index = 0;               // the frame read, counted from 0
    // Its step and time, and every /particles/all/<name> time series stored at that step (real
    // fields as doubles, integer ones as integers; [N, k] values give k components), plus the
    // time-independent /particles/all/<name> datasets of N values.
    FrameData data;
};

// A frame index the file does not have (what() names the path, the index and the frame count),
// so that a caller can report it against its own `frame` setting.
class H5mdFrameRangeError : public std::runtime_error {
public:
    H5mdFrameRangeError(const std::string &message, int64_t frame, int64_t frames)
        : std::runtime_error(message), frame_(frame), frames_(frames) {}
    int64_t frame() const { return frame_; }   // as asked (negative: from the end)
    int64_t frames() const { return frames_; } // frames in the file
private:
    int64_t frame_, frames_;
};

// Frame `frame` of the file (negative: from the end, -1 the last). H5mdFrameRangeError for a
// frame out of range; std::runtime_error naming the path and what is wrong for anything else (no
// such file, not H5MD, no position, ...), also when this build has no HDF5.
H5mdFrame read_h5md_frame(const std::string &path, int64_t frame);

// The value of the scalar observable /observables/<name> at `step`; empty when the file has no
// such observable or no sample at that step.
std::optional<double> read_h5md_observable(const std::string &path, const std::string &name,
                                           int64_t step);

} // namespace smelt::apps
