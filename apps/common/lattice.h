// Initial states: particle positions on a lattice or at random with a minimum spacing, in 2D and
// 3D, and velocities for a temperature with zero total momentum. Deterministic for a given seed
// on every platform (std::mt19937_64 with our own transforms, see random.h).
//
//   2D  square      sites ((i + 1/2) a, (j + 1/2) a); density 1 / a^2; nearest neighbours 4 at a
//       triangular  rows h = a sqrt(3)/2 apart, rows alternately shifted by a/4 and 3a/4;
//                   density 2 / (sqrt(3) a^2); 6 neighbours at a; a periodic box needs an even
//                   number of rows
//   3D  sc          1 site per cubic cell of edge a; density 1 / a^3; 6 neighbours at a
//       bcc         2 sites per cell (corner, body centre); density 2 / a^3; 8 at a sqrt(3)/2
//       fcc         4 sites per cell (corner, face centres); density 4 / a^3; 12 at a / sqrt(2)
//       (cubic sites sit at (i + 1/2) a for sc and (i + 1/4 + basis) a for bcc and fcc, so the
//       pattern is centred in its region)
//   random          uniform in a square / cube of area (volume) n / density, no two particles
//                   closer than min_spacing (random sequential placement)
//
// The size is `n` particles or nx x ny (x nz) lattice cells; the scale is `density` or the
// lattice constant `spacing` (a: the square / triangular nearest-neighbour distance, the cubic
// cell edge). With `n`, the cells are about square / cubic and filled cell by cell (row by row
// in 2D), so the last row / layer may be partial. The box is the lattice region times box_scale
// (region centred), or `box` given explicitly; a periodic box that equals the region makes the
// lattice periodic (box = cells * a).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::apps {

enum class LatticeKind {
    Square,
    Triangular,
    SimpleCubic,
    BodyCentredCubic,
    FaceCentredCubic,
    Random,
};

// The dimension of a lattice kind (2 or 3; 0 for Random, which takes the spec's).
int lattice_dim(LatticeKind kind);
// Sites per lattice cell: 1 (square, triangular, sc), 2 (bcc), 4 (fcc); 0 for Random.
int sites_per_cell(LatticeKind kind);
// "square", "triangular", "sc", "bcc", "fcc", "random".
const char *to_string(LatticeKind kind);

// What to build. Give the size as `n` or as nx x ny (x nz) cells (n = 0), and the scale as
// `density` (particles per unit area / volume) or `spacing` (the lattice constant; density = 0).
struct LatticeSpec {
    int dim = 2; // 2 or 3; a lattice kind must be of this dimension
    LatticeKind kind = LatticeKind::Square;
    int64_t n = 0;
    int64_t nx = 0, ny = 0, nz = 0; // nz only in 3D
    double density = 0.0;
    double spacing = 0.0;
    double min_spacing = 0.9; // random: no two particles closer than this
    // The box [0, L) per axis (dim edges). When absent it is the lattice region times
    // box_scale, with the region centred in it.
    std::optional<std::vector<double>> box;
    double box_scale = 1.0;
    bool periodic = true;
    uint64_t seed = 1;
};

// A spec that cannot be built. `key` names the spec field at fault ("n", "cells", "density",
// "spacing", "min_spacing", "box", "box_scale", "lattice") so a config reader can point at the
// right line.
class LatticeError : public std::runtime_error {
public:
    LatticeError(std::string key, const std::string &message)
        : std::runtime_error(message), key_(std::move(key)) {}
    const std::string &key() const { return key_; }

private:
    std::string key_;
};

// The geometry a spec resolves to, without placing particles (cheap; used to validate configs).
// Arrays hold dim entries; the rest are 0.
struct LatticePlan {
    int dim = 2;
    int64_t n = 0;
    int64_t nx = 0, ny = 0, nz = 0; // lattice cells (0 for random; nz 0 in 2D)
    int basis = 0;                  // sites per cell (0 for random)
    double spacing = 0.0;           // lattice constant (min_spacing for random)
    std::array<double, 3> region{}; // the part of the box the particles fill
    std::array<double, 3> box{};
    std::array<double, 3> origin{}; // lower corner of the region in the box
    bool periodic_region = false;   // the region is the whole periodic box
};

LatticePlan plan_lattice(const LatticeSpec &spec);

struct Positions {
    std::vector<double> x, y, z; // z empty in 2D
    std::array<double, 3> box{};
};

// Throws LatticeError (random: when n particles cannot be placed with min_spacing).
Positions make_positions(const LatticeSpec &spec);

// Velocities for `dim` components of n particles of mass m: Gaussian, total momentum exactly
// removed, then scaled so that sum m v^2 = dof * temperature (i.e. 2 KE / dof = temperature).
// temperature 0, n < 2 or dof 0 give all zeros. Returns dim arrays of length n.
std::vector<std::vector<double>> make_velocities(int dim, int64_t n, double temperature,
                                                 double mass, int64_t dof, uint64_t seed);

// The same for particles of different masses (one per particle): each component Gaussian with
// variance temperature / m_i, less the centre-of-mass velocity sum m v / sum m (total momentum
// exactly removed), then scaled so that sum m v^2 = dof * temperature. temperature 0, fewer than
// 2 particles or dof 0 give all zeros.
std::vector<std::vector<double>> make_velocities(int dim, const std::vector<double> &masses,
                                                 double temperature, int64_t dof, uint64_t seed);

} // namespace smelt::apps
