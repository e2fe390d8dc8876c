#include "common/domain/device_link.h"

#include "common/domain/mpi_env.h"

#if SMELT_HAVE_CUDA
#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/nccl.h"
#endif

#include <unistd.h>

#include <set>
#include <stdexcept>
#include <vector>

namespace smelt::apps::domain {

Transport parse_transport(std::string_view text) {
    if (text == "auto") return Transport::Auto;
    if (text == "host") return Transport::Host;
    if (text == "nccl") return Transport::Nccl;
    throw std::invalid_argument("unknown transport '" + std::string(text) +
                                "' (expected auto, host or nccl)");
}

const char *transport_name(Transport t) {
    switch (t) {
    case Transport::Auto:
        return "auto";
    case Transport::Host:
        return "host";
    case Transport::Nccl:
        return "nccl";
    }
    return "?";
}

namespace {

// Why this rank cannot have the link ("" when it can), and its device's name on the node.
struct RankView {
    std::string why;
    std::string device;
};

// Whether every rank can have the link: each one's reason, gathered and broadcast in rank
// order, and no two ranks on one GPU. "" when all can. Collective.
std::string refusal(const RankView &mine) {
    const std::string line = mine.why + "\t" + mine.device + "\n";
    const std::vector<char> gathered =
        mpi::gather_bytes(std::vector<char>(line.begin(), line.end()));
    const std::string all(gathered.begin(), gathered.end());
    std::string verdict;
    std::set<std::string> devices;
    size_t start = 0;
    for (int r = 0; mpi::is_root() && start < all.size() && verdict.empty(); ++r) {
        const size_t end = all.find('\n', start);
        const std::string entry = all.substr(start, end - start);
        start = end + 1;
        const size_t tab = entry.find('\t');
        const std::string why = entry.substr(0, tab), device = entry.substr(tab + 1);
        if (!why.empty())
            verdict = "rank " + std::to_string(r) + ": " + why;
        else if (!devices.insert(device).second)
            verdict = "two ranks share the GPU " + device +
                      " (NCCL needs one GPU per rank: as many ranks per node as GPUs)";
    }
    return mpi::broadcast(verdict);
}

#if SMELT_HAVE_CUDA

std::string host_name() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) return "?";
    return name;
}

class NcclLink : public DeviceLink {
public:
    NcclLink(cuda::CudaBackend &backend, const cuda::NcclId &id)
        : comm_(backend, id, mpi::size(), mpi::rank()) {}

    void exchange(std::span<const Transfer> transfers) override {
        sends_.clear();
        receives_.clear();
        for (const Transfer &t : transfers) {
            if (t.send_bytes) sends_.push_back({&t.send->buffer(), 0, t.send_bytes, t.dest});
            if (t.recv_bytes) receives_.push_back({&t.recv->buffer(), 0, t.recv_bytes, t.source});
        }
        comm_.exchange(sends_, receives_);
    }

private:
    cuda::NcclComm comm_;
    std::vector<cuda::NcclTransfer> sends_, receives_; // kept: no allocation per step
};

#endif

} // namespace

std::unique_ptr<DeviceLink> DeviceLink::make(Transport transport, smelt::Backend &backend) {
    if (transport == Transport::Host || !mpi::distributed()) return nullptr;
    RankView mine;
#if SMELT_HAVE_CUDA
    auto *cuda_backend = dynamic_cast<cuda::CudaBackend *>(&backend);
    if (!cuda_backend)
        mine.why = "the " + backend.name() + " backend (NCCL links cuda devices)";
    else if (std::string why; !cuda::nccl_available(&why))
        mine.why = why;
    else
        mine.device = host_name() + " " + cuda::pci_address(*cuda_backend);
#else
    (void)backend;
    mine.why = "this smelt was built without CUDA";
#endif
    const std::string refused = refusal(mine);
    if (!refused.empty()) {
        if (transport == Transport::Nccl)
            throw std::runtime_error("domain.transport: nccl cannot be used: " + refused);
        return nullptr;
    }
#if SMELT_HAVE_CUDA
    std::vector<char> id(sizeof(cuda::NcclId::bytes));
    if (mpi::is_root()) {
        const cuda::NcclId made = cuda::nccl_unique_id();
        id.assign(made.bytes.begin(), made.bytes.end());
    }
    mpi::broadcast_bytes(id);
    cuda::NcclId shared;
    std::copy(id.begin(), id.end(), shared.bytes.begin());
    return std::make_unique<NcclLink>(*cuda_backend, shared);
#else
    return nullptr;
#endif
}

} // namespace smelt::apps::domain
