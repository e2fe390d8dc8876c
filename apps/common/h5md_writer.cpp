#include "h5md_writer.h"

#include "atomic_file.h"
#include "hdf5_util.h"

#include <cstdio>

#include <map>
#include <optional>
#include <stdexcept>

namespace smelt::apps {

struct H5mdWriter::Impl {
    H5mdOptions options;
    h5::Checker check;
    h5::Handle file;
    h5::Handle particles; // /particles/all
    h5::Handle box;       // /particles/all/box
    h5::Handle observables;
    std::map<std::string, h5::Series> fields; // by field name
    std::optional<h5::Series> edges;          // box/edges, on position's clock
    bool fixed_box = false;                   // a file whose box/edges is one dataset
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

void set_unit(const h5::Checker &c, const h5::Handle &dataset, const std::string &unit) {
    if (!unit.empty() && H5Aexists(dataset.get(), "unit") <= 0)
        h5::attr_fixed_string(c, dataset.get(), "unit", unit);
}

// MDAnalysis (2.4) reads the @unit of these elements' values and of the particles' time, and
// refuses a unit it does not know (reduced LJ units among them) even with convert_units=False:
// they carry none, so MDAnalysis opens the file. Their units are the units module's system.
bool unit_readable_by_mdanalysis(const std::string &field) {
    return field != "position" && field != "velocity" && field != "force";
}

bool is_group(hid_t parent, const std::string &name) {
    h5::Handle object(H5Oopen(parent, name.c_str(), H5P_DEFAULT), H5Oclose);
    return object.get() >= 0 && H5Iget_type(object.get()) == H5I_GROUP;
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
        h5::attr_fixed_string(c, author.get(), "name", options.author);
        h5::Handle creator = h5::make_group(c, h5md.get(), "creator");
        h5::attr_fixed_string(c, creator.get(), "name", options.creator);
        h5::attr_fixed_string(c, creator.get(), "version", options.creator_version);
        if (!options.unit_names.system.empty()) {
            h5::Handle modules = h5::make_group(c, h5md.get(), "modules");
            h5::Handle units = h5::make_group(c, modules.get(), "units");
            h5::attr_ints(c, units.get(), "version", {1, 0});
            h5::attr_fixed_string(c, units.get(), "system", options.unit_names.system);
        }
    }
    {
        h5::Handle particles = h5::make_group(c, f, "particles");
        impl_->particles = h5::make_group(c, particles.get(), "all");
        impl_->box = h5::make_group(c, impl_->particles.get(), "box");
        h5::attr_int(c, impl_->box.get(), "dimension", options.dim);
        std::vector<std::string> boundary;
        for (size_t a = 0; a < size_t(options.dim); ++a)
            boundary.push_back(
                (options.periodic_axes.empty() ? options.periodic : bool(options.periodic_axes[a]))
                    ? "periodic"
                    : "none");
        h5::attr_fixed_strings(c, impl_->box.get(), "boundary", boundary);
        std::vector<int64_t> id(size_t(options.n));
        for (size_t i = 0; i < id.size(); ++i)
            id[i] = int64_t(i);
        h5::write_1d(c, impl_->particles.get(), "id", H5T_STD_I64LE, H5T_NATIVE_INT64, id.data(),
                     hsize_t(options.n));
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
    impl_->box = h5::open_group(c, impl_->particles.get(), "box");
    if (h5::read_attr_ints(c, impl_->box.get(), "dimension") != std::vector<int>{options.dim})
        mismatch("its box is not " + std::to_string(options.dim) + "D");
    if (h5::exists(impl_->particles.get(), "position")) { // before anything in the file changes
        h5::Handle value = h5::open_dataset(c, impl_->particles.get(), "position/value");
        const std::vector<hsize_t> shape = h5::shape(c, value.get());
        if (shape.size() < 2 || shape[1] != hsize_t(options.n))
            mismatch("/particles/all/position is not of " + std::to_string(options.n) +
                     " particles");
    }
    if (!h5::exists(impl_->box.get(), "edges")) {
        // no frame yet: the first one creates it
    } else if (is_group(impl_->box.get(), "edges")) {
        // The apps' boxes are fixed: the file's first box must be this run's (checked before
        // anything in the file changes).
        h5::Handle value = h5::open_dataset(c, impl_->box.get(), "edges/value");
        const size_t dim = size_t(options.dim);
        const std::vector<hsize_t> shape = h5::shape(c, value.get());
        if (shape.size() != 3 || shape[1] != dim || shape[2] != dim)
            mismatch("its box is not " + std::to_string(options.dim) + "D");
        if (shape[0] > 0) {
            const auto boxes = h5::read_all<double>(c, value.get(), H5T_NATIVE_DOUBLE);
            for (size_t a = 0; a < dim; ++a)
                if (boxes[a * dim + a] != options.box_edges[a])
                    mismatch("its box edges differ from this run's");
        }
        value.reset();
        impl_->edges = h5::resume_series(c, impl_->box.get(), "edges", resume_step, true);
    } else { // a file of an earlier version: one box for the whole run
        impl_->fixed_box = true;
        h5::Handle edges = h5::open_dataset(c, impl_->box.get(), "edges");
        if (h5::read_all<double>(c, edges.get(), H5T_NATIVE_DOUBLE) != options.box_edges)
            mismatch("its box edges differ from this run's");
    }
    for (const std::string &name : h5::children(c, impl_->particles.get())) {
        if (name == "box" || !is_group(impl_->particles.get(), name)) continue;
        h5::Series s =
            h5::resume_series(c, impl_->particles.get(), name, resume_step, name != "position");
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
    const int dim = impl_->options.dim;
    check_frame(frame, n, dim, path_);
    if (frame.find("id"))
        throw std::invalid_argument(path_ + ": frame field 'id' is the H5MD writer's own");
    const std::vector<double> &box =
        frame.box_edges.empty() ? impl_->options.box_edges : frame.box_edges;
    if (box.size() != size_t(dim))
        throw std::invalid_argument(path_ + ": a frame's box needs " + std::to_string(dim) +
                                    " edges");
    const h5::Checker &c = impl_->check;
    const H5mdUnits &units = impl_->options.unit_names;

    // Position first: it owns the clock (step, time) that the other fields and the box share.
    std::vector<const Field *> order{frame.find("position")};
    for (const Field &field : frame.fields)
        if (field.name != "position") order.push_back(&field);
    for (const Field *field : order) {
        if (impl_->fields.count(field->name)) continue;
        const std::vector<hsize_t> inner = inner_shape(*field, n);
        h5::Series s;
        if (field->name == "position") {
            s = h5::make_series(c, impl_->particles.get(), field->name, inner, field->is_integer());
        } else {
            s = h5::make_series_on_clock(c, impl_->particles.get(), field->name, inner,
                                         field->is_integer(), impl_->fields.at("position"));
        }
        if (!units.system.empty() && unit_readable_by_mdanalysis(field->name))
            set_unit(c, s.value, field->unit);
        impl_->fields.emplace(field->name, std::move(s));
    }
    if (!impl_->edges && !impl_->fixed_box) {
        impl_->edges =
            h5::make_series_on_clock(c, impl_->box.get(), "edges", {hsize_t(dim), hsize_t(dim)},
                                     false, impl_->fields.at("position"));
        if (!units.system.empty()) set_unit(c, impl_->edges->value, units.length);
    }

    for (const Field *field : order) {
        const std::vector<hsize_t> inner = inner_shape(*field, n);
        h5::Series &s = impl_->fields.at(field->name);
        if (s.inner != inner || (s.mem_type == H5T_NATIVE_INT64) != field->is_integer())
            throw std::invalid_argument(path_ + ": frame field '" + field->name +
                                        "' changed its shape or type");
        const size_t comps = size_t(field->components());
        const void *data = nullptr;
        if (field->is_integer()) {
            impl_->integers.resize(size_t(n) * comps);
            for (size_t i = 0; i < size_t(n); ++i)
                for (size_t d = 0; d < comps; ++d)
                    impl_->integers[i * comps + d] = field->integer[d][i];
            data = impl_->integers.data();
        } else {
            impl_->reals.resize(size_t(n) * comps);
            for (size_t i = 0; i < size_t(n); ++i)
                for (size_t d = 0; d < comps; ++d)
                    impl_->reals[i * comps + d] = field->real[d][i];
            data = impl_->reals.data();
        }
        h5::append(c, s, frame.step, frame.time, data);
    }
    if (impl_->edges) {
        // The box's edge vectors as the rows of a matrix (H5MD's triclinic form, diagonal for
        // this rectangular box): MDAnalysis reads only this form.
        std::vector<double> matrix(size_t(dim) * size_t(dim), 0.0);
        for (size_t a = 0; a < size_t(dim); ++a)
            matrix[a * size_t(dim) + a] = box[a];
        h5::append(c, *impl_->edges, frame.step, frame.time, matrix.data());
    }
    flush();
}

void H5mdWriter::write_observable(const std::string &name, int64_t step, double time, double value,
                                  const std::string &unit) {
    if (!impl_) throw std::logic_error(path_ + ": write after close");
    auto it = impl_->series.find(name);
    if (it == impl_->series.end()) {
        h5::Series s = h5::make_series(impl_->check, impl_->observables.get(), name, {});
        const H5mdUnits &units = impl_->options.unit_names;
        if (!units.system.empty()) {
            set_unit(impl_->check, s.value, unit);
            set_unit(impl_->check, s.time, units.time);
        }
        it = impl_->series.emplace(name, std::move(s)).first;
    }
    h5::append(impl_->check, it->second, step, time, &value);
}

void H5mdWriter::write_observables(const std::vector<ObservableColumn> &columns,
                                   const ObservableSample &s) {
    if (s.values.size() != columns.size())
        throw std::invalid_argument(path_ + ": observable sample has " +
                                    std::to_string(s.values.size()) + " values for " +
                                    std::to_string(columns.size()) + " columns");
    for (size_t k = 0; k < columns.size(); ++k)
        write_observable(columns[k].h5md_name, s.step, s.time, s.values[k], columns[k].unit);
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
    impl_->edges.reset();
    impl_->box.reset();
    impl_->observables.reset();
    impl_->particles.reset();
    hid_t f = impl_->file.release();
    impl_.reset();
    if (f >= 0 && H5Fclose(f) < 0) throw std::runtime_error(path_ + ": HDF5 error: close");
}

} // namespace smelt::apps
