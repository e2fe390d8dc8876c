// Point-to-point exchange with a neighbour rank: one message out, one in, paired so that a whole
// grid shifting data in one direction never deadlocks (MPI_Sendrecv). Host memory only (device
// data is staged through the host by the caller).
#pragma once

#include <vector>

namespace smelt::apps::mpi {

// Sends `out` to rank `dest` and returns what rank `source` sent with the same tag; -1 for
// either means no partner on that side (nothing sent, nothing received). Sizes travel first.
std::vector<char> sendrecv(const std::vector<char> &out, int dest, int source, int tag);

} // namespace smelt::apps::mpi
