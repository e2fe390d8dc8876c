#include "primitives/opencl/device_sort_source.h"

#include "codegen/dialect.h"
#include "primitives/algorithm_source.h"
#include "support/error.h"

namespace smelt::primitives::opencl {

const char *unsigned_type(size_t bytes) {
    switch (bytes) {
    case 1:
        return "smelt_u8";
    case 2:
        return "smelt_u16";
    case 4:
        return "smelt_u32";
    case 8:
        return "smelt_u64";
    }
    throw UsageError("sort: unsupported element size " + std::to_string(bytes) + " bytes");
}

std::string sort_defines(DType key, size_t value_size, bool iota, bool wide_counts) {
    const size_t kb = dtype_size(key);
    std::string defs = "#define KT " + std::string(unsigned_type(kb)) + "\n";
    defs += "#define KIND " +
            std::string(dtype_is_float(key)    ? "2"
                        : dtype_is_signed(key) ? "1"
                                               : "0") +
            "\n";
    if (key == DType::Float32) defs += "#define FLOAT_INF 0x7F800000u\n";
    if (key == DType::Float64) defs += "#define FLOAT_INF 0x7FF0000000000000UL\n";
    defs += "#define CT " + std::string(wide_counts ? "smelt_u64" : "smelt_u32") + "\n";
    if (value_size) {
        defs += "#define HAS_VALUES 1\n#define VT " + std::string(unsigned_type(value_size)) + "\n";
        if (iota) defs += "#define IOTA 1\n";
    }
    return defs;
}

std::string sort_signature(DType key, size_t value_size, bool iota, bool wide_counts) {
    return std::string("keys=") + dtype_name(key) + ",value_bytes=" + std::to_string(value_size) +
           (iota ? ",iota" : "") + (wide_counts ? ",wide" : "");
}

std::string sort_program_source(const std::string &title, const std::string &defines,
                                const std::string &algorithm) {
    const codegen::Dialect &d = codegen::opencl_dialect();
    return "/* " + title + " */\n" + d.prelude_head + defines + portable_words(d) +
           algorithm_source("radix_common.kernel") + algorithm_source(algorithm);
}

} // namespace smelt::primitives::opencl
