#include "h5md_writer.h"

#include "atomic_file.h"
#include "hdf5_util.h"

#include <cstdio>

#include <map>
#include <stdexcept>

namespace smelt::apps {

struct H5mdWriter::Impl {
    H5mdOptions options;
    h5::Checker check;
    h5::Handle file;
    h5::Handle particles; // /particles/all
    h5::Handle observables;
    std::map<std::string, h5::Series> fields; // by field name
    std::map<std::string, h5::Series> series; // observables by name
    std::vector<double> reals;
    std::vector<int64_t> integers;
};

namespace {

void check_options(const std::string &path, const H5mdOptions &o) {
    if (o.n < 1) throw std::invalid_argument(path + ": H5MD needs at least one particle");
    if (o.dim < 1 || o.dim > 3 || o.box_edges.size() != size_t(o.dim))
        throw std::invalid_argument(path + ": H5MD needs dim in 1..3 and dim box edges");
    if (!o.periodic_axes.empty() && o.periodic_axes.size() != size_t(o.dim))
        throw std::invalid_argument(path + ": H5MD periodic_axes needs dim entries");
}

// The inner shape of a field's value dataset: [N, components], or [N] for a one-component field
// that is not spatial.
std::vector<hsize_t> inner_shape(const Field &f, int64_t n) {
    if (f.components() == 1 && !f.spatial) return {hsize_t(n)};
    return {hsize_t(n), hsize_t(f.components())};
}

} // namespace

H5mdWriter::H5mdWriter(const std::string &path, const H5mdOptions &options) : path_(path) {
    check_options(path, options);
    // The file is built under a temporary name and renamed over `path` once its skeleton is
    // written: creating it in place would truncate a file that another run still writes (HDF5
    // truncates before it finds the file locked).
    const std::string tmp = temporary_path_for(path);
    struct RemoveUnlessPublished {
        const std::string &tmp;
        bool published = false;
        ~RemoveUnlessPublished() {
            if (!published) std::remove(tmp.c_str());
        }
    } cleanup{tmp};
    impl_ = std::make_unique<Impl>();
    impl_->options = options;
    impl_->check = h5::Checker{path_};
    const h5::Checker &c = impl_->check;
    impl_->file = h5::Handle(c.id(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                                  "cannot create the file (as " + tmp + ")"),
                             H5Fclose);
    hid_t f = impl_->file.get();
    {
        h5::Handle h5md = h5::make_group(c, f, "h5md");
        h5::attr_ints(c, h5md.get(), "version", {1, 1});
        h5::Handle author = h5::make_group(c, h5md.get(), "author");
        h5::attr_string(c, author.get(), "name", options.author);
        h5::Handle creator = h5::make_group(c, h5md.get(), "creator");
        h5::attr_string(c, creator.get(), "name", options.creator);
        h5::attr_string(c, creator.get(), "version", options.creator_version);
    }
    {
        h5::Handle particles = h5::make_group(c, f, "particles");
        impl_->particles = h5::make_group(c, particles.get(), "all");
        h5::Handle box = h5::make_group(c, impl_->particles.get(), "box");
        h5::attr_int(c, box.get(), "dimension", options.dim);
        std::vector<std::string> boundary;
        for (size_t a = 0; a < size_t(options.dim); ++a)
            boundary.push_back(
                (options.periodic_axes.empty() ? options.periodic : bool(options.periodic_axes[a]))
                    ? "periodic"
                    : "none");
        h5::attr_strings(c, box.get(), "boundary", boundary);
        h5::write_1d(c, box.get(), "edges", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                     options.box_edges.data(), hsize_t(options.dim));
    }
    {
        h5::Handle params = h5::make_group(c, f, "parameters");
        h5::attr_string(c, params.get(), "config_yaml", options.config_yaml);
        h5::attr_string(c, params.get(), "units", options.units);
    }
    impl_->observables = h5::make_group(c, f, "observables");
    flush();
    if (file_is_locked(path)) {
        impl_.reset();
        throw std::runtime_error(path + ": the file is open in another run or program (it is "
                                        "locked); not replacing it");
    }
    publish_file(tmp, path); // the open file keeps its handle under the new name
    cleanup.published = true;
}

H5mdWriter::H5mdWriter(const std::string &path, const H5mdOptions &options, int64_t resume_step)
    : path_(path) {
    check_options(path, options);
    impl_ = std::make_unique<Impl>();
    impl_->options = options;
    impl_->check = h5::Checker{path_};
    const h5::Checker &c = impl_->check;
    h5::QuietErrors quiet; // the exceptions say what failed
    auto mismatch = [&](const std::string &what) {
        throw std::runtime_error(path + ": cannot append to this file: " + what);
    };
    impl_->file = h5::Handle(
        c.id(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "cannot open the file to append"),
        H5Fclose);
    hid_t f = impl_->file.get();
    if (!h5::exists(f, "particles") || !h5::exists(f, "observables")) mismatch("not an H5MD file");
    impl_->particles = h5::open_group(c, f, "particles/all");
    {
        h5::Handle box = h5::open_group(c, impl_->particles.get(), "box");
        if (h5::read_attr_ints(c, box.get(), "dimension") != std::vector<int>{options.dim})
            mismatch("its box is not " + std::to_string(options.dim) + "D");
        h5::Handle edges = h5::open_dataset(c, box.get(), "edges");
        if (h5::read_all<double>(c, edges.get(), H5T_NATIVE_DOUBLE) != options.box_edges)
            mismatch("its box edges differ from this run's");
    }
    for (const std::string &name : h5::children(c, impl_->particles.get())) {
        if (name == "box") continue;
        h5::Series s = h5::resume_series(c, impl_->particles.get(), name, resume_step);
        if (s.inner.empty() || s.inner[0] != hsize_t(options.n))
            mismatch("/particles/all/" + name + " is not of " + std::to_string(options.n) +
                     " particles");
        impl_->fields.emplace(name, std::move(s));
    }
    impl_->observables = h5::open_group(c, f, "observables");
    for (const std::string &name : h5::children(c, impl_->observables.get()))
        impl_->series.emplace(name,
                              h5::resume_series(c, impl_->observables.get(), name, resume_step));
    flush();
}

H5mdWriter::~H5mdWriter() {
    try {
        close();
    } catch (...) { // a destructor must not throw; close() reports errors when called directly
    }
}

int64_t H5mdWriter::frames() const {
    if (!impl_) return 0;
    auto it = impl_->fields.find("position");
    return it == impl_->fields.end() ? 0 : int64_t(it->second.frames);
}

void H5mdWriter::write_frame(const FrameData &frame) {
    if (!impl_) throw std::logic_error(path_ + ": write after close");
    const auto n = impl_->options.n;
    check_frame(frame, n, impl_->options.dim, path_);
    const h5::Checker &c = impl_->check;
    for (const Field &field : frame.fields) {
        const std::vector<hsize_t> inner = inner_shape(field, n);
        auto it = impl_->fields.find(field.name);
        if (it == impl_->fields.end())
            it = impl_->fields
                     .emplace(field.name, h5::make_series(c, impl_->particles.get(), field.name,
                                                          inner, field.is_integer()))
                     .first;
        h5::Series &s = it->second;
        if (s.inner != inner || (s.mem_type == H5T_NATIVE_INT64) != field.is_integer())
            throw std::invalid_argument(path_ + ": frame field '" + field.name +
                                        "' changed its shape or type");
        const size_t comps = size_t(field.components());
        const void *data = nullptr;
        if (field.is_integer()) {
            impl_->integers.resize(size_t(n) * comps);
            for (size_t i = 0; i < size_t(n); ++i)
                for (size_t d = 0; d < comps; ++d)
                    impl_->integers[i * comps + d] = field.integer[d][i];
            data = impl_->integers.data();
        } else {
            impl_->reals.resize(size_t(n) * comps);
            for (size_t i = 0; i < size_t(n); ++i)
                for (size_t d = 0; d < comps; ++d)
                    impl_->reals[i * comps + d] = field.real[d][i];
            data = impl_->reals.data();
        }
        h5::append(c, s, frame.step, frame.time, data);
    }
    flush();
}

void H5mdWriter::write_observable(const std::string &name, int64_t step, double time,
                                  double value) {
    if (!impl_) throw std::logic_error(path_ + ": write after close");
    auto it = impl_->series.find(name);
    if (it == impl_->series.end())
        it = impl_->series
                 .emplace(name, h5::make_series(impl_->check, impl_->observables.get(), name, {}))
                 .first;
    h5::append(impl_->check, it->second, step, time, &value);
}

void H5mdWriter::write_observables(const std::vector<ObservableColumn> &columns,
                                   const ObservableSample &s) {
    if (s.values.size() != columns.size())
        throw std::invalid_argument(path_ + ": observable sample has " +
                                    std::to_string(s.values.size()) + " values for " +
                                    std::to_string(columns.size()) + " columns");
    for (size_t k = 0; k < columns.size(); ++k)
        write_observable(columns[k].h5md_name, s.step, s.time, s.values[k]);
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
    impl_->fields.clear();
    impl_->observables.reset();
    impl_->particles.reset();
    hid_t f = impl_->file.release();
    impl_.reset();
    if (f >= 0 && H5Fclose(f) < 0) throw std::runtime_error(path_ + ": HDF5 error: close");
}

} // namespace smelt::apps
