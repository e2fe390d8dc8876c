#include "common/domain/exchange.h"

#include <cstdint>
#include <stdexcept>
#include <string>

#if SMELT_APPS_HAVE_MPI
#include <mpi.h>
#endif

namespace smelt::apps::mpi {

std::vector<char> sendrecv(const std::vector<char> &out, int dest, int source, int tag) {
    int64_t n_in = 0;
#if SMELT_APPS_HAVE_MPI
    // The sizes first, then the bytes (tag + 1).
    int64_t n_out = int64_t(out.size());
    MPI_Sendrecv(&n_out, 1, MPI_INT64_T, dest < 0 ? MPI_PROC_NULL : dest, tag, &n_in, 1,
                 MPI_INT64_T, source < 0 ? MPI_PROC_NULL : source, tag, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (source < 0) n_in = 0;
#endif
    std::vector<char> in(static_cast<size_t>(n_in));
    sendrecv_known(out.data(), out.size(), dest, in.data(), in.size(), source, tag + 1);
    return in;
}

void sendrecv_known(const char *out, size_t out_bytes, int dest, char *in, size_t in_bytes,
                    int source, int tag) {
#if SMELT_APPS_HAVE_MPI
    if (out_bytes > size_t(INT32_MAX) || in_bytes > size_t(INT32_MAX))
        throw std::runtime_error("a halo or migration message over 2 GiB");
    const int to = dest < 0 ? MPI_PROC_NULL : dest;
    const int from = source < 0 ? MPI_PROC_NULL : source;
    MPI_Status status;
    MPI_Sendrecv(out, int(out_bytes), MPI_BYTE, to, tag, in, int(in_bytes), MPI_BYTE, from, tag,
                 MPI_COMM_WORLD, &status);
    int got = 0;
    MPI_Get_count(&status, MPI_BYTE, &got);
    if (from != MPI_PROC_NULL && size_t(got) != in_bytes)
        throw std::logic_error("halo or migration: a neighbour sent " + std::to_string(got) +
                               " bytes, expected " + std::to_string(in_bytes));
#else
    (void)out, (void)out_bytes, (void)in, (void)in_bytes, (void)tag;
    if (dest >= 0 || source >= 0)
        throw std::logic_error("sendrecv with a partner in a build without MPI");
#endif
}

} // namespace smelt::apps::mpi
