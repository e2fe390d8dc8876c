// The process's place in an MPI job, and the few collectives the app kit needs, usable whether
// or not the build has MPI (SMELT_APPS_HAVE_MPI) and whether or not the binary was started by
// mpirun. Without either, every function answers as the only rank of a one-rank job, so the
// serial path never touches MPI.
//
// MPI is initialised only when a launcher started the process (OpenMPI's OMPI_COMM_WORLD_SIZE,
// PMIx's PMIX_RANK or PMI's PMI_SIZE in the environment): a plain `md3d run` stays an ordinary
// serial program, with no MPI singleton start-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace smelt::apps::mpi {

// Initialises MPI (when built with it and launched by mpirun) for the lifetime of the object;
// the destructor finalises it. One per process, made first thing in main().
class Session {
public:
    Session(int *argc, char ***argv);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;
};

bool active();      // MPI initialised (a Session under a launcher)
int rank();         // 0 when not active
int size();         // 1 when not active
bool is_root();     // rank() == 0
int local_rank();   // rank among the processes of this node (device choice); 0 when not active
bool distributed(); // active() && size() > 1

// Ends every rank of the job with exit status `status` after printing `message` (prefixed with
// the rank) on stderr; without MPI it is std::exit(status). Never returns.
[[noreturn]] void abort(const std::string &message, int status = 1);

// Collectives: every rank must call them, in the same order. Identity without MPI.
//
// The sum of one value per rank, added in rank order on every rank (an MPI_Allgather, then a
// left-to-right sum), so the result does not depend on message timing or the MPI library's
// reduction tree.
double sum_in_rank_order(double v);
std::vector<double> sum_in_rank_order(const std::vector<double> &v);
int64_t sum(int64_t v);
double max(double v); // exact whatever the order
bool any(bool v);
// Rank 0's text on every rank.
std::string broadcast(const std::string &text);
// Rank 0's bytes on every rank (every rank passes a vector; non-root ones are replaced).
void broadcast_bytes(std::vector<char> &bytes);
// Every rank's bytes concatenated in rank order on rank 0 (empty elsewhere).
std::vector<char> gather_bytes(const std::vector<char> &bytes);
void barrier();

} // namespace smelt::apps::mpi
