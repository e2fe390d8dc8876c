#include "array/array_ops.h"

#include "support/error.h"

#include <cmath>
#include <cstring>
#include <string>

namespace smelt {

namespace {

void check_same_backend(const Array &a, const Array &b, const char *op) {
    if (&a.backend() != &b.backend())
        throw UsageError(std::string(op) + ": arrays live on different backends (" +
                         a.backend().name() + " and " + b.backend().name() + ")");
}

void check_integer(const Array &a, const char *op, const char *what) {
    if (dtype_is_float(a.dtype()))
        throw UsageError(std::string(op) + ": " + what + " must have an integer dtype, not " +
                         dtype_name(a.dtype()));
}

// Fills a new array with f(i) converted to the dtype's type.
template <class F> Array generate(size_t n, DType dtype, Backend *backend, F f) {
    Array a(dtype, n, backend);
    visit_dtype(dtype, [&]<class T>() {
        T *p = a.data<T>();
        for (size_t i = 0; i < n; ++i)
            p[i] = static_cast<T>(f(i));
    });
    a.push();
    return a;
}

// Reads element i of an integer array as int64 (uint64 values above INT64_MAX become
// negative and are then rejected as out of range).
template <class F> void for_each_index(const Array &indices, F f) {
    visit_dtype(indices.dtype(), [&]<class I>() {
        const I *idx = indices.data<I>();
        for (size_t i = 0; i < indices.size(); ++i)
            f(i, static_cast<int64_t>(idx[i]));
    });
}

} // namespace

Array empty(size_t n, DType dtype, Backend *backend) {
    return Array(dtype, n, backend);
}

Array zeros(size_t n, DType dtype, Backend *backend) {
    Array a(dtype, n, backend);
    if (n == 0) return a;
    // All-zero bits is 0 for every dtype. On a device, filled there: no host mirror is made.
    if (a.backend().host_addressable())
        std::memset(a.host_data(), 0, a.nbytes());
    else
        a.backend().fill_zero(a.buffer(), 0, a.nbytes());
    return a;
}

Array ones(size_t n, DType dtype, Backend *backend) {
    return full(n, 1.0, dtype, backend);
}

Array full(size_t n, double value, DType dtype, Backend *backend) {
    return generate(n, dtype, backend, [value](size_t) { return value; });
}

Array arange(int64_t n, DType dtype, Backend *backend) {
    if (n < 0) throw UsageError("arange: negative length " + std::to_string(n));
    return generate(static_cast<size_t>(n), dtype, backend, [](size_t i) { return i; });
}

Array arange(double start, double stop, double step, DType dtype, Backend *backend) {
    if (step == 0 || !std::isfinite(step))
        throw UsageError("arange: step must be finite and non-zero");
    double len = std::ceil((stop - start) / step);
    size_t n = len > 0 ? static_cast<size_t>(len) : 0;
    return generate(n, dtype, backend,
                    [=](size_t i) { return start + static_cast<double>(i) * step; });
}

Array linspace(double start, double stop, size_t num, DType dtype, bool endpoint,
               Backend *backend) {
    const size_t div = endpoint ? (num > 1 ? num - 1 : 1) : num;
    const double step = div ? (stop - start) / static_cast<double>(div) : 0.0;
    const bool integer = !dtype_is_float(dtype);
    return generate(num, dtype, backend, [=](size_t i) {
        double v =
            (endpoint && num > 1 && i == num - 1) ? stop : start + static_cast<double>(i) * step;
        return integer ? std::floor(v) : v;
    });
}

Array take(const Array &src, const Array &indices) {
    check_integer(indices, "take", "indices");
    check_same_backend(src, indices, "take");
    src.pull();
    indices.pull();
    Array out(src.dtype(), indices.size(), &src.backend());
    const size_t elem = dtype_size(src.dtype());
    const auto *in = static_cast<const unsigned char *>(src.host_data());
    auto *dst = static_cast<unsigned char *>(out.host_data());
    const int64_t n = static_cast<int64_t>(src.size());
    // Moving raw elements by size keeps this one loop per index type, whatever src holds.
    for_each_index(indices, [&](size_t i, int64_t k) {
        if (k < 0 || k >= n)
            throw UsageError("take: indices[" + std::to_string(i) + "] = " + std::to_string(k) +
                             " is outside [0, " + std::to_string(n) + ")");
        std::memcpy(dst + i * elem, in + static_cast<size_t>(k) * elem, elem);
    });
    out.push();
    return out;
}

std::vector<Array> align(const std::vector<Array> &arrays, const Array &indices) {
    std::vector<Array> out;
    out.reserve(arrays.size());
    for (const auto &a : arrays)
        out.push_back(take(a, indices));
    return out;
}

Array where(const Array &cond, const Array &a, const Array &b) {
    a.check_size(cond.size(), "where: a");
    b.check_size(cond.size(), "where: b");
    if (a.dtype() != b.dtype())
        throw UsageError(std::string("where: a and b must have the same dtype (got ") +
                         dtype_name(a.dtype()) + " and " + dtype_name(b.dtype()) + ")");
    check_same_backend(cond, a, "where");
    check_same_backend(cond, b, "where");
    cond.pull();
    a.pull();
    b.pull();
    Array out(a.dtype(), cond.size(), &a.backend());
    visit_dtype(a.dtype(), [&]<class T>() {
        const T *pa = a.data<T>();
        const T *pb = b.data<T>();
        T *po = out.data<T>();
        visit_dtype(cond.dtype(), [&]<class C>() {
            const C *pc = cond.data<C>();
            for (size_t i = 0; i < cond.size(); ++i)
                po[i] = pc[i] != C(0) ? pa[i] : pb[i];
        });
    });
    out.push();
    return out;
}

} // namespace smelt
