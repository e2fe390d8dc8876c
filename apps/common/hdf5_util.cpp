#include "common/hdf5_util.h"

#include <algorithm>
#include <stdexcept>

namespace smelt::apps::h5 {

Handle &Handle::operator=(Handle &&o) noexcept {
    if (this != &o) {
        reset();
        id_ = o.id_;
        close_ = o.close_;
        o.id_ = -1;
    }
    return *this;
}

void Handle::reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
}

hid_t Checker::id(hid_t v, const std::string &what) const {
    if (v < 0) throw std::runtime_error(path + ": HDF5 error: " + what);
    return v;
}

void Checker::ok(herr_t v, const std::string &what) const {
    if (v < 0) throw std::runtime_error(path + ": HDF5 error: " + what);
}

Handle make_group(const Checker &c, hid_t parent, const std::string &name) {
    return {c.id(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                 "create group " + name),
            H5Gclose};
}

Handle open_group(const Checker &c, hid_t parent, const std::string &name) {
    if (!exists(parent, name)) throw std::runtime_error(c.path + ": no group " + name);
    return {c.id(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), "open group " + name), H5Gclose};
}

Handle open_dataset(const Checker &c, hid_t parent, const std::string &name) {
    if (!exists(parent, name)) throw std::runtime_error(c.path + ": no dataset " + name);
    return {c.id(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "open dataset " + name), H5Dclose};
}

bool exists(hid_t parent, const std::string &name) {
    return H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> children(const Checker &c, hid_t group) {
    H5G_info_t info;
    c.ok(H5Gget_info(group, &info), "group info");
    std::vector<std::string> out;
    for (hsize_t k = 0; k < info.nlinks; ++k) {
        ssize_t len =
            H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, k, nullptr, 0, H5P_DEFAULT);
        c.ok(herr_t(len < 0 ? -1 : 0), "link name");
        std::string name(size_t(len) + 1, '\0');
        H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, k, name.data(), name.size(),
                           H5P_DEFAULT);
        name.resize(size_t(len));
        out.push_back(name);
    }
    return out;
}

namespace {

Handle fixed_string_type(const Checker &c, size_t width) {
    Handle t(c.id(H5Tcopy(H5T_C_S1), "copy string type"), H5Tclose);
    c.ok(H5Tset_size(t.get(), width < 1 ? 1 : width), "fixed-length string");
    c.ok(H5Tset_strpad(t.get(), H5T_STR_NULLPAD), "string padding");
    c.ok(H5Tset_cset(t.get(), H5T_CSET_ASCII), "ASCII string");
    return t;
}

Handle string_type(const Checker &c) {
    Handle t(c.id(H5Tcopy(H5T_C_S1), "copy string type"), H5Tclose);
    c.ok(H5Tset_size(t.get(), H5T_VARIABLE), "variable-length string");
    c.ok(H5Tset_cset(t.get(), H5T_CSET_UTF8), "UTF-8 string");
    return t;
}

void attr_write(const Checker &c, hid_t obj, const std::string &name, hid_t file_type,
                hid_t mem_type, const std::vector<hsize_t> &dims, const void *data) {
    Handle space(c.id(dims.empty()
                          ? H5Screate(H5S_SCALAR)
                          : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                      "dataspace for @" + name),
                 H5Sclose);
    Handle attr(
        c.id(H5Acreate2(obj, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
             "create attribute " + name),
        H5Aclose);
    c.ok(H5Awrite(attr.get(), mem_type, data), "write attribute " + name);
}

Handle open_attr(const Checker &c, hid_t obj, const std::string &name) {
    if (H5Aexists(obj, name.c_str()) <= 0)
        throw std::runtime_error(c.path + ": no attribute " + name);
    return {c.id(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "open attribute " + name), H5Aclose};
}

Handle extendable(const Checker &c, hid_t group, const char *name, hid_t type,
                  const std::vector<hsize_t> &inner, hsize_t chunk_frames) {
    std::vector<hsize_t> dims{0}, maxdims{H5S_UNLIMITED}, chunk{chunk_frames};
    for (hsize_t d : inner) {
        dims.push_back(d);
        maxdims.push_back(d);
        chunk.push_back(d);
    }
    // Chunks of at most 64 Ki particles keep single chunks far from HDF5's 4 GiB limit.
    if (chunk.size() > 1) chunk[1] = std::min<hsize_t>(chunk[1], 65536);
    Handle space(c.id(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), maxdims.data()),
                      "dataspace"),
                 H5Sclose);
    Handle plist(c.id(H5Pcreate(H5P_DATASET_CREATE), "dataset properties"), H5Pclose);
    c.ok(H5Pset_chunk(plist.get(), static_cast<int>(chunk.size()), chunk.data()), "chunking");
    return {c.id(H5Dcreate2(group, name, type, space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
                 std::string("create dataset ") + name),
            H5Dclose};
}

void append_one(const Checker &c, hid_t dset, hsize_t frame, const std::vector<hsize_t> &inner,
                hid_t mem_type, const void *data) {
    std::vector<hsize_t> size{frame + 1}, start{frame}, count{1};
    for (hsize_t d : inner) {
        size.push_back(d);
        start.push_back(0);
        count.push_back(d);
    }
    c.ok(H5Dset_extent(dset, size.data()), "extend dataset");
    Handle file_space(c.id(H5Dget_space(dset), "dataset space"), H5Sclose);
    c.ok(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                             nullptr),
         "select frame");
    Handle mem_space(c.id(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr),
                          "memory space"),
                     H5Sclose);
    c.ok(H5Dwrite(dset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, data),
         "write frame");
}

