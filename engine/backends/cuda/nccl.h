// NCCL (NVIDIA's collective communications library) on a CudaBackend's stream: transfers
// between the devices of several processes, device memory to device memory, queued in stream
// order like a kernel. A halo exchange between MPI ranks on GPUs then needs no copy to the host
// and no host wait: the kernels that pack the halo, the transfer and the kernels that place it
// run one after another on the device (apps/common/domain/device_link.h).
//
// libnccl.so.2 is opened at run time, as the driver is (driver_api.h): NCCL is not a Debian
// package, and smelt binaries must start where it is missing. The few functions used are
// declared in nccl.cpp with the types of NCCL's documented C interface (nccl.h, NCCL 2.x).
//
// A communicator needs one GPU per process: NCCL refuses two ranks on one device. Loading NCCL
// sets NCCL_CUMEM_ENABLE=0 unless the environment has it (nccl.cpp says why).
#pragma once

#include "backends/backend.h"

#include <array>
#include <span>
#include <string>

namespace smelt::cuda {

class CudaBackend;

// Whether libnccl.so.2 opens and has the functions below; `why` gets the reason when not.
bool nccl_available(std::string *why = nullptr);

// The identity of a communicator: made by one process, handed to the others by the caller (an
// MPI broadcast), then given by every process to NcclComm.
struct NcclId {
    std::array<char, 128> bytes{};
};
NcclId nccl_unique_id();

// "0000:19:00.0": the PCI address of the backend's device, which names a GPU on its node
// whatever CUDA_VISIBLE_DEVICES each process was given (two ranks on one GPU share it).
std::string pci_address(const CudaBackend &backend);

// One transfer of a group: `bytes` bytes of `buffer` from `offset`, to or from process `peer`.
struct NcclTransfer {
    const Buffer *buffer = nullptr;
    size_t offset = 0;
    size_t bytes = 0;
    int peer = 0;
};

class NcclComm {
public:
    // Collective over `ranks` processes, each with the same `id`, its own `rank` in
    // [0, ranks) and its own device (the backend's). BackendError when NCCL refuses.
    NcclComm(CudaBackend &backend, const NcclId &id, int ranks, int rank);
    ~NcclComm();
    NcclComm(const NcclComm &) = delete;
    NcclComm &operator=(const NcclComm &) = delete;

    // Every send and receive of one exchange, queued on the backend's stream as one group:
    // work queued after it on the stream runs once every receive has landed. Sends and receives
    // to one peer are matched in the order they are given, so both sides must list them in the
    // same order. The buffers must stay alive until the stream has run the group.
    void exchange(std::span<const NcclTransfer> sends, std::span<const NcclTransfer> receives);

private:
    CudaBackend &backend_;
    void *comm_ = nullptr; // ncclComm_t
};

} // namespace smelt::cuda
