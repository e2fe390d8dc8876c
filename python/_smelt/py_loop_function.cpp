// smelt::LoopFunction (loop-parallel functions, ParPy's model) for Python. The package's
// smelt.parpy builds the program (keeping the file's `import smelt.parpy as parpy` line, which
// tells the engine the module name its kernels use) and the spec on top of this binding:
//
//   f = _smelt.LoopFunction(program, "row_sums", {"N": (0, False, 0), "M": (128, True, 0)},
//                           backend="cpu", options={"includes": [...]})
//   f([x, out, n, m])          # arrays (smelt.Array or NumPy) and numbers
//   f.source([x, out, n, m])   # the generated code of that specialisation
#include "py_module.h"

#include <pybind11/stl.h>

#include <tuple>

namespace smelt::python {

namespace {

struct PyLoopFunction {
    LoopFunction prim;
    Backend *backend;
};

std::vector<Arg> list_args(CallArgs &ca, const py::sequence &args) {
    std::vector<Arg> out;
    out.reserve(args.size());
    for (size_t k = 0; k < args.size(); ++k)
        out.push_back(ca.convert(args[k], {}, k + 1));
    return out;
}

} // namespace

void bind_loop_function(py::module_ &m) {
    py::class_<PyLoopFunction>(m, "LoopFunction")
        .def(py::init([](const Program &p, const std::string &name,
                         const std::map<std::string, std::tuple<int64_t, bool, int64_t>> &spec,
                         const std::string &backend, bool single, bool fast_math,
                         const py::dict &options) {
                 ParallelSpec s;
                 for (const auto &[label, t] : spec)
                     s[label] = LoopPar{std::get<0>(t), std::get<1>(t), std::get<2>(t)};
                 // includes, libs, extra_flags (ParPy's CompileOptions, for externals), ...
                 Options o = options_from(backend, single, options);
                 o.fast_math = o.fast_math || fast_math;
                 return new PyLoopFunction{LoopFunction(p, name, std::move(s), o),
                                           &backend_named(backend)};
             }),
             py::arg("program"), py::arg("name"), py::arg("spec"), py::arg("backend"),
             py::arg("single") = false, py::arg("fast_math") = false,
             py::arg("options") = py::dict())
        .def(
            "__call__",
            [](PyLoopFunction &self, const py::sequence &args) {
                CallArgs ca(*self.backend);
                std::vector<Arg> v = list_args(ca, args);
                {
                    py::gil_scoped_release unlocked;
                    self.prim(v);
                }
                ca.finish();
            },
            py::arg("args"))
        .def(
            "source",
            [](PyLoopFunction &self, const py::sequence &args) {
                CallArgs ca(*self.backend);
                std::vector<Arg> v = list_args(ca, args);
                py::gil_scoped_release unlocked;
                return self.prim.source(v);
            },
            py::arg("args"));
}

} // namespace smelt::python
