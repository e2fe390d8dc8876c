// The OpenCL C program of the device radix sort: a per-call header of #defines that specialises
// the algorithm files primitives/algorithms/radix_{common,chunked,tiled}.kernel for a key dtype,
// a value size and a counter width, followed by those files (see their tops for every macro).
#pragma once

#include "array/dtype.h"

#include <cstddef>
#include <string>

namespace smelt::primitives::opencl {

// "smelt_u8", "smelt_u16", "smelt_u32", "smelt_u64" for 1, 2, 4, 8 bytes (UsageError
// otherwise): the storage a key or value of that size moves as.
const char *unsigned_type(size_t bytes);
// The per-call header both layouts take: KT, KIND, FLOAT_INF, CT, HAS_VALUES, VT, IOTA.
std::string sort_defines(DType key, size_t value_size, bool iota, bool wide_counts);
// The cache entry's signature: "keys=int32,value_bytes=4[,iota][,wide]".
std::string sort_signature(DType key, size_t value_size, bool iota, bool wide_counts);

// The program's text: a comment line `title`, the OpenCL dialect's prelude head (SMELT_INLINE),
// `defines` (the per-call header), the portable words, radix_common.kernel, then `algorithm`
// (radix_chunked.kernel or radix_tiled.kernel).
std::string sort_program_source(const std::string &title, const std::string &defines,
                                const std::string &algorithm);

} // namespace smelt::primitives::opencl
