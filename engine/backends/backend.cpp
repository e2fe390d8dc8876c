// The Backend interface's defaults.
#include "backends/backend.h"

#include "support/error.h"

#include <vector>

namespace smelt {

void Backend::fill_zero(const Buffer &dst, size_t offset, size_t bytes) {
    if (bytes == 0) return;
    const std::vector<unsigned char> zeros(bytes, 0);
    write(dst, offset, zeros.data(), bytes);
}

namespace {

// The copy made at start(): right for a backend whose read() sees all queued work at once.
class ReadAtStart : public HostStage {
public:
    ReadAtStart(Backend &backend, size_t capacity) : backend_(backend), bytes_(capacity) {}
    void start(const Buffer &src, size_t offset, size_t bytes) override {
        check_stage_size(bytes, bytes_.size());
        backend_.read(src, offset, bytes_.data(), bytes);
        started_ = true;
    }
    const void *wait() override {
        if (!started_) throw UsageError("HostStage::wait() before any start()");
        return bytes_.data();
    }

private:
    Backend &backend_;
    std::vector<unsigned char> bytes_;
    bool started_ = false;
};

} // namespace

void check_stage_size(size_t bytes, size_t capacity) {
    if (bytes > capacity)
        throw UsageError("HostStage: a copy of " + std::to_string(bytes) +
                         " bytes into a stage of " + std::to_string(capacity));
}

std::unique_ptr<HostStage> Backend::host_stage(size_t capacity) {
    return std::make_unique<ReadAtStart>(*this, capacity);
}

} // namespace smelt
