#include "backends/opencl/pinned_host.h"

namespace smelt::opencl {

PinnedHost::PinnedHost(cl_context context, cl_command_queue queue, size_t bytes)
    : queue_(queue), bytes_(bytes) {
    const size_t n = bytes ? bytes : 1;
    cl_int err = CL_SUCCESS;
    buffer_ = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, n, nullptr, &err);
    if (err == CL_SUCCESS)
        host_ = clEnqueueMapBuffer(queue_, buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n, 0,
                                   nullptr, nullptr, &err);
    if (err != CL_SUCCESS || !host_) {
        release();
        pageable_.resize(n);
        host_ = pageable_.data();
    }
}

PinnedHost::~PinnedHost() {
    release();
}

void PinnedHost::release() {
    if (!buffer_) return;
    // Errors cannot be thrown from a destructor; the driver frees the buffer with its context.
    if (host_) {
        cl_event unmapped = nullptr;
        if (clEnqueueUnmapMemObject(queue_, buffer_, host_, 0, nullptr, &unmapped) == CL_SUCCESS) {
            clWaitForEvents(1, &unmapped);
            clReleaseEvent(unmapped);
        }
    }
    clReleaseMemObject(buffer_);
    buffer_ = nullptr;
    host_ = nullptr;
}

} // namespace smelt::opencl
