// The messages of a rebuild between neighbour ranks (migration, the halo build), whose sizes
// only their senders know. Each message's size goes first, by MPI (eight bytes); the bytes then
// go device to device through the DeviceLink when there is one (NCCL, queued on the stream: no
// copy through the host, no wait), else through the host (one copy out, MPI, one copy in).
#pragma once

#include "common/domain/device_link.h"
#include "smelt.h"

#include <cstddef>
#include <span>

namespace smelt::apps::domain {

struct Message {
    smelt::Array send; // UInt8 on the device (DevicePack::pack_fields)
    size_t send_bytes = 0;
    int dest = -1;   // -1: nothing sent
    int source = -1; // -1: nothing received
    int tag = 0;
    smelt::Array recv; // regrown to hold recv_bytes
    size_t recv_bytes = 0;
};

// Every rank passes its messages in the same order (a swap's down, then its up): the n-th
// message of a rank pairs with the n-th of its partners. Collective over the partners.
void exchange_messages(DeviceLink *link, smelt::Backend &backend, std::span<Message> messages);

} // namespace smelt::apps::domain
