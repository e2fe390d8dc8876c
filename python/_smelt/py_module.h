// Shared pieces of the `smelt._smelt` extension module: the array handle behind smelt.Array,
// Python → smelt::Arg conversion and the bind_* functions each file contributes.
//
// The extension is deliberately thin: it exposes the C++ API of engine/smelt.h with Python
// values in and out. The Compyle-shaped API (config, backends by Compyle's names, functions as
// source, profiling, CPython fallback) lives in python/smelt/*.py on top of it.
#pragma once

#include "smelt.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace smelt::python {

namespace py = pybind11;

// The C++ object behind a smelt.Array: an engine Array plus, when it wraps memory the caller
// owns (a NumPy array), that owner, so the memory lives as long as the handle.
struct ArrayHandle {
    Array array;
    py::object owner; // None unless `array` wraps the owner's memory

    size_t size() const { return array.size(); }
};

// The engine backend for a name the engine knows ("cpu", "cpu:serial", "opencl", "cuda").
Backend &backend_named(const std::string &name);

// Arguments of one kernel call, converted from Python objects. Keeps the buffers of NumPy
// arrays passed directly locked until the call ends, and on backends whose memory the host cannot
// address copies those arrays back after the call (they were pushed when wrapped).
class CallArgs {
public:
    explicit CallArgs(Backend &backend) : backend_(backend) {}
    ~CallArgs();
    CallArgs(const CallArgs &) = delete;
    CallArgs &operator=(const CallArgs &) = delete;

    // `name` (or, when empty, "argument <index>") names the argument in error messages.
    Arg convert(py::handle obj, std::string_view name, size_t index = 0);
    // Copies device results back into NumPy arrays that were passed directly (GPU backends).
    void finish();

private:
    Backend &backend_;
    std::vector<std::unique_ptr<Py_buffer>> buffers_;
    std::vector<Array> write_back_;
};

// The handle inside a Python object: a smelt.Array (its `_h`) or an ArrayHandle; nullptr when
// `obj` is neither.
ArrayHandle *array_handle_of(py::handle obj);

// Called by the package at import: the Python class smelt.Array (whose `_h` is the
// ArrayHandle) and numpy.generic (NumPy scalars), so calls recognise both without Python code.
void register_array_type(py::handle array_type, py::handle numpy_generic);

// The Options of a primitive: the backend, the precision switch and the keyword options the
// package passes through (`extra`: includes, libs, extra_flags, fast_math, bounds_check,
// check_finite; UsageError for another key).
Options options_from(const std::string &backend, bool single, const py::dict &extra);

void bind_errors(py::module_ &m);
void bind_options(py::module_ &m);
void bind_arrays(py::module_ &m);
void bind_primitives(py::module_ &m);
void bind_kernel(py::module_ &m);
void bind_loop_function(py::module_ &m);
void bind_builtins(py::module_ &m); // py_builtins.cpp: _smelt.builtins()

} // namespace smelt::python