// Entries per chunk: one per-particle entry, or many small ones (a scalar, a box).
hsize_t chunk_frames(const std::vector<hsize_t> &inner) {
    hsize_t values = 1;
    for (hsize_t d : inner)
        values *= d;
    return values <= 64 ? 1024 : 1;
}

// Cuts the leading dimension of a dataset to `frames`.
void shrink(const Checker &c, hid_t dset, hsize_t frames) {
    std::vector<hsize_t> size = shape(c, dset);
    size[0] = frames;
    c.ok(H5Dset_extent(dset, size.data()), "shrink dataset");
}

} // namespace

void attr_string(const Checker &c, hid_t obj, const std::string &name, const std::string &value) {
    Handle t = string_type(c);
    const char *p = value.c_str();
    attr_write(c, obj, name, t.get(), t.get(), {}, &p);
}

void attr_strings(const Checker &c, hid_t obj, const std::string &name,
                  const std::vector<std::string> &values) {
    Handle t = string_type(c);
    std::vector<const char *> p;
    for (const auto &v : values)
        p.push_back(v.c_str());
    attr_write(c, obj, name, t.get(), t.get(), {values.size()}, p.data());
}

void attr_fixed_string(const Checker &c, hid_t obj, const std::string &name,
                       const std::string &value) {
    Handle t = fixed_string_type(c, value.size());
    std::string buf = value.empty() ? std::string(1, '\0') : value;
    attr_write(c, obj, name, t.get(), t.get(), {}, buf.data());
}

void attr_fixed_strings(const Checker &c, hid_t obj, const std::string &name,
                        const std::vector<std::string> &values) {
    size_t width = 1;
    for (const auto &v : values)
        width = std::max(width, v.size());
    Handle t = fixed_string_type(c, width);
    std::string buf(values.size() * width, '\0');
    for (size_t k = 0; k < values.size(); ++k)
        buf.replace(k * width, values[k].size(), values[k]);
    attr_write(c, obj, name, t.get(), t.get(), {values.size()}, buf.data());
}

void attr_ints(const Checker &c, hid_t obj, const std::string &name, const std::vector<int> &v) {
    attr_write(c, obj, name, H5T_STD_I32LE, H5T_NATIVE_INT, {v.size()}, v.data());
}

void attr_int(const Checker &c, hid_t obj, const std::string &name, int v) {
    attr_write(c, obj, name, H5T_STD_I32LE, H5T_NATIVE_INT, {}, &v);
}

void attr_int64(const Checker &c, hid_t obj, const std::string &name, int64_t v) {
    attr_write(c, obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, {}, &v);
}

void attr_double(const Checker &c, hid_t obj, const std::string &name, double v) {
    attr_write(c, obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, &v);
}

