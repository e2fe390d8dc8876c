// Array: a typed 1-D buffer owned by a backend (or wrapping host memory without a copy on
// backends whose memory the host can address, i.e. the CPU).
//
// An Array is a handle, like a NumPy array object in Python: copying the handle shares the
// data (and later resizes); copy() makes an independent array. Every Array has a host view,
// host_data(): on the CPU it is the data itself; on a GPU backend it is a host mirror that
// pull() fills from the device and push() sends back (made, zeroed, on first use: arrays the host
// never looks at cost no host memory). On the CPU push/pull do nothing, but code that may run
// on any backend calls them where a GPU would need them. Making the mirror is not thread-safe:
// a new array's first host_data() calls must not race.
#pragma once

#include "array/dtype.h"
#include "backends/backend.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace smelt {

class Array {
public:
    Array() = default; // a null handle: size 0, usable only as something to assign to

    // An uninitialised array of n elements on `backend` (default: default_backend()).
    Array(DType dtype, size_t n, Backend *backend = nullptr);

    // Uses n elements at `host` without copying when the backend is host-addressable;
    // elsewhere the memory becomes the host mirror and is pushed to the device here. The memory
    // must stay valid and unmoved while the array uses it: `keep_alive` (e.g. a reference to the
    // NumPy array that owns it) is held until then.
    static Array wrap(void *host, size_t n, DType dtype, Backend *backend = nullptr,
                      std::shared_ptr<void> keep_alive = nullptr);
    template <class T> static Array wrap(T *host, size_t n, Backend *backend = nullptr) {
        return wrap(static_cast<void *>(host), n, dtype_of<T>(), backend);
    }
    // A new array holding a copy of `values`.
    template <class T>
    static Array from_vector(const std::vector<T> &values, Backend *backend = nullptr) {
        Array a(dtype_of<T>(), values.size(), backend);
        a.assign_host(values.data(), values.size() * sizeof(T));
        return a;
    }
    // The values as a host vector (pulls first). UsageError when T is not the dtype's type.
    template <class T> std::vector<T> to_vector() const {
        check_type(dtype_of<T>());
        std::vector<T> out(size());
        read_host(out.data(), out.size() * sizeof(T));
        return out;
    }

    bool is_null() const { return !s_; }
    DType dtype() const;
    size_t size() const;
    size_t nbytes() const { return size() * dtype_size(dtype()); }
    Backend &backend() const;
    // False when the array wraps memory it does not own.
    bool owns_memory() const;

    // The device memory, for kernel launches (KernelArg::of(a.buffer())).
    const Buffer &buffer() const;
    // The host view (see above); nullptr for an empty array.
    void *host_data();
    const void *host_data() const;
    template <class T> T *data() {
        check_type(dtype_of<T>());
        return static_cast<T *>(host_data());
    }
    template <class T> const T *data() const {
        check_type(dtype_of<T>());
        return static_cast<const T *>(host_data());
    }

    void push();       // host view → device
    void pull() const; // device → host view (the host view is a cache, hence const)

    // Keeps the first min(n, size()) elements; new elements are uninitialised. Growing a
    // wrapped array moves it into memory the array owns (it no longer aliases the caller's).
    void resize(size_t n);
    Array copy() const;

    // UsageError unless this array has `n` elements (message names `what`).
    void check_size(size_t n, const std::string &what) const;
    void check_type(DType t) const;

private:
    struct Storage;
    void assign_host(const void *src, size_t bytes);
    void read_host(void *dst, size_t bytes) const;
    Storage &storage() const;

    std::shared_ptr<Storage> s_;
};

} // namespace smelt
