// The owned particles of a rank split by what their force loop reads: a boundary particle's
// neighbour row holds a ghost (an index >= the owned count), an interior particle's holds owned
// particles only. The interior's forces can then run before the ghosts' coordinates of a halo
// refresh have arrived, the boundary's after (md3d's overlap of the refresh with the forces).
//
// Made at each neighbour-list build (the rows change only there): one Scan of reads_ghost /
// split_compact (apps/common/kernels/halo.py) over the owned rows, which compacts both index
// lists in increasing index order. A particle's forces are computed by the same function over
// the same row in the same order whichever list launches it, so the split changes no bits.
#pragma once

#include "common/neighbor_list.h"
#include "smelt.h"

#include <cstdint>

namespace smelt::apps::domain {

class InteriorSplit {
public:
    // `halo`: apps/common/kernels/halo.py. The Scan compiles on first use.
    InteriorSplit(const smelt::Program &halo, const smelt::Options &options);

    // Splits the rows 0 .. n_owned - 1 of `list` (built over the owned particles and then the
    // ghosts). Reads one count back (waits for the device).
    void build(const NeighborList &list, int64_t n_owned);

    // int32 indices, increasing; the arrays may be longer than the counts.
    const smelt::Array &interior() const { return interior_; }
    const smelt::Array &boundary() const { return boundary_; }
    int64_t interior_count() const { return n_owned_ - n_boundary_; }
    int64_t boundary_count() const { return n_boundary_; }

private:
    smelt::Backend *backend_;
    smelt::Scan split_;
    smelt::Array interior_, boundary_, n_boundary_array_;
    int64_t n_owned_ = 0, n_boundary_ = 0;
};

} // namespace smelt::apps::domain
