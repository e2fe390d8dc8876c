// Page-locked host memory from an OpenCL driver: a buffer allocated with CL_MEM_ALLOC_HOST_PTR
// and mapped once for the object's lifetime (NVIDIA's OpenCL guide's "pinned memory" recipe).
// Reads from device buffers into it (clEnqueueReadBuffer with data() as the destination) go by
// DMA; into pageable memory NVIDIA's OpenCL copies through a staging buffer of its own and the
// queue waits for that copy: on an H100 a 4-byte read cost md3d's step about 40 us (README,
// "md3d on the H100, the thirteenth session"). Where the driver gives no such buffer, data()
// is ordinary heap memory: slower on some drivers, the same results.
#pragma once

#include "backends/opencl/cl_api.h"

#include <cstddef>
#include <vector>

namespace smelt::opencl {

class PinnedHost {
public:
    PinnedHost(cl_context context, cl_command_queue queue, size_t bytes);
    ~PinnedHost();
    PinnedHost(const PinnedHost &) = delete;
    PinnedHost &operator=(const PinnedHost &) = delete;

    void *data() const { return host_; }
    size_t size() const { return bytes_; }
    bool pinned() const { return buffer_ != nullptr; }

private:
    void release();

    cl_command_queue queue_;
    size_t bytes_;
    cl_mem buffer_ = nullptr;             // mapped at host_ while it lives
    std::vector<unsigned char> pageable_; // where the driver gave no pinned buffer
    void *host_ = nullptr;
};

} // namespace smelt::opencl
