// HostStage on CUDA: cuMemcpyDtoHAsync into page-locked memory on the backend's stream, then an
// event; wait() waits for the event only, so kernels queued after start() keep running.
// Page-locked memory is what makes the copy asynchronous: from pageable memory the driver
// copies through a bounce buffer and returns when it is done.
#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/driver_api.h"
#include "support/error.h"

namespace smelt::cuda {

namespace {

class PinnedStage : public HostStage {
public:
    PinnedStage(CudaBackend &backend, size_t capacity) : backend_(backend), capacity_(capacity) {
        backend_.make_current();
        backend_.check_sync(driver().cuMemHostAlloc(&host_, capacity_ ? capacity_ : 1, 0),
                            "page-locked host allocation (cuMemHostAlloc)");
        backend_.check_sync(driver().cuEventCreate(&event_, CU_EVENT_DISABLE_TIMING),
                            "event creation");
    }
    ~PinnedStage() override {
        backend_.make_current();
        // The copy must land before its memory goes; errors cannot be thrown from here.
        if (started_) driver().cuEventSynchronize(event_);
        driver().cuEventDestroy(event_);
        driver().cuMemFreeHost(host_);
    }
    PinnedStage(const PinnedStage &) = delete;
    PinnedStage &operator=(const PinnedStage &) = delete;

    void start(const Buffer &src, size_t offset, size_t bytes) override {
        check_stage_size(bytes, capacity_);
        SMELT_INTERNAL_ASSERT(offset <= src.bytes && bytes <= src.bytes - offset,
                              "HostStage: " << bytes << " bytes at offset " << offset
                                            << " outside a buffer of " << src.bytes << " bytes");
        if (backend_.capturing())
            throw UsageError("cuda: a HostStage copy while a CUDA graph is being recorded; "
                             "start it outside the recording");
        backend_.make_current();
        if (started_) (void)wait(); // one copy in flight: the host memory is about to be reused
        const CUdeviceptr from = reinterpret_cast<CUdeviceptr>(src.handle) + offset;
        backend_.check_sync(driver().cuMemcpyDtoHAsync(host_, from, bytes, backend_.stream()),
                            "device-to-host copy (HostStage)");
        backend_.check_sync(driver().cuEventRecord(event_, backend_.stream()),
                            "event record (HostStage)");
        started_ = true;
    }

    const void *wait() override {
        if (!started_) throw UsageError("HostStage::wait() before any start()");
        backend_.make_current();
        backend_.check_sync(driver().cuEventSynchronize(event_), "device-to-host copy (HostStage)");
        return host_;
    }

private:
    CudaBackend &backend_;
    size_t capacity_ = 0;
    void *host_ = nullptr;
    CUevent event_ = nullptr;
    bool started_ = false;
};

} // namespace

std::unique_ptr<HostStage> CudaBackend::host_stage(size_t capacity) {
    return std::make_unique<PinnedStage>(*this, capacity);
}

} // namespace smelt::cuda
