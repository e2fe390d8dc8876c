// Program, Elementwise, Reduction and Scan for Python: arguments converted by CallArgs, the
// GIL released while the engine runs, results as Python numbers.
#include "py_module.h"

#include <pybind11/stl.h>

#include <chrono>
#include <optional>

namespace smelt::python {

namespace {

py::tuple diagnostic_tuple(const Diagnostic &d) {
    return py::make_tuple(d.file, d.loc.line, d.loc.col, d.message, d.source_line, d.rendered);
}

// A primitive together with the backend its arguments must live on.
struct PyElementwise {
    Elementwise prim;
    Backend *backend;
};

struct PyReduction {
    Reduction prim;
    Backend *backend;
};

struct PyScan {
    Scan prim;
    Backend *backend;
};

std::vector<Arg> positional(CallArgs &ca, const py::args &args) {
    std::vector<Arg> out;
    out.reserve(args.size());
    for (size_t k = 0; k < args.size(); ++k)
        out.push_back(ca.convert(args[k], {}, k + 1));
    return out;
}

// Seconds for `reps` calls of `call` made from C++ (no Python per call): what calling the C++
// primitive directly costs, for bench/python_overhead.py.
template <class F> double time_calls(int64_t reps, F &&call) {
    py::gil_scoped_release unlocked;
    call(); // compiles the specialisation outside the timed loop
    auto start = std::chrono::steady_clock::now();
    for (int64_t r = 0; r < reps; ++r)
        call();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

py::object value_to_python(const Value &v) {
    if (dtype_is_float(v.dtype())) return py::float_(v.as<double>());
    if (dtype_is_signed(v.dtype())) return py::int_(v.as<int64_t>());
    return py::int_(v.as<uint64_t>());
}

} // namespace

void bind_primitives(py::module_ &m) {
    py::class_<Program>(m, "Program")
        .def(py::init([](std::string name, std::string text, int line_offset,
                         std::vector<std::string> kernel_path, std::vector<External> externals) {
                 ProgramOptions options;
                 options.kernel_path = std::move(kernel_path);
                 options.externals = std::move(externals);
                 return Program::from_source(std::move(name), std::move(text), options,
                                             line_offset);
             }),
             py::arg("name"), py::arg("text"), py::arg("line_offset") = 0,
             py::arg("kernel_path") = std::vector<std::string>{},
             py::arg("externals") = std::vector<External>{})
        .def_static(
            "from_file",
            [](const std::string &path, std::vector<std::string> kernel_path) {
                ProgramOptions options;
                options.kernel_path = std::move(kernel_path);
                return Program::from_file(path, options);
            },
            py::arg("path"), py::arg("kernel_path") = std::vector<std::string>{})
        .def_property_readonly("name", &Program::name)
        .def("function_names", &Program::function_names)
        .def("has_function", &Program::has_function)
        .def("imported_files", &Program::imported_files)
        .def(
            "check",
            [](const Program &p, const std::vector<std::string> &funcs, bool single) {
                py::list out;
                for (const Diagnostic &d :
                     p.check(funcs, single ? Precision::Single : Precision::Double))
                    out.append(diagnostic_tuple(d));
                return out;
            },
            py::arg("funcs") = std::vector<std::string>{}, py::arg("single") = false);

    py::class_<PyElementwise>(m, "Elementwise")
        .def(py::init([](const Program &p, const std::string &func, const std::string &backend,
                         bool single, const py::dict &options) {
                 return new PyElementwise{
                     Elementwise(p, func, options_from(backend, single, options)),
                     &backend_named(backend)};
             }),
             py::arg("program"), py::arg("func"), py::arg("backend"), py::arg("single") = false,
             py::arg("options") = py::dict())
        .def("__call__",
             [](PyElementwise &self, py::args args) {
                 CallArgs ca(*self.backend);
                 std::vector<Arg> v = positional(ca, args);
                 {
                     py::gil_scoped_release unlocked;
                     self.prim(v);
                 }
                 ca.finish();
             })
        .def("call_n",
             [](PyElementwise &self, int64_t n, py::args args) {
                 CallArgs ca(*self.backend);
                 std::vector<Arg> v = positional(ca, args);
                 {
                     py::gil_scoped_release unlocked;
                     self.prim(n, v);
                 }
                 ca.finish();
             })
        .def("time_calls",
             [](PyElementwise &self, int64_t reps, py::args args) {
                 CallArgs ca(*self.backend);
                 std::vector<Arg> v = positional(ca, args);
                 return time_calls(reps, [&] { self.prim(v); });
             })
        .def_property_readonly("source", [](const PyElementwise &s) { return s.prim.source(); });

    py::class_<PyReduction>(m, "Reduction")
        .def(py::init([](std::optional<Program> p, std::string reduce_expr, std::string map_func,
                         const std::string &dtype_out, std::string neutral,
                         const std::string &backend, bool single, const py::dict &options) {
                 return new PyReduction{Reduction(p ? &*p : nullptr, std::move(reduce_expr),
                                                  std::move(map_func), dtype_from_name(dtype_out),
                                                  std::move(neutral),
                                                  options_from(backend, single, options)),
                                        &backend_named(backend)};
             }),
             py::arg("program"), py::arg("reduce_expr"), py::arg("map_func"), py::arg("dtype_out"),
             py::arg("neutral"), py::arg("backend"), py::arg("single") = false,
             py::arg("options") = py::dict())
        .def("__call__",
             [](PyReduction &self, py::args args) {
                 CallArgs ca(*self.backend);
                 std::vector<Arg> v = positional(ca, args);
                 Value result;
                 {
                     py::gil_scoped_release unlocked;
                     result = self.prim(v);
                 }
                 ca.finish();
                 return value_to_python(result);
             })
        .def("time_calls",
             [](PyReduction &self, int64_t reps, py::args args) {
                 CallArgs ca(*self.backend);
                 std::vector<Arg> v = positional(ca, args);
                 return time_calls(reps, [&] { self.prim(v); });
             })
        .def_property_readonly("source", [](const PyReduction &s) { return s.prim.source(); });

    py::class_<PyScan>(m, "Scan")
        .def(py::init([](const Program &p, std::string input, std::string output,
                         std::string scan_expr, const std::string &dtype, std::string neutral,
                         std::string segment, const std::string &backend, bool single,
                         const py::dict &options) {
                 return new PyScan{Scan(p, std::move(input), std::move(output),
                                        std::move(scan_expr), dtype_from_name(dtype),
                                        std::move(neutral), std::move(segment),
                                        options_from(backend, single, options)),
                                   &backend_named(backend)};
             }),
             py::arg("program"), py::arg("input"), py::arg("output"), py::arg("scan_expr"),
             py::arg("dtype"), py::arg("neutral"), py::arg("segment"), py::arg("backend"),
             py::arg("single") = false, py::arg("options") = py::dict())
        .def(
            "__call__",
            [](PyScan &self, const py::dict &named, int64_t n) {
                CallArgs ca(*self.backend);
                std::map<std::string, Arg> v;
                for (auto [key, value] : named) {
                    std::string name = py::str(key);
                    v.emplace(name, ca.convert(value, name));
                }
                {
                    py::gil_scoped_release unlocked;
                    self.prim(v, n);
                }
                ca.finish();
            },
            py::arg("named"), py::arg("n") = -1)
        .def("time_calls",
             [](PyScan &self, int64_t reps, const py::dict &named) {
                 CallArgs ca(*self.backend);
                 std::map<std::string, Arg> v;
                 for (auto [key, value] : named) {
                     std::string name = py::str(key);
                     v.emplace(name, ca.convert(value, name));
                 }
                 return time_calls(reps, [&] { self.prim(v); });
             })
        .def_property_readonly("source", [](const PyScan &s) { return s.prim.source(); });
}

} // namespace smelt::python
