// md2d on several MPI ranks: the glue between md2d's Simulation and the kit's domain
// decomposition (apps/common/domain/), as md3d/domain.h is md3d's. The grid of ranks is the
// kit's CartGrid with one rank along z ([nx, ny, 1]); halos carry x and y (gather_xy).
//
// A rank owns the particles of its sub-box (x, y, vx, vy and their ids). For the force loop it
// keeps ghost-extended copies of the positions (owned particles first, then the ghosts of
// common/domain/halo.h), over which the Simulation's neighbour list is built. md2d's kernels
// take one periodic flag for both axes, so on a periodic box the halo also holds the periodic
// images along an axis that is not cut (Halo::build's periodic_images): every pair is then a
// plain difference, and the kernels run with periodic = 0 on every rank.
//
// Between rebuilds positions are not wrapped (a particle may stand up to skin/2 outside its
// sub-box and outside [0, L)): owned and ghost coordinates stay in one frame. At a rebuild
// rebuild() wraps them (wrap_positions), migrates the particles to their owners and rebuilds
// the halo. The outputs wrap on the host.
#pragma once

#include "common/domain/cart_grid.h"
#include "common/domain/device_pack.h"
#include "common/domain/halo.h"
#include "common/neighbor_list.h"
#include "md2d/config.h"
#include "smelt.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace smelt::apps::md2d {

class Md2dDomain {
public:
    // This rank's part of the grid (domain_dims over mpi::size()). `physics` is md2d's program
    // (wrap_positions; it locates halo.py).
    Md2dDomain(const Md2dConfig &config, const smelt::Program &physics,
               const smelt::Options &options);

    const domain::CartGrid &grid() const { return grid_; }
    // Keeps the particles of the global state (x, y, vx, vy, n each; particle k has id k) that
    // this rank owns, in their order, and loads their ids. Positions need not be wrapped.
    void keep_owned(std::vector<double> &x, std::vector<double> &y, std::vector<double> &vx,
                    std::vector<double> &vy);

    // The next needs_rebuild() answers true (the state was replaced).
    void invalidate() { stale_ = true; }
    // Loads the owned positions into the extended arrays and decides, over all ranks, whether
    // the neighbour list must be rebuilt (stale, every_step, or a displacement past skin / 2 on
    // any rank). Collective.
    bool needs_rebuild(const smelt::Array &x, const smelt::Array &y, int64_t n, NeighborList &list);
    // Wraps the owned positions into the box (periodic), migrates `owned` (x, y first; the ids
    // go along) and rebuilds the halo; returns the new owned count. Collective.
    int64_t rebuild(const std::vector<smelt::Array *> &owned, int64_t n);
    // Sends the owned positions loaded by needs_rebuild() to the neighbours' ghosts. Collective.
    void refresh() { halo_.refresh(pack_, ext_); }

    // x and y of the owned particles, then the ghosts.
    const std::array<smelt::Array, 2> &ext() const { return ext_; }
    // The ids of the owned particles (int32).
    const smelt::Array &ids() const { return id_; }
    int64_t total() const { return halo_.total(); }
    const domain::Halo &halo() const { return halo_; }

private:
    Md2dConfig config_;
    domain::CartGrid grid_;
    domain::DevicePack pack_;
    std::unique_ptr<domain::DeviceLink> link_;
    domain::Halo halo_;
    smelt::Elementwise wrap_;
    std::array<smelt::Array, 2> ext_;
    smelt::Array id_;
    bool stale_ = true;
};

// The neighbour-list geometry on a rank of a domain decomposition: no minimum image, no wrapped
// cells (the ghosts carry the images).
NeighborListSpec local_neighbor_spec(const Md2dConfig &config);

} // namespace smelt::apps::md2d
