// Python values → smelt::Arg: smelt.Array handles, NumPy arrays (wrapped without a copy where the
// backend can address host memory) and Python / NumPy scalars.
#include "backends/registry.h"
#include "py_module.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace smelt::python {

namespace {

// The Python class smelt.Array, registered by the package at import (see bind_arrays), so a
// call can find the handle of an argument without going through Python code.
PyObject *g_array_type = nullptr;
PyObject *g_numpy_generic = nullptr; // numpy.generic, for NumPy scalars
PyObject *g_handle_attr = nullptr;   // interned "_h"
PyObject *g_shape_attr = nullptr;    // interned "_shape"

// The extents of a smelt.Array made by reshape() (its `_shape`), or an empty vector.
std::vector<int64_t> array_shape(py::handle obj) {
    if (!g_shape_attr || py::isinstance<ArrayHandle>(obj)) return {};
    PyObject *s = PyObject_GetAttr(obj.ptr(), g_shape_attr);
    if (!s) {
        PyErr_Clear(); // an object whose slot was never set
        return {};
    }
    py::object shape = py::reinterpret_steal<py::object>(s);
    std::vector<int64_t> out;
    if (shape.is_none()) return out;
    for (py::handle d : shape)
        out.push_back(d.cast<int64_t>());
    return out;
}

std::string type_name(py::handle obj) {
    return Py_TYPE(obj.ptr())->tp_name;
}

// The DType of a buffer-protocol format; bool ('?') is carried as uint8, since engine arrays have
// no bool dtype (kernels see such arrays as ucharp).
std::optional<DType> format_dtype(const char *format) {
    std::string_view f = format ? format : "B";
    if (f == "?" || f == "=?" || f == "<?" || f == "@?") return DType::UInt8;
    return dtype_from_format(f);
}

// A scalar from a NumPy scalar's buffer (0-d, native format).
template <class What> Arg numpy_scalar(py::handle obj, What what) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_FORMAT | PyBUF_ND) != 0) {
        PyErr_Clear();
        throw py::type_error(what() + ": cannot read the NumPy scalar of type " + type_name(obj));
    }
    std::string format = view.format ? view.format : "B";
    alignas(8) unsigned char bytes[16] = {};
    std::memcpy(bytes, view.buf, std::min<size_t>(view.len, sizeof bytes));
    PyBuffer_Release(&view);
    if (format == "?") return Arg(bytes[0] != 0);
    std::optional<DType> t = dtype_from_format(format);
    if (!t)
        throw py::type_error(what() + ": NumPy scalars of type " + type_name(obj) +
                             " cannot be passed to a kernel (supported: bool, int8..int64, "
                             "uint8..uint64, float32, float64)");
    return visit_dtype(*t, [&]<class T>() {
        T v;
        std::memcpy(&v, bytes, sizeof(T));
        return Arg(v);
    });
}

} // namespace

ArrayHandle *array_handle_of(py::handle obj) {
    PyObject *type = reinterpret_cast<PyObject *>(Py_TYPE(obj.ptr()));
    if (g_array_type &&
        (type == g_array_type || PyObject_IsInstance(obj.ptr(), g_array_type) == 1)) {
        PyObject *h = PyObject_GetAttr(obj.ptr(), g_handle_attr);
        if (!h) throw py::error_already_set();
        py::object handle = py::reinterpret_steal<py::object>(h);
        return handle.cast<ArrayHandle *>(); // the Python Array keeps the handle alive
    }
    if (py::isinstance<ArrayHandle>(obj)) return obj.cast<ArrayHandle *>();
    return nullptr;
}

Backend &backend_named(const std::string &name) {
    return get_backend(name);
}

CallArgs::~CallArgs() {
    for (auto &b : buffers_)
        PyBuffer_Release(b.get());
}

