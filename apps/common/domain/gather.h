// Per-particle data of every rank gathered on rank 0 in particle-id order, for the outputs (H5MD
// frames, checkpoints, VTK): whatever the rank count, rank 0 holds the same columns a serial run
// would have, so every file is the serial run's format.
#pragma once

#include <cstdint>
#include <vector>

namespace smelt::apps::domain {

struct Columns {
    std::vector<int64_t> ids;                   // the particles' ids (0 .. N-1 over all ranks)
    std::vector<std::vector<double>> reals;     // columns of ids.size() values
    std::vector<std::vector<int64_t>> integers; // columns of ids.size() values
};

// On rank 0: the columns of all ranks, of `n_total` values each, value k being particle k's.
// Elsewhere: empty columns. Collective. std::runtime_error when the ids are not a permutation of
// 0 .. n_total - 1 (a particle lost or duplicated).
Columns gather_by_id(const Columns &local, int64_t n_total);

} // namespace smelt::apps::domain
