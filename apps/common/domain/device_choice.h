// Which device a rank of an MPI job runs on: one GPU per rank, picked by the rank's index among
// the ranks of its node (MPI_Comm_split_type), so `mpirun -np 2 md3d run C --backend=cuda` on a
// two-GPU node puts rank 0 on GPU 0 and rank 1 on GPU 1.
#pragma once

#include <string>

namespace smelt::apps::mpi {

// The engine's backend name for `backend` (a backend family: "cpu", "opencl", "cuda") on this
// rank: unchanged on one rank, for a backend whose table row takes no device (the CPU), or when
// the user chose the device (SMELT_OPENCL_DEVICE; a
// CUDA_VISIBLE_DEVICES of one device, as some launchers set per rank, which is then cuda:0);
// else "NAME:<device>", the device taken round robin by local rank from smelt::rank_devices
// (more ranks than GPUs on a node share them; OpenCL: the GPUs, or the one CPU device of PoCL
// that all ranks share).
std::string backend_for_rank(const std::string &backend);

} // namespace smelt::apps::mpi
