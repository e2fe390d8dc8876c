#include "common/domain/exchange.h"

#include <cstdint>
#include <stdexcept>

#if SMELT_APPS_HAVE_MPI
#include <mpi.h>
#endif

namespace smelt::apps::mpi {

std::vector<char> sendrecv(const std::vector<char> &out, int dest, int source, int tag) {
#if SMELT_APPS_HAVE_MPI
    const int to = dest < 0 ? MPI_PROC_NULL : dest;
    const int from = source < 0 ? MPI_PROC_NULL : source;
    int64_t n_out = int64_t(out.size()), n_in = 0;
    MPI_Sendrecv(&n_out, 1, MPI_INT64_T, to, tag, &n_in, 1, MPI_INT64_T, from, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (source < 0) n_in = 0;
    if (n_out > INT32_MAX || n_in > INT32_MAX)
        throw std::runtime_error("a halo or migration message over 2 GiB");
    std::vector<char> in(static_cast<size_t>(n_in));
    MPI_Sendrecv(out.data(), int(n_out), MPI_BYTE, to, tag + 1, in.data(), int(n_in), MPI_BYTE,
                 from, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return in;
#else
    (void)out;
    (void)tag;
    if (dest >= 0 || source >= 0)
        throw std::logic_error("sendrecv with a partner in a build without MPI");
    return {};
#endif
}

} // namespace smelt::apps::mpi
