// HostStage on OpenCL: a non-blocking clEnqueueReadBuffer on the in-order queue into pinned
// host memory (pinned_host.h), flushed so the device starts it without a later blocking call,
// and its event; wait() waits for that event.
#include "backends/opencl/cl_api.h"
#include "backends/opencl/opencl_backend.h"
#include "backends/opencl/pinned_host.h"
#include "support/error.h"

namespace smelt::opencl {

namespace {

class EventStage : public HostStage {
public:
    EventStage(OpenCLBackend &backend, size_t capacity)
        : backend_(backend), host_(backend.context(), backend.queue(), capacity) {}
    ~EventStage() override {
        // The read must land before its memory goes; errors cannot be thrown from here.
        if (event_) {
            clWaitForEvents(1, &event_);
            clReleaseEvent(event_);
        }
    }
    EventStage(const EventStage &) = delete;
    EventStage &operator=(const EventStage &) = delete;

    void start(const Buffer &src, size_t offset, size_t bytes) override {
        check_stage_size(bytes, host_.size());
        SMELT_INTERNAL_ASSERT(offset <= src.bytes && bytes <= src.bytes - offset,
                              "HostStage: " << bytes << " bytes at offset " << offset
                                            << " outside a buffer of " << src.bytes << " bytes");
        if (event_) (void)wait(); // one read in flight: the host memory is about to be reused
        if (bytes == 0) {
            started_ = true;
            return;
        }
        check(clEnqueueReadBuffer(backend_.queue(), static_cast<cl_mem>(src.handle), CL_FALSE,
                                  offset, bytes, host_.data(), 0, nullptr, &event_),
              "clEnqueueReadBuffer");
        check(clFlush(backend_.queue()), "clFlush");
        started_ = true;
    }

    const void *wait() override {
        if (!started_) throw UsageError("HostStage::wait() before any start()");
        if (event_) {
            cl_event e = event_;
            event_ = nullptr;
            const cl_int r = clWaitForEvents(1, &e);
            clReleaseEvent(e);
            check(r, "clWaitForEvents");
        }
        return host_.data();
    }

private:
    OpenCLBackend &backend_;
    PinnedHost host_;
    cl_event event_ = nullptr;
    bool started_ = false;
};

} // namespace

std::unique_ptr<HostStage> OpenCLBackend::host_stage(size_t capacity) {
    return std::make_unique<EventStage>(*this, capacity);
}

} // namespace smelt::opencl
