// The halo refresh's path between ranks on GPUs: device memory to device memory through NCCL
// (engine: backends/cuda/nccl.h), queued on the backend's stream between the kernel that packs a
// halo and the kernel that places it. The host then neither copies nor waits, where staging
// through the host costs a copy out, an MPI message and a copy in, each waited for, every step.
//
// `domain.transport` chooses: `host` stages through the host (every backend); `nccl` asks for
// the link and is an error where it cannot be had; `auto` takes the link where it can be had:
// the cuda backend, more than one rank, libnccl.so.2 on every rank, and one GPU per rank (NCCL
// refuses two ranks on one device), else stages through the host.
#pragma once

#include "smelt.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace smelt::apps::domain {

enum class Transport { Auto, Host, Nccl };

// "auto", "host", "nccl" (what the config keys accept).
Transport parse_transport(std::string_view text);
const char *transport_name(Transport t);

class DeviceLink {
public:
    // The link for this rank's `backend`, or nullptr for staging through the host (see above).
    // With Transport::Nccl where the link cannot be had, std::runtime_error saying why, on
    // every rank. Collective.
    static std::unique_ptr<DeviceLink> make(Transport transport, smelt::Backend &backend);
    virtual ~DeviceLink() = default;

    // One message each way of a swap: `send_bytes` of `send` to rank `dest`, `recv_bytes` into
    // `recv` from rank `source`.
    struct Transfer {
        const smelt::Array *send = nullptr;
        size_t send_bytes = 0;
        int dest = 0;
        const smelt::Array *recv = nullptr;
        size_t recv_bytes = 0;
        int source = 0;
    };
    // Queues every transfer as one group on the backend's stream: work queued after it sees the
    // received bytes. Collective: every rank passes its transfers in the same (swap) order.
    virtual void exchange(std::span<const Transfer> transfers) = 0;
};

} // namespace smelt::apps::domain
