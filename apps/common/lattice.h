// Initial states: 2D particle positions on a lattice or at random with a minimum spacing, and
// velocities for a temperature with zero total momentum. Deterministic for a given seed on every
// platform (std::mt19937_64 with our own transforms, see random.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::apps {

enum class LatticeKind { Square, Triangular, Random };

// What to build. Give the size as `n` or as `nx` x `ny` lattice cells (n = 0), and the scale as
// `density` (particles per unit area) or `spacing` (nearest-neighbour distance; density = 0).
struct LatticeSpec {
    LatticeKind kind = LatticeKind::Square;
    int64_t n = 0;
    int64_t nx = 0, ny = 0;
    double density = 0.0;
    double spacing = 0.0;
    double min_spacing = 0.9; // random: no two particles closer than this
    // The box [0, Lx] x [0, Ly]. When absent it is the lattice region times box_scale, with the
    // region centred in it.
    std::optional<std::array<double, 2>> box;
    double box_scale = 1.0;
    bool periodic = true;
    uint64_t seed = 1;
};

// A spec that cannot be built. `key` names the spec field at fault ("n", "cells", "density",
// "spacing", "min_spacing", "box") so a config reader can point at the right line.
class LatticeError : public std::runtime_error {
public:
    LatticeError(std::string key, const std::string &message)
        : std::runtime_error(message), key_(std::move(key)) {}
    const std::string &key() const { return key_; }

private:
    std::string key_;
};

// The geometry a spec resolves to, without placing particles (cheap; used to validate configs).
//   square:      sites ((i + 1/2) a, (j + 1/2) a), region nx a x ny a, density 1 / a^2
//   triangular:  rows h = a sqrt(3)/2 apart, odd rows shifted by a/2, region nx a x ny h,
//                density 2 / (sqrt(3) a^2); a periodic box needs an even number of rows
//   random:      a square region of area n / density
// With `n` given, the lattice is nx x ny with nx ~ sqrt(n) (region close to square), filled row
// by row; the last row may be partial.
struct LatticePlan {
    int64_t n = 0;
    int64_t nx = 0, ny = 0;         // lattice cells (0 for random)
    double spacing = 0.0;           // lattice constant (min_spacing for random)
    std::array<double, 2> region{}; // the area the particles fill
    std::array<double, 2> box{};
    std::array<double, 2> origin{}; // lower-left corner of the region in the box
    bool periodic_region = false;   // the region is the whole periodic box
};

LatticePlan plan_lattice(const LatticeSpec &spec);

struct Positions2D {
    std::vector<double> x, y;
    std::array<double, 2> box{};
};

// Throws LatticeError (random: when n particles cannot be placed with min_spacing).
Positions2D make_positions(const LatticeSpec &spec);

// Velocities for `dim` components of n particles of mass m: Gaussian, total momentum exactly
// removed, then scaled so that sum m v^2 = dof * temperature (i.e. 2 KE / dof = temperature).
// temperature 0, n < 2 or dof 0 give all zeros. Returns dim arrays of length n.
std::vector<std::vector<double>> make_velocities(int dim, int64_t n, double temperature,
                                                 double mass, int64_t dof, uint64_t seed);

} // namespace smelt::apps
