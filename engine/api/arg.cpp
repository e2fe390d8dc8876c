// Arg (a kernel argument) and Value (a typed scalar result).
#include "smelt.h"

#include <cstdint>

namespace smelt {

Arg::Arg(const Array &a) : array_(a), is_array_(true) {
    if (a.is_null()) throw UsageError("a null Array handle was passed as a kernel argument");
}

Arg::Arg(const Array &a, std::vector<int64_t> shape) : Arg(a) {
    // Checked here, where the mistake is made: the call that binds the argument cannot say
    // which shape was meant.
    std::string text;
    for (int64_t d : shape)
        text += (text.empty() ? "" : ", ") + std::to_string(d);
    if (shape.size() == 1) text += ",";
    if (shape.empty())
        throw UsageError("a shaped array argument needs at least one extent, not the shape ()");
    int64_t product = 1;
    bool overflow = false;
    for (int64_t d : shape) {
        if (d < 0)
            throw UsageError("the shape (" + text + ") of an array argument has a negative extent");
        overflow = overflow || (d != 0 && product > INT64_MAX / d);
        product = overflow ? 0 : product * d;
    }
    if (overflow || product != static_cast<int64_t>(a.size()))
        throw UsageError("an array argument of shape (" + text + ") needs " +
                         (overflow ? std::string("more than 2^63") : std::to_string(product)) +
                         " elements, but the array has " + std::to_string(a.size()));
    shape_ = std::move(shape);
}

void Arg::set_int(Scalar s, int64_t v) {
    scalar_ = s;
    v_.i = v;
}

void Arg::set_uint(Scalar s, uint64_t v) {
    scalar_ = s;
    v_.u = v;
}

void Arg::set_float(Scalar s, double v) {
    scalar_ = s;
    v_.f = v;
}

Type Arg::type() const {
    if (!is_array_) return Type::scalar(scalar_);
    const Scalar elem = dtype_to_scalar(array_.dtype());
    if (shape_.size() >= 2) return Type::matrix(elem, shape_, AddrSpace::Global);
    return Type::pointer(elem);
}

namespace {

template <class From> void store(From v, Scalar to, void *out) {
    auto put = [&]<class T>(T x) { std::memcpy(out, &x, sizeof(T)); };
    switch (to) {
    case Scalar::Bool:
        return put(static_cast<bool>(v));
    case Scalar::I8:
        return put(static_cast<int8_t>(v));
    case Scalar::U8:
        return put(static_cast<uint8_t>(v));
    case Scalar::I16:
        return put(static_cast<int16_t>(v));
    case Scalar::U16:
        return put(static_cast<uint16_t>(v));
    case Scalar::I32:
        return put(static_cast<int32_t>(v));
    case Scalar::U32:
        return put(static_cast<uint32_t>(v));
    case Scalar::I64:
        return put(static_cast<int64_t>(v));
    case Scalar::U64:
        return put(static_cast<uint64_t>(v));
    case Scalar::F32:
        return put(static_cast<float>(v));
    case Scalar::F64:
        return put(static_cast<double>(v));
    }
}

} // namespace

void Arg::convert_scalar(Scalar to, void *out) const {
    SMELT_INTERNAL_ASSERT(!is_array_, "convert_scalar on an array argument");
    if (scalar_is_float(scalar_))
        store(v_.f, to, out);
    else if (scalar_ == Scalar::Bool || scalar_is_signed(scalar_))
        store(v_.i, to, out);
    else
        store(v_.u, to, out);
}

Value::Value(DType dtype, const void *bytes) : dtype_(dtype) {
    std::memcpy(bytes_, bytes, dtype_size(dtype));
}

} // namespace smelt
