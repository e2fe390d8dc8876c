// The lattice keys of an app's system section, read into a LatticeSpec (lattice.h):
//
//   lattice: square        2D: square | triangular | random;  3D: sc | bcc | fcc | random
//   n: 4096                the number of particles, or
//   cells: [64, 64]        lattice cells [nx, ny] (3D: [nx, ny, nz]); not for random
//   density: 0.7           particles per unit area (volume), or
//   spacing: 1.2           the lattice constant; not for random (an app may name this key
//                          otherwise: md3d's is lattice_constant)
//   min_spacing: 0.9       random only: the smallest pair distance (default 0.9)
//   box: [40, 40]          explicit box edges (default: the lattice region, see box_scale)
//
// box_scale, the boundary and the seed are the app's keys (their defaults depend on it).
#pragma once

#include "common/config_yaml.h"
#include "common/lattice.h"

namespace smelt::apps {

// Reads the keys above from `system` (`dim` = 2 or 3) into spec.dim, kind, n, nx, ny, nz,
// density, spacing, min_spacing and box; ConfigError located at the key for a bad value or a
// forbidden combination (both n and cells, both density and spacing, cells or spacing with
// random, min_spacing without it). `spacing_key` is the config's name of the lattice constant.
void parse_lattice_keys(const ConfigNode &system, int dim, LatticeSpec &spec,
                        std::string_view spacing_key = "spacing");

// The LatticeSpec kind a config name stands for (a name parse_lattice_keys accepted).
LatticeKind lattice_kind(const std::string &name);

} // namespace smelt::apps
