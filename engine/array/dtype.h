// Element types of runtime arrays, named as NumPy names them, and their links to the kernel
// language's scalar types (ir/type.h), C type names and NumPy/buffer-protocol format chars.
#pragma once

#include "ir/type.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace smelt {

enum class DType : uint8_t {
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float32,
    Float64
};

inline constexpr DType kAllDTypes[] = {DType::Int8,    DType::Int16,  DType::Int32,  DType::Int64,
                                       DType::UInt8,   DType::UInt16, DType::UInt32, DType::UInt64,
                                       DType::Float32, DType::Float64};

size_t dtype_size(DType t);
bool dtype_is_float(DType t);
bool dtype_is_signed(DType t);     // floats count as signed
const char *dtype_name(DType t);   // "int32", "float64", ... (NumPy's names)
const char *dtype_c_name(DType t); // "int32_t", "double", ... (the C/C++ spelling)
char dtype_format_char(DType t);   // NumPy/struct format: 'b','h','i','q','B','H','I','Q','f','d'

// "int32", "float", "double", NumPy names and kernel-language names; UsageError when unknown.
DType dtype_from_name(std::string_view name);
// Buffer-protocol format strings ("i", "<i", "=q", "l" ...); nullopt when not a supported type.
std::optional<DType> dtype_from_format(std::string_view format);

// Kernel-language scalar <-> array dtype. Bool has no array dtype (UsageError).
Scalar dtype_to_scalar(DType t);
DType dtype_from_scalar(Scalar s);

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<int8_t>() {
    return DType::Int8;
}
template <> constexpr DType dtype_of<int16_t>() {
    return DType::Int16;
}
template <> constexpr DType dtype_of<int32_t>() {
    return DType::Int32;
}
template <> constexpr DType dtype_of<int64_t>() {
    return DType::Int64;
}
template <> constexpr DType dtype_of<uint8_t>() {
    return DType::UInt8;
}
template <> constexpr DType dtype_of<uint16_t>() {
    return DType::UInt16;
}
template <> constexpr DType dtype_of<uint32_t>() {
    return DType::UInt32;
}
template <> constexpr DType dtype_of<uint64_t>() {
    return DType::UInt64;
}
template <> constexpr DType dtype_of<float>() {
    return DType::Float32;
}
template <> constexpr DType dtype_of<double>() {
    return DType::Float64;
}

// Calls f.template operator()<T>() with T the C++ type of `t`, e.g.
//   visit_dtype(t, [&]<class T>() { fill<T>(...); });
template <class F> decltype(auto) visit_dtype(DType t, F &&f) {
    switch (t) {
    case DType::Int8:
        return f.template operator()<int8_t>();
    case DType::Int16:
        return f.template operator()<int16_t>();
    case DType::Int32:
        return f.template operator()<int32_t>();
    case DType::Int64:
        return f.template operator()<int64_t>();
    case DType::UInt8:
        return f.template operator()<uint8_t>();
    case DType::UInt16:
        return f.template operator()<uint16_t>();
    case DType::UInt32:
        return f.template operator()<uint32_t>();
    case DType::UInt64:
        return f.template operator()<uint64_t>();
    case DType::Float32:
        return f.template operator()<float>();
    case DType::Float64:
        break;
    }
    return f.template operator()<double>();
}

} // namespace smelt
