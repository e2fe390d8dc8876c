#include "common/domain/mpi_env.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#if SMELT_APPS_HAVE_MPI
#include <mpi.h>
#endif

namespace smelt::apps::mpi {

namespace {

bool g_active = false;
int g_rank = 0;
int g_size = 1;
int g_local_rank = 0;

bool launched_by_mpirun() {
    for (const char *var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
        if (const char *v = std::getenv(var); v && *v) return true;
    return false;
}

} // namespace

Session::Session(int *argc, char ***argv) {
#if SMELT_APPS_HAVE_MPI
    if (!launched_by_mpirun()) return;
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    // The rank among the processes that share this node's memory: one device each.
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &g_local_rank);
    MPI_Comm_free(&node);
    g_active = true;
#else
    (void)argc;
    (void)argv;
#endif
}

Session::~Session() {
#if SMELT_APPS_HAVE_MPI
    if (g_active) {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized) MPI_Finalize();
    }
    g_active = false;
#endif
}

bool active() {
    return g_active;
}
int rank() {
    return g_rank;
}
int size() {
    return g_size;
}
bool is_root() {
    return g_rank == 0;
}
int local_rank() {
    return g_local_rank;
}
bool distributed() {
    return g_active && g_size > 1;
}

void abort(const std::string &message, int status) {
    std::fflush(stdout);
    if (!message.empty()) {
        if (distributed())
            std::fprintf(stderr, "[rank %d of %d] %s\n", g_rank, g_size, message.c_str());
        else
            std::fprintf(stderr, "%s\n", message.c_str());
    }
    std::fflush(stderr);
#if SMELT_APPS_HAVE_MPI
    if (g_active) MPI_Abort(MPI_COMM_WORLD, status);
#endif
    std::exit(status);
}

#if SMELT_APPS_HAVE_MPI

std::vector<double> sum_in_rank_order(const std::vector<double> &v) {
    if (!distributed()) return v;
    const int n = int(v.size());
    std::vector<double> all(static_cast<size_t>(n) * static_cast<size_t>(g_size));
    MPI_Allgather(v.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, MPI_COMM_WORLD);
    std::vector<double> out(static_cast<size_t>(n), 0.0);
    for (int r = 0; r < g_size; ++r)
        for (int k = 0; k < n; ++k)
            out[size_t(k)] += all[size_t(r) * size_t(n) + size_t(k)];
    return out;
}

int64_t sum(int64_t v) {
    if (!distributed()) return v;
    int64_t out = 0;
    MPI_Allreduce(&v, &out, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return out;
}

double max(double v) {
    if (!distributed()) return v;
    double out = 0;
    MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

bool any(bool v) {
    if (!distributed()) return v;
    int in = v ? 1 : 0, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return out != 0;
}

void broadcast_bytes(std::vector<char> &bytes) {
    if (!distributed()) return;
    int64_t n = int64_t(bytes.size());
    MPI_Bcast(&n, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    bytes.resize(size_t(n));
    if (n > 0) MPI_Bcast(bytes.data(), int(n), MPI_CHAR, 0, MPI_COMM_WORLD);
}

std::vector<char> gather_bytes(const std::vector<char> &bytes) {
    if (!distributed()) return bytes;
    int n = int(bytes.size());
    std::vector<int> counts(static_cast<size_t>(g_size)), offsets(static_cast<size_t>(g_size));
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<char> out;
    if (g_rank == 0) {
        int64_t total = 0;
        for (int r = 0; r < g_size; ++r) {
            offsets[size_t(r)] = int(total);
            total += counts[size_t(r)];
        }
        out.resize(size_t(total));
    }
    MPI_Gatherv(bytes.data(), n, MPI_CHAR, out.data(), counts.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    return out;
}

void barrier() {
    if (distributed()) MPI_Barrier(MPI_COMM_WORLD);
}

#else

std::vector<double> sum_in_rank_order(const std::vector<double> &v) {
    return v;
}
int64_t sum(int64_t v) {
    return v;
}
double max(double v) {
    return v;
}
bool any(bool v) {
    return v;
}
void broadcast_bytes(std::vector<char> &) {}
std::vector<char> gather_bytes(const std::vector<char> &bytes) {
    return bytes;
}
void barrier() {}

#endif

double sum_in_rank_order(double v) {
    return sum_in_rank_order(std::vector<double>{v})[0];
}

std::string broadcast(const std::string &text) {
    std::vector<char> bytes(text.begin(), text.end());
    broadcast_bytes(bytes);
    return std::string(bytes.begin(), bytes.end());
}

} // namespace smelt::apps::mpi
