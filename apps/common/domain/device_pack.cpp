#include "common/domain/device_pack.h"

#include "backends/registry.h"
#include "common/kernel_file.h"
#include "common/run_config.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace smelt::apps::domain {

DevicePack::DevicePack(const smelt::Program &halo, const smelt::Options &options)
    : backend_(&backend_of(options)),
      select_(halo, "in_interval", "slab_compact", "a+b", DType::Int32, "0", "", options),
      gather_real_(halo, "gather_real", options), gather_int_(halo, "gather_int", options),
      gather_xy_(halo, "gather_xy", options), place_xy_(halo, "place_xy", options),
      gather_xyz_(halo, "gather_xyz", options), place_xyz_(halo, "place_xyz", options) {
    picked_total_ = zeros(1, DType::Int32, backend_);
}

smelt::Array DevicePack::select(const smelt::Array &c, int64_t n, double lo, double hi) {
    if (n <= 0) return smelt::Array(DType::Int32, 0, backend_);
    if (picked_.is_null() || picked_.size() < size_t(n))
        picked_ = smelt::Array(DType::Int32, size_t(n) + size_t(n) / 4 + 16, backend_);
    select_(
        {{"c", c}, {"lo", lo}, {"hi", hi}, {"picked", picked_}, {"picked_total", picked_total_}},
        n);
    const int32_t count = picked_total_.to_vector<int32_t>()[0];
    smelt::Array list(DType::Int32, size_t(count), backend_);
    if (count > 0)
        backend_->copy(list.buffer(), 0, picked_.buffer(), 0, size_t(count) * sizeof(int32_t));
    return list;
}

smelt::Array DevicePack::gather(const smelt::Array &src, const smelt::Array &list) {
    smelt::Array dst(src.dtype(), list.size(), backend_);
    gather_into(src, list, dst);
    return dst;
}

void DevicePack::gather_into(const smelt::Array &src, const smelt::Array &list, smelt::Array &dst) {
    if (dst.size() < list.size()) throw std::logic_error("gather_into a shorter array");
    if (list.size() == 0) return;
    // The kernels run over the list (Elementwise takes its size from the first array).
    if (src.dtype() == DType::Int32)
        gather_int_({list, src, dst});
    else
        gather_real_({list, src, dst});
}

namespace {

void check_columns(std::span<smelt::Array *const> coords) {
    if (coords.size() != 2 && coords.size() != 3)
        throw std::invalid_argument("halo coordinates: 2 or 3 columns, got " +
                                    std::to_string(coords.size()));
}

} // namespace

void DevicePack::pack_coords(std::span<smelt::Array *const> coords, const smelt::Array &list,
                             int axis, double shift, smelt::Array &packed) {
    check_columns(coords);
    const size_t count = list.size(), d = coords.size();
    if (count == 0) return;
    if (packed.is_null() || packed.size() < d * count)
        packed = smelt::Array(coords[0]->dtype(), d * count, backend_);
    if (d == 2)
        gather_xy_(int64_t(count), {list, *coords[0], *coords[1], packed, int(count), axis, shift});
    else
        gather_xyz_(int64_t(count),
                    {list, *coords[0], *coords[1], *coords[2], packed, int(count), axis, shift});
}

void DevicePack::place_coords(const smelt::Array &packed, size_t count,
                              std::span<smelt::Array *const> coords, size_t at) {
    check_columns(coords);
    if (count == 0) return;
    if (coords.size() == 2)
        place_xy_(int64_t(count), {packed, *coords[0], *coords[1], int(count), int(at)});
    else
        place_xyz_(int64_t(count),
                   {packed, *coords[0], *coords[1], *coords[2], int(count), int(at)});
}

