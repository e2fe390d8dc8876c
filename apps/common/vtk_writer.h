// ParaView and OVITO output: one VTK XML PolyData file (.vtp) per frame with the particles as
// vertices (the frame's "position" field; z = 0 in 2D), `id` and every other frame field as
// point data (spatial fields padded to 3 components, integer fields as Int64; "species" is named
// "type", the name OVITO maps to particle types) and no field data (OVITO's format detection
// fails on it), plus a `.pvd` collection listing every frame with its time and the box
// outline as its own file <prefix>_box.vtp (lines; written again when the box changes). The box
// is not a part of the .pvd: OVITO reads every DataSet of a .pvd as one frame. Data are base64
// inside the XML, uncompressed: OVITO reads neither compressed nor appended data. Each .vtp is
// written to a temporary name and renamed, and the .pvd is rewritten the same way after each
// frame (atomic_file.h), so a run that stops at any moment leaves whole frames and a valid
// index, never a truncated file. Needs VTK (SMELT_WITH_VTK); without it the constructor throws
// std::runtime_error.
#pragma once

#include "frame.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace smelt::apps {

class VtkWriter {
public:
    // Creates `directory` if needed. Frames are <prefix>_<step, 9 digits>.vtp, the index
    // <prefix>.pvd. With `resume_step` (a restart) the existing index keeps its frames of steps
    // < resume_step (the files of the later ones are deleted) and new frames are added to it.
    VtkWriter(std::string directory, std::string prefix, int dim = 2,
              std::optional<int64_t> resume_step = std::nullopt);

    void write_frame(const FrameData &frame);

    std::string pvd_path() const;
    std::string frame_path(int64_t step) const;
    std::string box_path() const; // <prefix>_box.vtp
    // The point-data name of a frame field ("species" -> "type").
    static std::string point_data_name(const std::string &field);
    static bool available(); // built with VTK

    // The collection file for (time, file name) entries.
    static std::string pvd_text(const std::vector<std::pair<double, std::string>> &entries);
    // The entries of a collection file (pvd_text's format).
    static std::vector<std::pair<double, std::string>> pvd_entries(const std::string &text);

private:
    void write_pvd() const;
    void write_box(const std::vector<double> &edges) const;

    std::string directory_;
    std::string prefix_;
    int dim_;
    std::vector<std::pair<double, std::string>> entries_;
    std::vector<double> box_written_;
};

} // namespace smelt::apps
