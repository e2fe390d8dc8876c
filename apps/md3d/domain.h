// md3d on several MPI ranks: the glue between md3d's Simulation and the kit's domain
// decomposition (apps/common/domain/). A rank owns the particles of its sub-box; for the force
// loop it keeps ghost-extended copies of the positions and types (owned particles first, then
// the ghosts of apps/common/domain/halo.h), over which the Simulation's neighbour list is built.
//
// Between rebuilds, positions are not wrapped along decomposed axes (a particle may stand up to
// skin/2 outside its sub-box, and outside [0, L)): owned and ghost coordinates then stay in one
// frame. At a rebuild the Simulation wraps (every periodic axis), migrate() sends the particles
// to their owners, and the halo is rebuilt. The outputs wrap on the host, as wrap_positions does.
//
// After each list build, split() sorts the owned particles into interior (their list rows hold
// no ghost) and boundary (common/domain/interior_split.h). Between rebuilds the Simulation can
// then refresh the halo in parts (refresh_out, refresh_exchange, refresh_in) and compute the
// interior's forces while the messages are in flight (Simulation::overlapped_forces).
#pragma once

#include "common/domain/cart_grid.h"
#include "common/domain/device_pack.h"
#include "common/domain/halo.h"
#include "common/domain/interior_split.h"
#include "common/neighbor_list.h"
#include "md3d/config.h"
#include "md3d/initial_state.h"
#include "smelt.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace smelt::apps::md3d {

class Md3dDomain {
public:
    // This rank's part of the grid (domain_dims over mpi::size()). `physics` locates halo.py.
    Md3dDomain(const Md3dConfig &config, const smelt::Program &physics,
               const smelt::Options &options);

    const domain::CartGrid &grid() const { return grid_; }
    // The periodic mask of pairs, neighbour search and the drift's wrap: decomposed axes cleared.
    int32_t local_mask() const { return local_mask_; }
    // The particles of the global state `s` (ids `ids`) that this rank owns, in their order.
    void keep_owned(HostState &s, std::vector<int32_t> &ids) const;

    // The next needs_rebuild() answers true (the state was replaced).
    void invalidate() { stale_ = true; }
    // Loads the owned positions into the extended arrays and decides, over all ranks, whether
    // the neighbour list must be rebuilt (stale, every_step, or a displacement past skin / 2 on
    // any rank). Collective.
    bool needs_rebuild(const std::array<smelt::Array, 3> &pos, int64_t n, NeighborList &list);
    // A rebuild in two parts, so that the owned particles can be reordered in between:
    // migrate() sends `owned` (x, y, z first; the type among them) to their owners and returns
    // the new owned count (the caller has wrapped the positions); build_halo() then rebuilds the
    // halo around the owned particles as they stand. Both collective.
    int64_t migrate(const std::vector<smelt::Array *> &owned, int64_t n);
    void build_halo(const std::array<smelt::Array, 3> &pos, const smelt::Array &typ, int64_t n);
    // Sends the owned positions loaded by needs_rebuild() to the neighbours' ghosts. Collective.
    void refresh() { halo_.refresh(pack_, ext_); }
    // refresh() in the three parts of Halo::refresh_out / refresh_exchange / refresh_in.
    void refresh_out() { halo_.refresh_out(pack_, ext_); }
    void refresh_exchange() { halo_.refresh_exchange(); }
    void refresh_in() { halo_.refresh_in(pack_, ext_); }
    // Splits the owned particles by whether `list` (just built over ext()) gives them a ghost.
    void split(const NeighborList &list) { split_.build(list, halo_.owned()); }
    const domain::InteriorSplit &interior_split() const { return split_; }

    const std::array<smelt::Array, 3> &ext() const { return ext_; }
    const smelt::Array &ext_typ() const { return ext_typ_; }
    int64_t total() const { return halo_.total(); }
    const domain::Halo &halo() const { return halo_; }
    // Whether the halo refresh goes device to device (domain.transport; device_link.h).
    bool linked() const { return link_ != nullptr; }

private:
    Md3dConfig config_;
    domain::CartGrid grid_;
    int32_t local_mask_ = 7;
    smelt::Program halo_kernels_; // apps/common/kernels/halo.py
    domain::DevicePack pack_;
    std::unique_ptr<domain::DeviceLink> link_;
    domain::Halo halo_;
    domain::InteriorSplit split_;
    std::array<smelt::Array, 3> ext_;
    smelt::Array ext_typ_;
    bool stale_ = true;
};

// wrap_coord and image_shift of apps/common/kernels/box.py on the host (common/domain/cart_grid.h).
using domain::wrap_on_host;

} // namespace smelt::apps::md3d
