// smelt::Kernel (low-level kernels) and smelt::LocalMem for Python. The package's
// smelt.low_level.Kernel chooses the launch geometry and sizes LocalMem; this file converts the
// arguments and launches, with the GIL released while the engine compiles and enqueues.
#include "py_module.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <array>

namespace smelt::python {

namespace {

// A Kernel together with the backend its arguments must live on.
struct PyKernel {
    Kernel prim;
    Backend *backend;
};

std::array<int64_t, 3> dims_of(const std::vector<int64_t> &v, const char *what) {
    if (v.empty() || v.size() > 3)
        throw UsageError(std::string(what) + " must have 1 to 3 dimensions, not " +
                         std::to_string(v.size()));
    std::array<int64_t, 3> d = {1, 1, 1};
    std::copy(v.begin(), v.end(), d.begin());
    return d;
}

} // namespace

void bind_kernel(py::module_ &m) {
    py::class_<LocalMem>(m, "LocalMem")
        .def(py::init([](size_t count, const std::string &dtype) {
                 return LocalMem(count, dtype.empty() ? std::nullopt
                                                      : std::optional(dtype_from_name(dtype)));
             }),
             py::arg("count"), py::arg("dtype") = "")
        .def_readonly("count", &LocalMem::count);

    py::class_<PyKernel>(m, "Kernel")
        .def(py::init([](const Program &p, const std::string &func, const std::string &backend,
                         bool single, const py::dict &options) {
                 return new PyKernel{Kernel(p, func, options_from(backend, single, options)),
                                     &backend_named(backend)};
             }),
             py::arg("program"), py::arg("func"), py::arg("backend"), py::arg("single") = false,
             py::arg("options") = py::dict())
        // k(global_size, local_size, *args): sizes as lists of 1 to 3 numbers; an argument is a
        // smelt.Array, a NumPy array, a number or a _smelt.LocalMem.
        .def("__call__",
             [](PyKernel &self, const std::vector<int64_t> &global,
                const std::vector<int64_t> &local, py::args args) {
                 auto g = dims_of(global, "global_size"), l = dims_of(local, "local_size");
                 CallArgs ca(*self.backend);
                 std::vector<LaunchArg> v;
                 v.reserve(args.size());
                 for (size_t k = 0; k < args.size(); ++k) {
                     if (py::isinstance<LocalMem>(args[k]))
                         v.emplace_back(args[k].cast<LocalMem>());
                     else
                         v.emplace_back(ca.convert(args[k], {}, k + 1));
                 }
                 {
                     py::gil_scoped_release unlocked;
                     self.prim(g, l, v);
                 }
                 ca.finish();
             })
        .def_property_readonly("source", [](const PyKernel &s) { return s.prim.source(); });
}

} // namespace smelt::python
