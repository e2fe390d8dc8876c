// ArrayHandle (the C++ side of smelt.Array) and the engine's array operations: factories, the
// host view through the buffer protocol, push/pull/resize/copy, take/align/where and sorting.
#include "backends/registry.h"
#include "cache/disk_cache.h"
#include "py_module.h"
#include "support/backend_table.h"

#include <pybind11/stl.h>

#include <cstring>

namespace smelt::python {

namespace {

ArrayHandle &handle_arg(py::handle obj, const char *what) {
    ArrayHandle *h = array_handle_of(obj);
    if (!h)
        throw py::type_error(std::string(what) + " must be a smelt.Array, not " +
                             Py_TYPE(obj.ptr())->tp_name);
    return *h;
}

void check_range(const ArrayHandle &h, size_t offset, size_t count) {
    if (offset > h.size() || count > h.size() - offset)
        throw py::index_error("elements [" + std::to_string(offset) + ", " +
                              std::to_string(offset + count) + ") are outside an array of " +
                              std::to_string(h.size()));
}

ArrayHandle made(Array a) {
    return ArrayHandle{std::move(a), py::none()};
}

// A NumPy array (any writable C-contiguous buffer of a supported format, bool as uint8) used as
// the array's memory on host-addressable backends, or copied to the device elsewhere.
ArrayHandle wrap_buffer(py::handle obj, const std::string &backend) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) !=
        0) {
        PyErr_Clear();
        throw py::type_error(std::string("wrap: a ") + Py_TYPE(obj.ptr())->tp_name +
                             " must be writable and C-contiguous to be wrapped");
    }
    std::string format = view.format ? view.format : "B";
    const int ndim = view.ndim;
    void *ptr = view.buf;
    const size_t n = ndim == 1 ? static_cast<size_t>(view.shape[0]) : 0;
    PyBuffer_Release(&view); // the owner reference below keeps the memory alive
    if (ndim != 1)
        throw py::type_error("wrap: arrays must be one-dimensional, not " + std::to_string(ndim) +
                             "-dimensional");
    std::optional<DType> t =
        format == "?" ? std::optional(DType::UInt8) : dtype_from_format(format);
    if (!t)
        throw py::type_error("wrap: arrays of format '" + format +
                             "' are not supported (int8..int64, uint8..uint64, float32, float64, "
                             "bool)");
    return ArrayHandle{Array::wrap(ptr, n, *t, &backend_named(backend)),
                       py::reinterpret_borrow<py::object>(obj)};
}

std::vector<Array> arrays_of(const py::sequence &seq, const char *what) {
    std::vector<Array> out;
    for (py::handle h : seq)
        out.push_back(handle_arg(h, what).array);
    return out;
}

} // namespace