std::string read_attr_string(const Checker &c, hid_t obj, const std::string &name) {
    Handle a = open_attr(c, obj, name);
    Handle file_type(c.id(H5Aget_type(a.get()), "attribute type"), H5Tclose);
    if (H5Tget_class(file_type.get()) == H5T_STRING && H5Tis_variable_str(file_type.get()) <= 0) {
        const size_t width = H5Tget_size(file_type.get());
        Handle t(c.id(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
        c.ok(H5Tset_size(t.get(), width), "string type");
        // NUL-padded in memory too: a NUL-terminated type of the same width would drop the
        // last character of a string that fills it.
        c.ok(H5Tset_strpad(t.get(), H5T_STR_NULLPAD), "string padding");
        std::string buf(width, '\0');
        c.ok(H5Aread(a.get(), t.get(), buf.data()), "read attribute " + name);
        return buf.substr(0, buf.find('\0'));
    }
    Handle t = string_type(c);
    char *raw = nullptr;
    c.ok(H5Aread(a.get(), t.get(), &raw), "read attribute " + name);
    std::string out = raw ? raw : "";
    H5free_memory(raw);
    return out;
}

int64_t read_attr_int64(const Checker &c, hid_t obj, const std::string &name) {
    Handle a = open_attr(c, obj, name);
    int64_t v = 0;
    c.ok(H5Aread(a.get(), H5T_NATIVE_INT64, &v), "read attribute " + name);
    return v;
}

double read_attr_double(const Checker &c, hid_t obj, const std::string &name) {
    Handle a = open_attr(c, obj, name);
    double v = 0;
    c.ok(H5Aread(a.get(), H5T_NATIVE_DOUBLE, &v), "read attribute " + name);
    return v;
}

std::vector<int> read_attr_ints(const Checker &c, hid_t obj, const std::string &name) {
    Handle a = open_attr(c, obj, name);
    Handle space(c.id(H5Aget_space(a.get()), "attribute space"), H5Sclose);
    std::vector<int> v(size_t(H5Sget_simple_extent_npoints(space.get())));
    c.ok(H5Aread(a.get(), H5T_NATIVE_INT, v.data()), "read attribute " + name);
    return v;
}

std::vector<std::string> read_attr_strings(const Checker &c, hid_t obj, const std::string &name) {
    Handle a = open_attr(c, obj, name);
    Handle space(c.id(H5Aget_space(a.get()), "attribute space"), H5Sclose);
    const size_t count = size_t(H5Sget_simple_extent_npoints(space.get()));
    std::vector<std::string> out;
    Handle file_type(c.id(H5Aget_type(a.get()), "attribute type"), H5Tclose);
    if (H5Tget_class(file_type.get()) == H5T_STRING && H5Tis_variable_str(file_type.get()) <= 0) {
        // Fixed-length strings (NumPy's bytes arrays, as h5py writes them).
        const size_t width = H5Tget_size(file_type.get());
        Handle t(c.id(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
        c.ok(H5Tset_size(t.get(), width), "string type");
        // NUL-padded in memory too: a NUL-terminated type of the same width would drop the
        // last character of a string that fills it.
        c.ok(H5Tset_strpad(t.get(), H5T_STR_NULLPAD), "string padding");
        std::vector<char> buf(count * width);
        c.ok(H5Aread(a.get(), t.get(), buf.data()), "read attribute " + name);
        for (size_t k = 0; k < count; ++k) {
            std::string v(buf.data() + k * width, width);
            out.push_back(v.substr(0, v.find('\0')));
        }
        return out;
    }
    std::vector<char *> raw(count, nullptr);
    Handle t = string_type(c);
    c.ok(H5Aread(a.get(), t.get(), raw.data()), "read attribute " + name);
    for (char *p : raw) {
        out.emplace_back(p ? p : "");
        H5free_memory(p);
    }
    return out;
}

QuietErrors::QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() {
    H5Eset_auto2(H5E_DEFAULT, func_, data_);
}

std::vector<hsize_t> shape(const Checker &c, hid_t dataset) {
    Handle space(c.id(H5Dget_space(dataset), "dataset space"), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    c.ok(rank, "dataset rank");
    std::vector<hsize_t> d(static_cast<size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), d.data(), nullptr);
    return d;
}

template <class T> std::vector<T> read_all(const Checker &c, hid_t dataset, hid_t mem_type) {
    size_t count = 1;
    for (hsize_t s : shape(c, dataset))
        count *= size_t(s);
    std::vector<T> out(count);
    if (count)
        c.ok(H5Dread(dataset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read dataset");
    return out;
}

template std::vector<double> read_all<double>(const Checker &, hid_t, hid_t);
template std::vector<int64_t> read_all<int64_t>(const Checker &, hid_t, hid_t);
template std::vector<uint64_t> read_all<uint64_t>(const Checker &, hid_t, hid_t);

void write_1d(const Checker &c, hid_t parent, const std::string &name, hid_t file_type,
              hid_t mem_type, const void *data, hsize_t count) {
    Handle space(c.id(H5Screate_simple(1, &count, nullptr), "dataspace for " + name), H5Sclose);
    Handle d(c.id(H5Dcreate2(parent, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT),
                  "create dataset " + name),
             H5Dclose);
    if (count)
        c.ok(H5Dwrite(d.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write " + name);
}

Series make_series(const Checker &c, hid_t parent, const std::string &name,
                   std::vector<hsize_t> inner, bool integer) {
    Series s;
    s.group = make_group(c, parent, name);
    s.inner = std::move(inner);
    s.mem_type = integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
    s.value = extendable(c, s.group.get(), "value", integer ? H5T_STD_I64LE : H5T_IEEE_F64LE,
                         s.inner, chunk_frames(s.inner));
    s.step = extendable(c, s.group.get(), "step", H5T_STD_I64LE, {}, 1024);
    s.time = extendable(c, s.group.get(), "time", H5T_IEEE_F64LE, {}, 1024);
    return s;
}

unsigned link_count(const Checker &c, hid_t object) {
#if H5_VERSION_GE(1, 12, 0)
    H5O_info2_t info;
    c.ok(H5Oget_info3(object, &info, H5O_INFO_BASIC), "object info");
#else
    H5O_info_t info;
    c.ok(H5Oget_info2(object, &info, H5O_INFO_BASIC), "object info");
#endif
    return info.rc;
}

Series make_series_on_clock(const Checker &c, hid_t parent, const std::string &name,
                            std::vector<hsize_t> inner, bool integer, const Series &clock) {
    if (clock.frames > 0)
        throw std::invalid_argument(c.path + ": element " + name +
                                    " cannot start on a clock that already has entries");
    Series s;
    s.group = make_group(c, parent, name);
    s.inner = std::move(inner);
    s.mem_type = integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
    s.value = extendable(c, s.group.get(), "value", integer ? H5T_STD_I64LE : H5T_IEEE_F64LE,
                         s.inner, chunk_frames(s.inner));
    for (const char *d : {"step", "time"})
        c.ok(H5Lcreate_hard(clock.group.get(), d, s.group.get(), d, H5P_DEFAULT, H5P_DEFAULT),
             "link " + name + "/" + d);
    s.step = open_dataset(c, s.group.get(), "step");
    s.time = open_dataset(c, s.group.get(), "time");
    s.shares_clock = true;
    return s;
}

Series resume_series(const Checker &c, hid_t parent, const std::string &name,
                     int64_t first_dropped_step, bool may_share_clock) {
    Series s;
    s.group = open_group(c, parent, name);
    s.value = open_dataset(c, s.group.get(), "value");
    s.step = open_dataset(c, s.group.get(), "step");
    s.time = open_dataset(c, s.group.get(), "time");
    s.shares_clock = may_share_clock && link_count(c, s.step.get()) > 1;
    const std::vector<hsize_t> value_shape = shape(c, s.value.get());
    s.inner.assign(value_shape.begin() + 1, value_shape.end());
    Handle type(c.id(H5Dget_type(s.value.get()), "dataset type"), H5Tclose);
    s.mem_type = H5Tget_class(type.get()) == H5T_INTEGER ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
    const auto steps = read_all<int64_t>(c, s.step.get(), H5T_NATIVE_INT64);
    hsize_t keep = 0;
    while (keep < steps.size() && keep < value_shape[0] && steps[keep] < first_dropped_step)
        ++keep;
    for (const Handle *d : {&s.value, &s.step, &s.time})
        shrink(c, d->get(), keep);
    s.frames = keep;
    return s;
}

void append(const Checker &c, Series &s, int64_t step, double time, const void *data) {
    append_one(c, s.value.get(), s.frames, s.inner, s.mem_type, data);
    if (s.shares_clock) {
        if (shape(c, s.step.get())[0] != s.frames + 1)
            throw std::logic_error(c.path + ": an element was appended before its clock");
        ++s.frames;
        return;
    }
    append_one(c, s.step.get(), s.frames, {}, H5T_NATIVE_INT64, &step);
    append_one(c, s.time.get(), s.frames, {}, H5T_NATIVE_DOUBLE, &time);
    ++s.frames;
}

} // namespace smelt::apps::h5