Arg CallArgs::convert(py::handle obj, std::string_view name, size_t index) {
    PyObject *o = obj.ptr();
    // Only built when something is wrong (this runs for every argument of every call).
    auto what = [&] {
        return name.empty() ? "argument " + std::to_string(index) : "'" + std::string(name) + "'";
    };
    if (ArrayHandle *h = array_handle_of(obj)) {
        Array a = h->array;
        // Arrays of the CPU live on the "cpu" backend; a serial primitive ("cpu:serial") is
        // another backend object over the same host memory, so view the data there.
        if (&a.backend() != &backend_ && a.backend().host_addressable() &&
            backend_.host_addressable())
            a = Array::wrap(a.host_data(), a.size(), a.dtype(), &backend_);
        std::vector<int64_t> shape = array_shape(obj);
        return shape.empty() ? Arg(a) : Arg(a, std::move(shape));
    }
    if (PyBool_Check(o)) return Arg(o == Py_True);
    if (g_numpy_generic && PyObject_IsInstance(o, g_numpy_generic) == 1)
        return numpy_scalar(obj, what);
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow == 0) return Arg(static_cast<int64_t>(v));
        if (overflow > 0) {
            unsigned long long u = PyLong_AsUnsignedLongLong(o);
            if (!PyErr_Occurred()) return Arg(static_cast<uint64_t>(u));
            PyErr_Clear();
        }
        throw py::value_error(what() + ": the integer " + py::str(obj).cast<std::string>() +
                              " does not fit in 64 bits");
    }
    if (PyFloat_Check(o)) return Arg(PyFloat_AS_DOUBLE(o));
    if (PyObject_CheckBuffer(o) && !PyBytes_Check(o) && !PyUnicode_Check(o)) {
        auto view = std::make_unique<Py_buffer>();
        if (PyObject_GetBuffer(o, view.get(), PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) !=
            0) {
            PyErr_Clear();
            throw py::type_error(what() + ": a " + type_name(obj) +
                                 " passed to a kernel must be writable and C-contiguous (use "
                                 "numpy.ascontiguousarray, or wrap a copy)");
        }
        std::optional<DType> t = format_dtype(view->format);
        if (!t || view->ndim < 1) {
            std::string f = view->format ? view->format : "B";
            PyBuffer_Release(view.get());
            if (!t)
                throw py::type_error(what() + ": arrays of format '" + f +
                                     "' cannot be passed to a kernel (supported: int8..int64, "
                                     "uint8..uint64, float32, float64, bool)");
            throw py::type_error(what() + ": a 0-dimensional array cannot be passed to a "
                                          "kernel; pass a number, or a.reshape(1)");
        }
        // A C-contiguous array of rank >= 2 is a shaped argument: the kernel indexes it
        // x[i, j] (docs/LANGUAGE.md, "Multi-dimensional arrays").
        std::vector<int64_t> shape(view->shape, view->shape + view->ndim);
        size_t n = 1;
        for (int64_t d : shape)
            n *= static_cast<size_t>(d);
        Array a = Array::wrap(view->buf, n, *t, &backend_);
        buffers_.push_back(std::move(view));
        if (!backend_.host_addressable()) write_back_.push_back(a);
        if (shape.size() == 1) return Arg(a);
        return Arg(a, std::move(shape));
    }
    throw py::type_error(what() + ": cannot pass a " + type_name(obj) +
                         " to a kernel; expected a smelt.Array, a NumPy array or a number");
}

void CallArgs::finish() {
    for (Array &a : write_back_)
        a.pull(); // the NumPy memory is the host mirror: pull() fills it
    write_back_.clear();
}

void register_array_type(py::handle array_type, py::handle numpy_generic) {
    Py_XDECREF(g_array_type);
    Py_XDECREF(g_numpy_generic);
    g_array_type = array_type.inc_ref().ptr();
    g_numpy_generic = numpy_generic.inc_ref().ptr();
    if (!g_handle_attr) g_handle_attr = PyUnicode_InternFromString("_h");
    if (!g_shape_attr) g_shape_attr = PyUnicode_InternFromString("_shape");
}

} // namespace smelt::python