void bind_arrays(py::module_ &m) {
    py::class_<ArrayHandle>(m, "ArrayHandle", py::buffer_protocol())
        .def_buffer([](ArrayHandle &h) {
            static double empty_storage[1];
            const DType t = h.array.dtype();
            void *p = h.size() ? h.array.host_data() : empty_storage;
            const auto item = static_cast<py::ssize_t>(dtype_size(t));
            return py::buffer_info(p, item, std::string(1, dtype_format_char(t)), 1,
                                   {static_cast<py::ssize_t>(h.size())}, {item});
        })
        .def_property_readonly("size", &ArrayHandle::size)
        .def_property_readonly("dtype",
                               [](const ArrayHandle &h) { return dtype_name(h.array.dtype()); })
        .def_property_readonly("backend",
                               [](const ArrayHandle &h) { return h.array.backend().name(); })
        .def_property_readonly(
            "host_addressable",
            [](const ArrayHandle &h) { return h.array.backend().host_addressable(); })
        .def_property_readonly("owns_memory",
                               [](const ArrayHandle &h) { return h.array.owns_memory(); })
        .def_property_readonly("owner", [](const ArrayHandle &h) { return h.owner; })
        .def("pull", [](ArrayHandle &h) { h.array.pull(); })
        .def("push", [](ArrayHandle &h) { h.array.push(); })
        .def("resize",
             [](ArrayHandle &h, size_t n) {
                 h.array.resize(n);
                 if (h.array.owns_memory()) h.owner = py::none(); // moved out of the owner's memory
             })
        .def("copy", [](const ArrayHandle &h) { return made(h.array.copy()); })
        // Element ranges moved straight between device memory and a NumPy buffer (or another
        // array), without the whole-array pull/push: what Array.__getitem__/__setitem__,
        // slices, extend and copy_values use on a GPU. Offsets and counts are in elements.
        .def("read_range",
             [](ArrayHandle &h, size_t offset, py::buffer out) {
                 const py::buffer_info info = out.request(true);
                 const size_t elem = dtype_size(h.array.dtype());
                 check_range(h, offset, static_cast<size_t>(info.size) * info.itemsize / elem);
                 h.array.backend().read(h.array.buffer(), offset * elem, info.ptr,
                                        static_cast<size_t>(info.size) * info.itemsize);
             })
        .def("write_range",
             [](ArrayHandle &h, size_t offset, py::buffer in) {
                 const py::buffer_info info = in.request();
                 const size_t elem = dtype_size(h.array.dtype());
                 const size_t bytes = static_cast<size_t>(info.size) * info.itemsize;
                 check_range(h, offset, bytes / elem);
                 h.array.backend().write(h.array.buffer(), offset * elem, info.ptr, bytes);
                 // Keep the host view in step where it is a separate mirror.
                 if (!h.array.backend().host_addressable() && bytes)
                     std::memcpy(static_cast<char *>(h.array.host_data()) + offset * elem, info.ptr,
                                 bytes);
             })
        .def("copy_range", [](ArrayHandle &dst, size_t dst_offset, py::handle src_obj,
                              size_t src_offset, size_t count) {
            ArrayHandle &src = handle_arg(src_obj, "copy_range: the source");
            if (src.array.dtype() != dst.array.dtype() ||
                &src.array.backend() != &dst.array.backend())
                throw py::type_error("copy_range: arrays of different dtypes or backends");
            check_range(src, src_offset, count);
            check_range(dst, dst_offset, count);
            const size_t elem = dtype_size(dst.array.dtype());
            dst.array.backend().copy(dst.array.buffer(), dst_offset * elem, src.array.buffer(),
                                     src_offset * elem, count * elem);
        });

    m.def("wrap", &wrap_buffer, py::arg("array"), py::arg("backend"));
    m.def("empty", [](size_t n, const std::string &dtype, const std::string &backend) {
        return made(empty(n, dtype_from_name(dtype), &backend_named(backend)));
    });
    m.def("zeros", [](size_t n, const std::string &dtype, const std::string &backend) {
        return made(zeros(n, dtype_from_name(dtype), &backend_named(backend)));
    });
    m.def("ones", [](size_t n, const std::string &dtype, const std::string &backend) {
        return made(ones(n, dtype_from_name(dtype), &backend_named(backend)));
    });
    m.def("full", [](size_t n, double value, const std::string &dtype, const std::string &backend) {
        return made(full(n, value, dtype_from_name(dtype), &backend_named(backend)));
    });
    m.def("arange_n", [](int64_t n, const std::string &dtype, const std::string &backend) {
        return made(arange(n, dtype_from_name(dtype), &backend_named(backend)));
    });
    m.def("arange", [](double start, double stop, double step, const std::string &dtype,
                       const std::string &backend) {
        return made(arange(start, stop, step, dtype_from_name(dtype), &backend_named(backend)));
    });
    m.def("linspace", [](double start, double stop, size_t num, const std::string &dtype,
                         bool endpoint, const std::string &backend) {
        return made(
            linspace(start, stop, num, dtype_from_name(dtype), endpoint, &backend_named(backend)));
    });
    m.def("take", [](py::handle src, py::handle idx) {
        return made(take(handle_arg(src, "take: the array").array,
                         handle_arg(idx, "take: the indices").array));
    });
    m.def("align", [](const py::sequence &arrays, py::handle idx) {
        std::vector<ArrayHandle> out;
        for (Array &a : align(arrays_of(arrays, "align: each array"),
                              handle_arg(idx, "align: the indices").array))
            out.push_back(made(std::move(a)));
        return out;
    });
    m.def("where", [](py::handle cond, py::handle a, py::handle b) {
        return made(where(handle_arg(cond, "where: the condition").array,
                          handle_arg(a, "where: a").array, handle_arg(b, "where: b").array));
    });
    m.def("argsort", [](py::handle keys, const std::string &index_dtype) {
        const Array &k = handle_arg(keys, "argsort: the keys").array;
        const DType t = dtype_from_name(index_dtype);
        Array idx;
        {
            py::gil_scoped_release unlocked;
            idx = argsort(k, t);
        }
        return made(std::move(idx));
    });
    m.def("sort_by_key", [](py::handle keys, py::handle values) {
        Array &k = handle_arg(keys, "sort_by_key: the keys").array;
        Array *v =
            values.is_none() ? nullptr : &handle_arg(values, "sort_by_key: the values").array;
        py::gil_scoped_release unlocked;
        sort_by_key(k, v);
    });
    m.def("register_array_type", &register_array_type);
    m.def("synchronize", [](const std::string &backend) { backend_named(backend).synchronize(); });
    m.def("list_backends", [] {
        std::vector<std::tuple<std::string, bool, std::string>> out;
        for (const auto &b : list_backends())
            out.emplace_back(b.name, b.available, b.note);
        return out;
    });
    // The backend table's rows (support/backend_table.h), in its order, with the facts the
    // Python package asks: smelt.backends derives its backend names from them.
    m.def("backend_rows", [] {
        py::list out;
        for (const BackendRow &r : backend_rows()) {
            py::dict row;
            row["name"] = r.name;
            row["family"] = r.family;
            row["alias"] = r.alias ? py::object(py::str(r.alias)) : py::object(py::none());
            row["takes_device"] = r.takes_device;
            row["work_groups"] = r.work_groups;
            out.append(row);
        }
        return out;
    });
    // Empties the on-disk kernel cache (what `smelt cache clear` does); smelt.parpy.clear_cache.
    m.def("clear_disk_cache", [] { return DiskCache().clear(); });
    m.def("devices", [](const std::string &backend) {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto &d : backend_named(backend).devices())
            out.emplace_back(d.name, d.detail);
        return out;
    });
}

} // namespace smelt::python
