// ParaView output: one VTK XML PolyData file (.vtp) per frame with the particles as vertices,
// point data `velocity` (3 components; z = 0 in 2D) and `id`, plus a `.pvd` collection listing
// every frame with its time. The .pvd is rewritten (atomically, via rename) after each frame, so
// it is valid whenever the run stops. Needs VTK (SMELT_WITH_VTK); without it the constructor
// throws std::runtime_error.
#pragma once

#include "frame.h"

#include <string>
#include <utility>
#include <vector>

namespace smelt::apps {

class VtkWriter {
public:
    // Creates `directory` if needed. Frames are <prefix>_<step, 9 digits>.vtp, the index
    // <prefix>.pvd.
    VtkWriter(std::string directory, std::string prefix, int dim = 2);

    void write_frame(const Frame &frame);

    std::string pvd_path() const;
    std::string frame_path(int64_t step) const;
    static bool available(); // built with VTK

    // The collection file for (time, file name) entries.
    static std::string pvd_text(const std::vector<std::pair<double, std::string>> &entries);

private:
    std::string directory_;
    std::string prefix_;
    int dim_;
    std::vector<std::pair<double, std::string>> entries_;
};

} // namespace smelt::apps
