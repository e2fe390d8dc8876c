#include "h5md_reader.h"

#include "hdf5_util.h"

#include <stdexcept>

namespace smelt::apps {

namespace {

// Whether every link of a path "a/b/c" exists (H5Lexists fails on a missing intermediate link).
bool path_exists(hid_t file, const std::string &path) {
    for (size_t end = path.find('/');; end = path.find('/', end + 1)) {
        if (!h5::exists(file, path.substr(0, end))) return false;
        if (end == std::string::npos) return true;
    }
}

bool is_integer(const h5::Checker &c, hid_t dataset) {
    h5::Handle type(c.id(H5Dget_type(dataset), "dataset type"), H5Tclose);
    return H5Tget_class(type.get()) == H5T_INTEGER;
}

bool is_group(hid_t parent, const std::string &name) {
    h5::Handle object(H5Oopen(parent, name.c_str(), H5P_DEFAULT), H5Oclose);
    return object.get() >= 0 && H5Iget_type(object.get()) == H5I_GROUP;
}

// The values of one entry (row `row` of the first axis) of a dataset, or all of it when `row` is
// negative, as T in the file's element order, with the shape that is left.
template <class T>
std::vector<T> read_rows(const h5::Checker &c, hid_t dataset, hid_t mem_type, int64_t row,
                         std::vector<hsize_t> &inner) {
    std::vector<hsize_t> dims = h5::shape(c, dataset);
    if (row < 0) {
        inner = dims;
        return h5::read_all<T>(c, dataset, mem_type);
    }
    if (dims.empty() || hsize_t(row) >= dims[0])
        throw std::runtime_error("entry " + std::to_string(row) + " is out of range");
    inner.assign(dims.begin() + 1, dims.end());
    std::vector<hsize_t> start(dims.size(), 0), count = dims;
    start[0] = hsize_t(row);
    count[0] = 1;
    size_t total = 1;
    for (hsize_t d : inner)
        total *= size_t(d);
    std::vector<T> out(total);
    h5::Handle file_space(c.id(H5Dget_space(dataset), "dataset space"), H5Sclose);
    c.ok(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                             nullptr),
         "select an entry");
    h5::Handle mem_space(
        c.id(H5Screate_simple(int(count.size()), count.data(), nullptr), "memory space"), H5Sclose);
    if (total)
        c.ok(H5Dread(dataset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, out.data()),
             "read an entry");
    return out;
}

// A field from n x k values in row-major order (k = 1 for a [N] dataset).
template <class T>
std::vector<std::vector<T>> components(const std::vector<T> &values, int64_t n, size_t k) {
    std::vector<std::vector<T>> out(k, std::vector<T>(size_t(n)));
    for (size_t i = 0; i < size_t(n); ++i)
        for (size_t d = 0; d < k; ++d)
            out[d][i] = values[i * k + d];
    return out;
}

// Adds /particles/all/<name> (a series at `step`, or a dataset of n values) to `frame`.
void read_field(const h5::Checker &c, hid_t particles, const std::string &name, int64_t step,
                int64_t n, int dim, FrameData &frame) {
    h5::Handle dataset;
    int64_t row = -1;
    if (is_group(particles, name)) {
        h5::Handle g = h5::open_group(c, particles, name);
        if (!h5::exists(g.get(), "value") || !h5::exists(g.get(), "step")) return;
        h5::Handle steps_set = h5::open_dataset(c, g.get(), "step");
        const auto steps = h5::read_all<int64_t>(c, steps_set.get(), H5T_NATIVE_INT64);
        for (size_t k = 0; k < steps.size() && row < 0; ++k)
            if (steps[k] == step) row = int64_t(k);
        if (row < 0) return; // not stored at this frame's step
        dataset = h5::open_dataset(c, g.get(), "value");
    } else {
        dataset = h5::open_dataset(c, particles, name);
    }
    std::vector<hsize_t> inner;
    const bool integer = is_integer(c, dataset.get());
    Field f;
    f.name = name;
    auto shape_ok = [&] {
        return (inner.size() == 1 || inner.size() == 2) && inner[0] == hsize_t(n);
    };
    if (integer) {
        auto v = read_rows<int64_t>(c, dataset.get(), H5T_NATIVE_INT64, row, inner);
        if (!shape_ok()) return; // not per particle
        f.integer = components(v, n, inner.size() == 2 ? size_t(inner[1]) : 1);
    } else {
        auto v = read_rows<double>(c, dataset.get(), H5T_NATIVE_DOUBLE, row, inner);
        if (!shape_ok()) return;
        f.real = components(v, n, inner.size() == 2 ? size_t(inner[1]) : 1);
    }
    f.spatial = inner.size() == 2 && inner[1] == hsize_t(dim);
    frame.fields.push_back(std::move(f));
}

} // namespace

