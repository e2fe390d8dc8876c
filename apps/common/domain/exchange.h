// Point-to-point exchange with a neighbour rank: one message out, one in, paired so that a whole
// grid shifting data in one direction never deadlocks (MPI_Sendrecv). Host memory only (device
// data is staged through the host by the caller).
#pragma once

#include <cstddef>
#include <vector>

namespace smelt::apps::mpi {

// Sends `out` to rank `dest` and returns what rank `source` sent with the same tag; -1 for
// either means no partner on that side (nothing sent, nothing received). Sizes travel first.
std::vector<char> sendrecv(const std::vector<char> &out, int dest, int source, int tag);

// The same with sizes both sides already know (a halo refresh: the counts of the last build):
// one message each way. `in` must hold `in_bytes`; a wrong size from the partner is an error.
void sendrecv_known(const char *out, size_t out_bytes, int dest, char *in, size_t in_bytes,
                    int source, int tag);

} // namespace smelt::apps::mpi
