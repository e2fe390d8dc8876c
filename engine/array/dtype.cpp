#include "array/dtype.h"

#include "support/error.h"

#include <string>

namespace smelt {

namespace {

struct DTypeInfo {
    DType dtype;
    size_t size;
    const char *name;
    const char *c_name;
    char format;
    Scalar scalar;
    const char *kernel_name; // the kernel language's spelling (ir/type.h scalar_name)
};

constexpr DTypeInfo kInfo[] = {
    {DType::Int8, 1, "int8", "int8_t", 'b', Scalar::I8, "char"},
    {DType::Int16, 2, "int16", "int16_t", 'h', Scalar::I16, "short"},
    {DType::Int32, 4, "int32", "int32_t", 'i', Scalar::I32, "int"},
    {DType::Int64, 8, "int64", "int64_t", 'q', Scalar::I64, "long"},
    {DType::UInt8, 1, "uint8", "uint8_t", 'B', Scalar::U8, "uchar"},
    {DType::UInt16, 2, "uint16", "uint16_t", 'H', Scalar::U16, "ushort"},
    {DType::UInt32, 4, "uint32", "uint32_t", 'I', Scalar::U32, "uint"},
    {DType::UInt64, 8, "uint64", "uint64_t", 'Q', Scalar::U64, "ulong"},
    {DType::Float32, 4, "float32", "float", 'f', Scalar::F32, "float"},
    {DType::Float64, 8, "float64", "double", 'd', Scalar::F64, "double"},
};

const DTypeInfo &info(DType t) {
    return kInfo[static_cast<size_t>(t)];
}

} // namespace

size_t dtype_size(DType t) {
    return info(t).size;
}
bool dtype_is_float(DType t) {
    return t == DType::Float32 || t == DType::Float64;
}
bool dtype_is_signed(DType t) {
    return dtype_is_float(t) || t == DType::Int8 || t == DType::Int16 || t == DType::Int32 ||
           t == DType::Int64;
}
const char *dtype_name(DType t) {
    return info(t).name;
}
const char *dtype_c_name(DType t) {
    return info(t).c_name;
}
char dtype_format_char(DType t) {
    return info(t).format;
}

DType dtype_from_name(std::string_view name) {
    for (const auto &i : kInfo)
        if (name == i.name || name == i.kernel_name) return i.dtype;
    // NumPy's aliases for the platform's C types (LP64 Linux).
    if (name == "float_" || name == "f8") return DType::Float64;
    if (name == "int_" || name == "i8") return DType::Int64;
    if (name == "f4") return DType::Float32;
    if (name == "i4") return DType::Int32;
    std::string known;
    for (const auto &i : kInfo)
        known += std::string(known.empty() ? "" : ", ") + i.name;
    throw UsageError("unknown dtype '" + std::string(name) + "' (known: " + known + ")");
}

std::optional<DType> dtype_from_format(std::string_view format) {
    // Byte order / alignment prefixes: only native little-endian data is accepted.
    if (!format.empty() && (format[0] == '@' || format[0] == '=' || format[0] == '<'))
        format.remove_prefix(1);
    if (format.size() != 1) return std::nullopt;
    switch (format[0]) {
    case 'b':
        return DType::Int8;
    case 'h':
        return DType::Int16;
    case 'i':
        return DType::Int32;
    case 'l': // C long is 64-bit on LP64 Linux, where the engine runs
    case 'q':
        return DType::Int64;
    case 'B':
        return DType::UInt8;
    case 'H':
        return DType::UInt16;
    case 'I':
        return DType::UInt32;
    case 'L':
    case 'Q':
        return DType::UInt64;
    case 'f':
        return DType::Float32;
    case 'd':
        return DType::Float64;
    default:
        return std::nullopt;
    }
}

Scalar dtype_to_scalar(DType t) {
    return info(t).scalar;
}

DType dtype_from_scalar(Scalar s) {
    for (const auto &i : kInfo)
        if (i.scalar == s) return i.dtype;
    throw UsageError("kernel type 'bool' has no array dtype; use uint8 or int32 arrays for flags");
}

} // namespace smelt
