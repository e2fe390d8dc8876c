// Device-side packing for halos and migration, from engine primitives and the kernels of
// apps/common/kernels/halo.py: selection is a Scan (in_interval / slab_compact) that compacts
// the indices of the chosen particles in index order; packing is a gather kernel. A message of
// several fields is bytes in one device array (whatever the dtypes: float32 or float64
// coordinates, int32 ids), which travels device to device (DeviceLink) or through the host.
#pragma once

#include "smelt.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace smelt::apps::domain {

class DevicePack {
public:
    // `halo`: apps/common/kernels/halo.py. Kernels compile on first use.
    DevicePack(const smelt::Program &halo, const smelt::Options &options);
    DevicePack(const DevicePack &) = delete;
    DevicePack &operator=(const DevicePack &) = delete;

    // The indices i < n with lo <= c[i] < hi, increasing: an int32 array of exactly that many.
    smelt::Array select(const smelt::Array &c, int64_t n, double lo, double hi);
    // src[list[k]], a new array.
    smelt::Array gather(const smelt::Array &src, const smelt::Array &list);
    // src[list[k]] into dst[k]; dst at least as long as list, the rest of it untouched.
    void gather_into(const smelt::Array &src, const smelt::Array &list, smelt::Array &dst);
    // The coordinate columns of `list`, [x | y] in 2D or [x | y | z] in 3D (`coords` holds 2 or
    // 3 arrays), with `shift` added along `axis`, into `packed`, regrown to hold them when
    // smaller: one kernel (gather_xy / gather_xyz), so a halo refresh copies one array per
    // direction. std::invalid_argument for another column count.
    void pack_coords(std::span<smelt::Array *const> coords, const smelt::Array &list, int axis,
                     double shift, smelt::Array &packed);
    // The inverse at the receiver: coords[a][at + k] = packed[a * count + k].
    void place_coords(const smelt::Array &packed, size_t count,
                      std::span<smelt::Array *const> coords, size_t at);

    // A message of several fields on the device: the bytes of fields[0][list[k]] for every k,
    // then those of fields[1], ..., into `message` (UInt8, regrown when smaller); returns
    // their count. `head`, when given, is a packed array whose first `head_count` elements go
    // first (pack_coords' columns).
    size_t pack_fields(std::span<smelt::Array *const> fields, const smelt::Array &list,
                       smelt::Array &message, const smelt::Array *head = nullptr,
                       size_t head_count = 0);
    // Its inverse: `count` elements of each field, one field after the other as pack_fields
    // wrote them, from `message` into fields[f][at + k] (device copies).
    void place_fields(const smelt::Array &message, size_t count,
                      std::span<smelt::Array *const> fields, size_t at);

    // pack_fields' message appended to `out` in one device-to-host copy.
    void append_fields(std::span<smelt::Array *const> fields, const smelt::Array &list,
                       std::vector<char> &out, const smelt::Array *head = nullptr,
                       size_t head_count = 0);
    // place_fields from host bytes, in one host-to-device copy.
    void place_fields(const char *bytes, size_t count, std::span<smelt::Array *const> fields,
                      size_t at);

    smelt::Backend &backend() const { return *backend_; }

private:
    smelt::Backend *backend_;
    smelt::Scan select_;
    smelt::Elementwise gather_real_, gather_int_, gather_xy_, place_xy_, gather_xyz_, place_xyz_;
    smelt::Array picked_, picked_total_;
    smelt::Array staging_; // append_fields' and place_fields' bytes on the device
};

// The first `count` elements of `a` appended to `out` as bytes (device → host).
void append_bytes(const smelt::Array &a, size_t count, std::vector<char> &out);
// `count` elements from `bytes` written into `a` from element `offset` on (host → device).
void write_elements(const smelt::Array &a, size_t offset, const char *bytes, size_t count);
// A new array of `n` elements of `dtype` on `backend` whose first `keep` elements are those of
// `a` (device copy); the rest uninitialised.
smelt::Array regrow(const smelt::Array &a, size_t keep, size_t n);
// Makes `a` a UInt8 array on `backend` of at least `bytes` elements: kept when it is one, else
// a new one with room to spare (a message buffer that grows seldom).
void reserve_bytes(smelt::Array &a, size_t bytes, smelt::Backend &backend);

// The app's halo.py: beside the shared kernels its kernel file imports (shared_kernel_path).
std::string halo_kernel_file(const std::string &app_kernel_file);

} // namespace smelt::apps::domain
