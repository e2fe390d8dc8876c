// The keyword options of the Python primitives (smelt.Options fields given as a dict) and
// smelt.External, the declaration of an external function handed to Program.
#include "py_module.h"

#include <pybind11/stl.h>

namespace smelt::python {

namespace {

std::vector<std::string> strings(py::handle value, const std::string &key) {
    if (py::isinstance<py::str>(value))
        throw UsageError("option '" + key + "' takes a list of strings, not one string");
    try {
        return value.cast<std::vector<std::string>>();
    } catch (const py::cast_error &) {
        throw UsageError("option '" + key + "' takes a list of strings, not " +
                         std::string(py::str(py::type::of(value).attr("__name__"))));
    }
}

} // namespace

Options options_from(const std::string &backend, bool single, const py::dict &extra) {
    Options o;
    o.backend = backend;
    o.precision = single ? Precision::Single : Precision::Double;
    for (auto [k, value] : extra) {
        const std::string key = py::str(k);
        if (key == "includes")
            o.includes = strings(value, key);
        else if (key == "libs")
            o.libs = strings(value, key);
        else if (key == "extra_flags")
            o.extra_flags = strings(value, key);
        else if (key == "fast_math")
            o.fast_math = value.cast<bool>();
        else if (key == "bounds_check")
            o.bounds_check = value.cast<bool>();
        else if (key == "check_finite")
            o.check_finite = value.cast<bool>();
        else
            throw UsageError("unknown option '" + key +
                             "' (options: includes, libs, extra_flags, fast_math, "
                             "bounds_check, check_finite)");
    }
    return o;
}

void bind_options(py::module_ &m) {
    py::class_<External>(m, "External")
        .def(py::init([](std::string name, std::vector<std::string> params, std::string result,
                         std::string c_name, std::string header, std::vector<std::string> backends,
                         std::map<std::string, std::string> code) {
                 External x;
                 x.name = std::move(name);
                 x.params = std::move(params);
                 x.result = std::move(result);
                 x.c_name = std::move(c_name);
                 x.header = std::move(header);
                 x.backends = std::move(backends);
                 x.code = std::move(code);
                 return x;
             }),
             py::arg("name"), py::arg("params"), py::arg("result") = "void", py::arg("c_name") = "",
             py::arg("header") = "", py::arg("backends") = std::vector<std::string>{},
             py::arg("code") = std::map<std::string, std::string>{})
        .def_readonly("name", &External::name)
        .def_readonly("params", &External::params)
        .def_readonly("result", &External::result)
        .def_readonly("c_name", &External::c_name)
        .def_readonly("header", &External::header)
        .def_readonly("backends", &External::backends)
        .def_readonly("code", &External::code);
}

} // namespace smelt::python