H5mdFrame read_h5md_frame(const std::string &path, int64_t frame) {
    h5::Checker c{path};
    h5::QuietErrors quiet; // the exceptions say what failed
    auto fail = [&](const std::string &what) -> void {
        throw std::runtime_error(path + ": " + what);
    };
    h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (file.get() < 0) fail("cannot open it as an HDF5 file");
    if (!path_exists(file.get(), "particles/all/position/value") ||
        !path_exists(file.get(), "particles/all/box"))
        fail("not an H5MD file with /particles/all/position");
    h5::Handle particles = h5::open_group(c, file.get(), "particles/all");

    H5mdFrame out;
    {
        h5::Handle box = h5::open_group(c, particles.get(), "box");
        const auto dims = h5::read_attr_ints(c, box.get(), "dimension");
        if (dims.size() != 1 || dims[0] < 1 || dims[0] > 3) fail("bad box dimension");
        out.dim = dims[0];
        if (!is_group(box.get(), "edges")) { // one box for the whole file
            h5::Handle edges = h5::open_dataset(c, box.get(), "edges");
            out.box_edges = h5::read_all<double>(c, edges.get(), H5T_NATIVE_DOUBLE);
            if (out.box_edges.size() != size_t(out.dim))
                fail("/particles/all/box/edges does not hold one edge per axis");
        }
        for (const std::string &b : h5::read_attr_strings(c, box.get(), "boundary")) {
            if (b != "periodic" && b != "none") fail("unknown box boundary '" + b + "'");
            out.periodic_axes.push_back(b == "periodic");
        }
        if (out.periodic_axes.size() != size_t(out.dim))
            fail("/particles/all/box@boundary does not name one boundary per axis");
    }
    h5::Handle position = h5::open_group(c, particles.get(), "position");
    h5::Handle value = h5::open_dataset(c, position.get(), "value");
    const std::vector<hsize_t> shape = h5::shape(c, value.get());
    if (shape.size() != 3 || shape[2] != hsize_t(out.dim))
        fail("/particles/all/position/value is not [frames, N, " + std::to_string(out.dim) + "]");
    out.frames = int64_t(shape[0]);
    out.n = int64_t(shape[1]);
    out.index = frame < 0 ? out.frames + frame : frame;
    if (out.index < 0 || out.index >= out.frames)
        throw H5mdFrameRangeError(path + ": frame " + std::to_string(frame) +
                                      " does not exist (the file has " +
                                      std::to_string(out.frames) + " frames)",
                                  frame, out.frames);
    h5::Handle steps = h5::open_dataset(c, position.get(), "step");
    h5::Handle times = h5::open_dataset(c, position.get(), "time");
    const auto step_values = h5::read_all<int64_t>(c, steps.get(), H5T_NATIVE_INT64);
    const auto time_values = h5::read_all<double>(c, times.get(), H5T_NATIVE_DOUBLE);
    if (step_values.size() != size_t(out.frames) || time_values.size() != size_t(out.frames))
        fail("/particles/all/position has not one step and time per frame");
    out.data.step = step_values[size_t(out.index)];
    out.data.time = time_values[size_t(out.index)];
    if (out.box_edges.empty()) { // a box per frame: the row of this frame's step
        h5::Handle box = h5::open_group(c, particles.get(), "box");
        FrameData edges;
        try {
            read_field(c, box.get(), "edges", out.data.step, out.dim, 1, edges);
        } catch (const std::runtime_error &e) {
            fail(std::string("cannot read /particles/all/box/edges: ") + e.what());
        }
        // A row [dim] (a vector of edges) reads as one component of `dim` values, a row
        // [dim, dim] (edge vectors) as `dim` components: the box is their diagonal.
        if (edges.fields.empty() || edges.fields[0].is_integer())
            fail("/particles/all/box/edges has no box at step " + std::to_string(out.data.step));
        const auto &real = edges.fields[0].real;
        if (real.size() == 1) {
            out.box_edges = real[0];
        } else {
            for (size_t a = 0; a < real.size(); ++a)
                out.box_edges.push_back(real[a][a]);
        }
    }
    out.data.box_edges = out.box_edges;
    try {
        for (const std::string &name : h5::children(c, particles.get()))
            if (name != "box")
                read_field(c, particles.get(), name, out.data.step, out.n, out.dim, out.data);
    } catch (const std::runtime_error &e) {
        fail(std::string("cannot read /particles/all: ") + e.what());
    }
    return out;
}

std::optional<double> read_h5md_observable(const std::string &path, const std::string &name,
                                           int64_t step) {
    h5::Checker c{path};
    h5::QuietErrors quiet;
    h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (file.get() < 0) throw std::runtime_error(path + ": cannot open it as an HDF5 file");
    const std::string group = "observables/" + name;
    if (!path_exists(file.get(), group + "/value") || !path_exists(file.get(), group + "/step"))
        return std::nullopt;
    h5::Handle g = h5::open_group(c, file.get(), group);
    h5::Handle steps_set = h5::open_dataset(c, g.get(), "step");
    h5::Handle values_set = h5::open_dataset(c, g.get(), "value");
    const auto steps = h5::read_all<int64_t>(c, steps_set.get(), H5T_NATIVE_INT64);
    const auto values = h5::read_all<double>(c, values_set.get(), H5T_NATIVE_DOUBLE);
    if (values.size() != steps.size()) return std::nullopt; // not a scalar series
    for (size_t k = 0; k < steps.size(); ++k)
        if (steps[k] == step) return values[k];
    return std::nullopt;
}

} // namespace smelt::apps
