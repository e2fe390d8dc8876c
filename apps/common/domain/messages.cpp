#include "common/domain/messages.h"

#include "common/domain/device_pack.h"
#include "common/domain/exchange.h"

#include <cstdint>
#include <vector>

namespace smelt::apps::domain {

namespace {

void exchange_through_host(smelt::Backend &backend, std::span<Message> messages) {
    for (Message &m : messages) {
        std::vector<char> out(m.send_bytes);
        if (m.send_bytes) backend.read(m.send.buffer(), 0, out.data(), m.send_bytes);
        const std::vector<char> in = mpi::sendrecv(out, m.dest, m.source, m.tag);
        m.recv_bytes = in.size();
        if (in.empty()) continue;
        reserve_bytes(m.recv, in.size(), backend);
        backend.write(m.recv.buffer(), 0, in.data(), in.size());
    }
}

} // namespace

void exchange_messages(DeviceLink *link, smelt::Backend &backend, std::span<Message> messages) {
    if (!link) {
        exchange_through_host(backend, messages);
        return;
    }
    std::vector<DeviceLink::Transfer> transfers;
    for (Message &m : messages) {
        const auto out = uint64_t(m.send_bytes);
        uint64_t in = 0;
        mpi::sendrecv_known(reinterpret_cast<const char *>(&out), sizeof out, m.dest,
                            reinterpret_cast<char *>(&in), m.source >= 0 ? sizeof in : 0, m.source,
                            m.tag);
        m.recv_bytes = size_t(in);
        if (m.recv_bytes) reserve_bytes(m.recv, m.recv_bytes, backend);
        transfers.push_back(
            {&m.send, m.dest >= 0 ? m.send_bytes : 0, m.dest, &m.recv, m.recv_bytes, m.source});
    }
    link->exchange(transfers);
}

} // namespace smelt::apps::domain
