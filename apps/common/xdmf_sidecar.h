// An XDMF 3 sidecar for an H5MD file: <prefix>.xdmf, XML that points into the .h5 (no data
// copied), so ParaView's and VisIt's XDMF readers open the trajectory in place: a temporal
// collection with one grid per frame (Time = the frame's time), the particles as a Polyvertex
// topology, position as the geometry (XYZ, or XY in 2D) and every other per-particle element of
// /particles/all as a point attribute (scalars, vectors; other component counts as matrices),
// each a HyperSlab selecting the frame's row of the element's value dataset.
#pragma once

#include <string>

namespace smelt::apps {

// The sidecar text for the H5MD file at `h5_path`, naming it as `h5_name` (a path relative to
// the sidecar: the file name when both are in one folder); no grids before the file's first
// frame. std::runtime_error when the file is not H5MD with /particles/all/box, or this build has
// no HDF5.
std::string xdmf_sidecar_text(const std::string &h5_path, const std::string &h5_name);

// Writes xdmf_sidecar_text() to `xdmf_path` through a temporary file and a rename, so the
// sidecar is valid whenever a run stops.
void write_xdmf_sidecar(const std::string &h5_path, const std::string &xdmf_path);

} // namespace smelt::apps