size_t DevicePack::pack_fields(std::span<smelt::Array *const> fields, const smelt::Array &list,
                               smelt::Array &message, const smelt::Array *head, size_t head_count) {
    const size_t count = list.size();
    const size_t head_bytes = head ? head_count * dtype_size(head->dtype()) : 0;
    size_t bytes = head_bytes;
    for (const smelt::Array *f : fields)
        bytes += count * dtype_size(f->dtype());
    if (bytes == 0) return 0;
    reserve_bytes(message, bytes, *backend_);
    if (head_bytes > 0) backend_->copy(message.buffer(), 0, head->buffer(), 0, head_bytes);
    size_t at = head_bytes;
    for (const smelt::Array *f : fields) {
        if (count == 0) break;
        const smelt::Array g = gather(*f, list);
        const size_t b = count * dtype_size(f->dtype());
        backend_->copy(message.buffer(), at, g.buffer(), 0, b);
        at += b;
    }
    return bytes;
}

void DevicePack::place_fields(const smelt::Array &message, size_t count,
                              std::span<smelt::Array *const> fields, size_t at) {
    if (count == 0) return;
    size_t off = 0;
    for (smelt::Array *f : fields) {
        if (at + count > f->size()) throw std::logic_error("place_fields past an array's end");
        off += count * dtype_size(f->dtype());
    }
    if (off > message.size() * dtype_size(message.dtype()))
        throw std::logic_error("place_fields past the message's end");
    off = 0;
    for (smelt::Array *f : fields) {
        const size_t s = dtype_size(f->dtype());
        backend_->copy(f->buffer(), at * s, message.buffer(), off, count * s);
        off += count * s;
    }
}

void DevicePack::append_fields(std::span<smelt::Array *const> fields, const smelt::Array &list,
                               std::vector<char> &out, const smelt::Array *head,
                               size_t head_count) {
    const size_t bytes = pack_fields(fields, list, staging_, head, head_count);
    if (bytes == 0) return;
    const size_t start = out.size();
    out.resize(start + bytes);
    backend_->read(staging_.buffer(), 0, out.data() + start, bytes);
}

void DevicePack::place_fields(const char *bytes, size_t count,
                              std::span<smelt::Array *const> fields, size_t at) {
    if (count == 0) return;
    size_t total = 0;
    for (const smelt::Array *f : fields)
        total += count * dtype_size(f->dtype());
    // The placing below checks the arrays' ends.
    reserve_bytes(staging_, total, *backend_);
    backend_->write(staging_.buffer(), 0, bytes, total);
    place_fields(staging_, count, fields, at);
}

void reserve_bytes(smelt::Array &a, size_t bytes, smelt::Backend &backend) {
    if (!a.is_null() && a.dtype() == DType::UInt8 && a.size() >= bytes) return;
    a = smelt::Array(DType::UInt8, bytes + bytes / 4 + 256, &backend);
}

void append_bytes(const smelt::Array &a, size_t count, std::vector<char> &out) {
    const size_t bytes = count * dtype_size(a.dtype());
    if (bytes == 0) return;
    const size_t at = out.size();
    out.resize(at + bytes);
    a.backend().read(a.buffer(), 0, out.data() + at, bytes);
}

void write_elements(const smelt::Array &a, size_t offset, const char *bytes, size_t count) {
    const size_t size = dtype_size(a.dtype());
    if (count == 0) return;
    if (offset + count > a.size()) throw std::logic_error("write_elements past the array's end");
    a.backend().write(a.buffer(), offset * size, bytes, count * size);
}

smelt::Array regrow(const smelt::Array &a, size_t keep, size_t n) {
    smelt::Array out(a.dtype(), n, &a.backend());
    const size_t k = std::min({keep, n, a.size()});
    if (k > 0) a.backend().copy(out.buffer(), 0, a.buffer(), 0, k * dtype_size(a.dtype()));
    return out;
}

std::string halo_kernel_file(const std::string &app_kernel_file) {
    for (const std::string &dir : shared_kernel_path(app_kernel_file)) {
        const std::filesystem::path p = std::filesystem::path(dir) / "halo.py";
        if (std::filesystem::is_regular_file(p)) return p.string();
    }
    throw std::runtime_error("halo.py (the domain decomposition's kernels) not found beside the "
                             "shared kernels of " +
                             app_kernel_file);
}

} // namespace smelt::apps::domain
