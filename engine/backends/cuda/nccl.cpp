#include "backends/cuda/nccl.h"

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/driver_api.h"
#include "support/error.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>

namespace smelt::cuda {

namespace {

// NCCL's C interface as nccl.h declares it (2.x): results and data types are C enums (int
// here), a communicator an opaque pointer, a unique id 128 bytes passed by value.
using ncclResult = int;
constexpr ncclResult nccl_success = 0;
constexpr int nccl_int8 = 0; // ncclInt8: transfers are counted in bytes
struct ncclUniqueId {
    char internal[128];
};
static_assert(sizeof(ncclUniqueId) == sizeof(NcclId::bytes));
using ncclComm = void *;

struct NcclApi {
    ncclResult (*ncclGetUniqueId)(ncclUniqueId *) = nullptr;
    ncclResult (*ncclCommInitRank)(ncclComm *, int, ncclUniqueId, int) = nullptr;
    ncclResult (*ncclCommDestroy)(ncclComm) = nullptr;
    ncclResult (*ncclSend)(const void *, size_t, int, int, ncclComm, CUstream) = nullptr;
    ncclResult (*ncclRecv)(void *, size_t, int, int, ncclComm, CUstream) = nullptr;
    ncclResult (*ncclGroupStart)() = nullptr;
    ncclResult (*ncclGroupEnd)() = nullptr;
    const char *(*ncclGetErrorString)(ncclResult) = nullptr;
};

struct Loaded {
    NcclApi api;
    std::string error; // empty when loaded
};

Loaded load() {
    Loaded out;
    // NCCL reads its settings at its first call. With its cuMem-based buffers
    // (NCCL_CUMEM_ENABLE, on by default in NCCL 2.19+) each point-to-point group held the host
    // for about 0.2 ms on two H200s linked by NVLink, where the transfer itself takes a few
    // microseconds; without them the halo refresh of md3d's two-GPU run went from 0.30 to
    // 0.09 ms of host time per step and the run 15 % faster. A value the user set wins.
    ::setenv("NCCL_CUMEM_ENABLE", "0", /*overwrite=*/0);
    void *lib = ::dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = ::dlerror();
        out.error = std::string("cannot open NCCL's library libnccl.so.2 (") +
                    (e ? e : "unknown reason") + ")";
        return out;
    }
    // Open for the life of the process: communicators refer to it.
    auto sym = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
        if (!fn && out.error.empty()) out.error = std::string("libnccl.so.2 lacks ") + name;
    };
    sym(out.api.ncclGetUniqueId, "ncclGetUniqueId");
    sym(out.api.ncclCommInitRank, "ncclCommInitRank");
    sym(out.api.ncclCommDestroy, "ncclCommDestroy");
    sym(out.api.ncclSend, "ncclSend");
    sym(out.api.ncclRecv, "ncclRecv");
    sym(out.api.ncclGroupStart, "ncclGroupStart");
    sym(out.api.ncclGroupEnd, "ncclGroupEnd");
    sym(out.api.ncclGetErrorString, "ncclGetErrorString");
    return out;
}

const Loaded &loaded() {
    static const Loaded l = load();
    return l;
}

const NcclApi &api() {
    const Loaded &l = loaded();
    if (!l.error.empty()) throw BackendError("cuda: NCCL: " + l.error, "", "");
    return l.api;
}

void check(ncclResult r, const char *what) {
    if (r == nccl_success) return;
    const char *text = api().ncclGetErrorString(r);
    throw BackendError(std::string("cuda: NCCL: ") + what +
                           " failed: " + (text ? text : "result " + std::to_string(r)) +
                           " (NCCL_DEBUG=WARN prints NCCL's reason)",
                       "", "");
}

} // namespace

bool nccl_available(std::string *why) {
    const Loaded &l = loaded();
    if (why) *why = l.error;
    return l.error.empty();
}

NcclId nccl_unique_id() {
    ncclUniqueId id{};
    check(api().ncclGetUniqueId(&id), "ncclGetUniqueId");
    NcclId out;
    std::memcpy(out.bytes.data(), id.internal, sizeof id.internal);
    return out;
}

std::string pci_address(const CudaBackend &backend) {
    int domain = 0, bus = 0, device = 0;
    const CUdevice d = backend.device();
    cuda::check(driver().cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d),
                "PCI domain of the device");
    cuda::check(driver().cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d),
                "PCI bus of the device");
    cuda::check(driver().cuDeviceGetAttribute(&device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d),
                "PCI device number of the device");
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.0", domain, bus, device);
    return text;
}

NcclComm::NcclComm(CudaBackend &backend, const NcclId &id, int ranks, int rank)
    : backend_(backend) {
    ncclUniqueId uid{};
    std::memcpy(uid.internal, id.bytes.data(), sizeof uid.internal);
    // NCCL takes the device from the calling thread's current context.
    backend_.make_current();
    ncclComm comm = nullptr;
    check(api().ncclCommInitRank(&comm, ranks, uid, rank), "ncclCommInitRank");
    comm_ = comm;
}

NcclComm::~NcclComm() {
    if (!comm_) return;
    backend_.make_current();
    // Queued transfers must finish before the communicator goes; errors cannot be thrown here.
    (void)driver().cuStreamSynchronize(backend_.stream());
    (void)api().ncclCommDestroy(comm_);
}

void NcclComm::exchange(std::span<const NcclTransfer> sends,
                        std::span<const NcclTransfer> receives) {
    const NcclApi &nccl = api();
    backend_.make_current();
    auto address = [](const NcclTransfer &t) {
        SMELT_INTERNAL_ASSERT(
            t.buffer && t.offset <= t.buffer->bytes && t.bytes <= t.buffer->bytes - t.offset,
            "NcclComm: " << t.bytes << " bytes at offset " << t.offset << " outside the buffer");
        return reinterpret_cast<char *>(t.buffer->handle) + t.offset;
    };
    check(nccl.ncclGroupStart(), "ncclGroupStart");
    // A group is ended even when a call in it fails, so NCCL's group state stays balanced.
    ncclResult first_error = nccl_success;
    const char *failed = nullptr;
    auto note = [&](ncclResult r, const char *what) {
        if (r != nccl_success && first_error == nccl_success) {
            first_error = r;
            failed = what;
        }
    };
    for (const NcclTransfer &t : sends)
        if (t.bytes)
            note(nccl.ncclSend(address(t), t.bytes, nccl_int8, t.peer, comm_, backend_.stream()),
                 "ncclSend");
    for (const NcclTransfer &t : receives)
        if (t.bytes)
            note(nccl.ncclRecv(address(t), t.bytes, nccl_int8, t.peer, comm_, backend_.stream()),
                 "ncclRecv");
    note(nccl.ncclGroupEnd(), "ncclGroupEnd");
    if (first_error != nccl_success) check(first_error, failed);
}

} // namespace smelt::cuda
