// The Backend interface's defaults.
#include "backends/backend.h"

#include <vector>

namespace smelt {

void Backend::fill_zero(const Buffer &dst, size_t offset, size_t bytes) {
    if (bytes == 0) return;
    const std::vector<unsigned char> zeros(bytes, 0);
    write(dst, offset, zeros.data(), bytes);
}

} // namespace smelt
