#include "h5md_writer.h"

#include <hdf5.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace smelt::apps {

namespace {

// An HDF5 identifier closed by its own close function (H5Fclose, H5Gclose, ...).
class Handle {
public:
    Handle() = default;
    Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    Handle(Handle &&o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
    Handle &operator=(Handle &&o) noexcept {
        if (this != &o) {
            reset();
            id_ = o.id_;
            close_ = o.close_;
            o.id_ = -1;
        }
        return *this;
    }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    ~Handle() { reset(); }
    hid_t get() const { return id_; }
    hid_t release() {
        hid_t id = id_;
        id_ = -1;
        return id;
    }
    void reset() {
        if (id_ >= 0 && close_) close_(id_);
        id_ = -1;
    }

private:
    hid_t id_ = -1;
    herr_t (*close_)(hid_t) = nullptr;
};

struct Checker {
    const std::string &path;
    hid_t id(hid_t v, const std::string &what) const {
        if (v < 0) throw std::runtime_error(path + ": HDF5 error: " + what);
        return v;
    }
    void ok(herr_t v, const std::string &what) const {
        if (v < 0) throw std::runtime_error(path + ": HDF5 error: " + what);
    }
};

Handle make_group(const Checker &c, hid_t parent, const std::string &name) {
    return {c.id(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                 "create group " + name),
            H5Gclose};
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

void attr_ints(const Checker &c, hid_t obj, const std::string &name, const std::vector<int> &v) {
    attr_write(c, obj, name, H5T_STD_I32LE, H5T_NATIVE_INT, {v.size()}, v.data());
}

// A time-dependent H5MD element: value [frames, inner...], step [frames], time [frames].
struct Series {
    Handle group, value, step, time;
    std::vector<hsize_t> inner;
    hsize_t frames = 0;
};

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

Series make_series(const Checker &c, hid_t parent, const std::string &name,
                   std::vector<hsize_t> inner) {
    Series s;
    s.group = make_group(c, parent, name);
    s.inner = std::move(inner);
    hsize_t chunk_frames = s.inner.empty() ? 1024 : 1;
    s.value = extendable(c, s.group.get(), "value", H5T_IEEE_F64LE, s.inner, chunk_frames);
    s.step = extendable(c, s.group.get(), "step", H5T_STD_I64LE, {}, 1024);
    s.time = extendable(c, s.group.get(), "time", H5T_IEEE_F64LE, {}, 1024);
    return s;
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

void append(const Checker &c, Series &s, int64_t step, double time, const double *data) {
    append_one(c, s.value.get(), s.frames, s.inner, H5T_NATIVE_DOUBLE, data);
    append_one(c, s.step.get(), s.frames, {}, H5T_NATIVE_INT64, &step);
    append_one(c, s.time.get(), s.frames, {}, H5T_NATIVE_DOUBLE, &time);
    ++s.frames;
}

} // namespace

struct H5mdWriter::Impl {
    H5mdOptions options;
    Checker check;
    Handle file;
    Handle observables;
    Series position, velocity;
    std::map<std::string, Series> series;
    std::vector<double> buffer;
};

H5mdWriter::H5mdWriter(const std::string &path, const H5mdOptions &options) : path_(path) {
    if (options.n < 1) throw std::invalid_argument(path + ": H5MD needs at least one particle");
    if (options.dim < 1 || options.dim > 3 || options.box_edges.size() != size_t(options.dim))
        throw std::invalid_argument(path + ": H5MD needs dim in 1..3 and dim box edges");
    impl_ = std::make_unique<Impl>(Impl{options, Checker{path_}, {}, {}, {}, {}, {}, {}});
    const Checker &c = impl_->check;
    impl_->file = Handle(c.id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                              "cannot create the file"),
                         H5Fclose);
    hid_t f = impl_->file.get();
    {
        Handle h5md = make_group(c, f, "h5md");
        attr_ints(c, h5md.get(), "version", {1, 1});
        Handle author = make_group(c, h5md.get(), "author");
        attr_string(c, author.get(), "name", options.author);
        Handle creator = make_group(c, h5md.get(), "creator");
        attr_string(c, creator.get(), "name", options.creator);
        attr_string(c, creator.get(), "version", options.creator_version);
    }
    {
        Handle particles = make_group(c, f, "particles");
        Handle all = make_group(c, particles.get(), "all");
        Handle box = make_group(c, all.get(), "box");
        attr_write(c, box.get(), "dimension", H5T_STD_I32LE, H5T_NATIVE_INT, {}, &options.dim);
        attr_strings(
            c, box.get(), "boundary",
            std::vector<std::string>(size_t(options.dim), options.periodic ? "periodic" : "none"));
        hsize_t d = hsize_t(options.dim);
        Handle space(c.id(H5Screate_simple(1, &d, nullptr), "edges space"), H5Sclose);
        Handle edges(c.id(H5Dcreate2(box.get(), "edges", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                     H5P_DEFAULT, H5P_DEFAULT),
                          "create edges"),
                     H5Dclose);
        c.ok(H5Dwrite(edges.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                      options.box_edges.data()),
             "write edges");
        std::vector<hsize_t> inner{hsize_t(options.n), d};
        impl_->position = make_series(c, all.get(), "position", inner);
        if (options.velocity) impl_->velocity = make_series(c, all.get(), "velocity", inner);
    }
    {
        Handle params = make_group(c, f, "parameters");
        attr_string(c, params.get(), "config_yaml", options.config_yaml);
        attr_string(c, params.get(), "units", options.units);
    }
    impl_->observables = make_group(c, f, "observables");
    flush();
}

H5mdWriter::~H5mdWriter() {
    try {
        close();
    } catch (...) { // a destructor must not throw; close() reports errors when called directly
    }
}

int64_t H5mdWriter::frames() const {
    return impl_ ? int64_t(impl_->position.frames) : 0;
}

void H5mdWriter::write_frame(const Frame &frame) {
    if (!impl_) throw std::logic_error(path_ + ": write after close");
    const auto n = size_t(impl_->options.n);
    const int dim = impl_->options.dim;
    auto pack = [&](std::span<const double> a, std::span<const double> b, std::span<const double> z,
                    const char *what) {
        std::span<const double> comp[3] = {a, b, z};
        for (int d = 0; d < dim; ++d)
            if (comp[d].size() != n)
                throw std::invalid_argument(path_ + ": " + what + " has " +
                                            std::to_string(comp[d].size()) + " values, expected " +
                                            std::to_string(n));
        impl_->buffer.resize(n * size_t(dim));
        for (size_t i = 0; i < n; ++i)
            for (int d = 0; d < dim; ++d)
                impl_->buffer[i * size_t(dim) + size_t(d)] = comp[d][i];
    };
    pack(frame.x, frame.y, frame.z, "position");
    append(impl_->check, impl_->position, frame.step, frame.time, impl_->buffer.data());
    if (impl_->options.velocity) {
        pack(frame.vx, frame.vy, frame.vz, "velocity");
        append(impl_->check, impl_->velocity, frame.step, frame.time, impl_->buffer.data());
    }
    flush();
}

void H5mdWriter::write_observable(const std::string &name, int64_t step, double time,
                                  double value) {
    if (!impl_) throw std::logic_error(path_ + ": write after close");
    auto it = impl_->series.find(name);
    if (it == impl_->series.end())
        it = impl_->series
                 .emplace(name, make_series(impl_->check, impl_->observables.get(), name, {}))
                 .first;
    append(impl_->check, it->second, step, time, &value);
}

void H5mdWriter::write_thermo(const ThermoSample &s) {
    write_observable("potential_energy", s.step, s.time, s.pe);
    write_observable("kinetic_energy", s.step, s.time, s.ke);
    write_observable("total_energy", s.step, s.time, s.etotal);
    write_observable("temperature", s.step, s.time, s.temperature);
    write_observable("pressure", s.step, s.time, s.pressure);
    flush();
}

void H5mdWriter::flush() {
    if (impl_) impl_->check.ok(H5Fflush(impl_->file.get(), H5F_SCOPE_GLOBAL), "flush");
}

void H5mdWriter::close() {
    if (!impl_) return;
    flush();
    // Objects first, the file last, so H5Fclose really closes it.
    impl_->series.clear();
    impl_->position = Series{};
    impl_->velocity = Series{};
    impl_->observables.reset();
    hid_t f = impl_->file.release();
    impl_.reset();
    if (f >= 0 && H5Fclose(f) < 0) throw std::runtime_error(path_ + ": HDF5 error: close");
}

} // namespace smelt::apps
