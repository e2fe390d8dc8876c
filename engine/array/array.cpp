#include "array/array.h"

#include "backends/registry.h"
#include "support/error.h"

#include <cstring>

namespace smelt {

struct Array::Storage {
    Backend *backend = nullptr;
    DType dtype = DType::Float64;
    size_t size = 0;
    Buffer buffer; // device memory (on the CPU: also the host view)
    bool owns_buffer = true;
    void *wrapped = nullptr; // caller's host memory used as the mirror (non host-addressable)
    // The owned host mirror (non host-addressable backends), made zeroed on first use: most
    // device arrays are never seen from the host, and zeroing a mirror for every new array
    // cost more than the device work on it (an MPI rank regrowing its arrays at each rebuild).
    std::vector<unsigned char> mirror;
    std::shared_ptr<void> keep_alive; // owner of wrapped memory, released with the storage

    ~Storage() {
        if (owns_buffer) backend->release(buffer);
    }
    void *host() {
        if (backend->host_addressable()) return buffer.handle;
        if (wrapped) return wrapped;
        const size_t bytes = size * dtype_size(dtype);
        if (mirror.size() < bytes) mirror.resize(bytes);
        return mirror.empty() ? nullptr : mirror.data();
    }
    // Whether the host view holds anything but zeros not yet made.
    bool host_made() const { return wrapped || !mirror.empty(); }
};

namespace {
Backend &pick(Backend *b) {
    return b ? *b : default_backend();
}
} // namespace

Array::Array(DType dtype, size_t n, Backend *backend) : s_(std::make_shared<Storage>()) {
    s_->backend = &pick(backend);
    s_->dtype = dtype;
    s_->size = n;
    s_->buffer = s_->backend->allocate(n * dtype_size(dtype));
}

Array Array::wrap(void *host, size_t n, DType dtype, Backend *backend,
                  std::shared_ptr<void> keep_alive) {
    Backend &b = pick(backend);
    if (n > 0 && !host)
        throw UsageError("Array::wrap: null pointer for " + std::to_string(n) + " elements");
    Array a;
    a.s_ = std::make_shared<Storage>();
    a.s_->backend = &b;
    a.s_->dtype = dtype;
    a.s_->size = n;
    a.s_->keep_alive = std::move(keep_alive);
    if (b.host_addressable()) {
        a.s_->buffer = Buffer{host, n * dtype_size(dtype)};
        a.s_->owns_buffer = false;
    } else {
        a.s_->buffer = b.allocate(n * dtype_size(dtype));
        a.s_->wrapped = host;
        a.push();
    }
    return a;
}

Array::Storage &Array::storage() const {
    if (!s_) throw UsageError("use of a null Array (default-constructed, never assigned)");
    return *s_;
}

DType Array::dtype() const {
    return s_ ? s_->dtype : DType::Float64;
}
size_t Array::size() const {
    return s_ ? s_->size : 0;
}
Backend &Array::backend() const {
    return *storage().backend;
}
bool Array::owns_memory() const {
    return s_ && s_->owns_buffer && !s_->wrapped;
}
const Buffer &Array::buffer() const {
    return storage().buffer;
}
void *Array::host_data() {
    return s_ ? s_->host() : nullptr;
}
const void *Array::host_data() const {
    return s_ ? s_->host() : nullptr;
}

void Array::push() {
    Storage &s = storage();
    if (s.backend->host_addressable() || s.size == 0) return;
    s.backend->write(s.buffer, 0, s.host(), nbytes());
}

void Array::pull() const {
    Storage &s = storage();
    if (s.backend->host_addressable() || s.size == 0) return;
    s.backend->read(s.buffer, 0, s.host(), nbytes());
}

void Array::assign_host(const void *src, size_t bytes) {
    if (bytes == 0) return;
    std::memcpy(host_data(), src, bytes);
    push();
}

void Array::read_host(void *dst, size_t bytes) const {
    if (bytes == 0) return;
    pull();
    std::memcpy(dst, host_data(), bytes);
}

void Array::resize(size_t n) {
    Storage &s = storage();
    const size_t elem = dtype_size(s.dtype);
    if (n * elem <= s.buffer.bytes) { // shrinking, or growing back within the allocation
        s.size = n;
        return;
    }
    Buffer fresh = s.backend->allocate(n * elem);
    s.backend->copy(fresh, 0, s.buffer, 0, s.size * elem);
    if (!s.backend->host_addressable() && s.host_made()) {
        std::vector<unsigned char> mirror(n * elem);
        if (s.size) std::memcpy(mirror.data(), s.host(), s.size * elem);
        s.mirror = std::move(mirror);
        s.wrapped = nullptr;
    }
    if (s.owns_buffer) s.backend->release(s.buffer);
    s.buffer = fresh;
    s.owns_buffer = true;
    s.size = n;
}

Array Array::copy() const {
    Storage &s = storage();
    Array out(s.dtype, s.size, s.backend);
    s.backend->copy(out.s_->buffer, 0, s.buffer, 0, nbytes());
    if (!s.backend->host_addressable() && s.size && s.host_made())
        std::memcpy(out.s_->host(), s.host(), nbytes());
    return out;
}

void Array::check_size(size_t n, const std::string &what) const {
    if (size() != n)
        throw UsageError(what + " has " + std::to_string(size()) + " elements, expected " +
                         std::to_string(n));
}

void Array::check_type(DType t) const {
    if (dtype() != t)
        throw UsageError(std::string("array of dtype ") + dtype_name(dtype()) + " used as " +
                         dtype_name(t));
}

} // namespace smelt
