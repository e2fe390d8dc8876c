// The `smelt._smelt` extension module. The package (python/smelt) builds the Compyle-shaped API
// on it; nothing here is meant to be called by users directly.
#include "py_module.h"

PYBIND11_MODULE(_smelt, m) {
    m.doc() = "Smelt's engine (engine/smelt.h) for the smelt Python package";
    m.attr("__version__") = SMELT_VERSION;
    smelt::python::bind_errors(m);
    smelt::python::bind_arrays(m);
    smelt::python::bind_options(m);
    smelt::python::bind_primitives(m);
    smelt::python::bind_kernel(m);
    smelt::python::bind_loop_function(m);
    smelt::python::bind_builtins(m);
}
