// _smelt.builtins(): the kernel language's builtin table (lower/builtins.cpp) for Python, so
// the package's tests can check that python/smelt/purepy.py gives every row a CPython meaning.
#include "py_module.h"

#include "lower/builtins.h"

namespace smelt::python {

void bind_builtins(py::module_ &m) {
    m.def(
        "builtins",
        [] {
            py::list rows;
            for (const lower::Builtin &b : lower::builtin_table()) {
                py::dict row;
                row["name"] = b.name;
                row["is_name"] = b.is_name(); // a value (pi, LID_0), not a function
                row["min_args"] = b.min_args;
                row["max_args"] = b.max_args; // -1: any number
                // "purepy": smelt.purepy defines it; "python": Python's builtin of that name.
                row["cpython"] = b.cpython == lower::CPython::Purepy ? "purepy" : "python";
                row["doc"] = b.doc;
                rows.append(row);
            }
            return rows;
        },
        "The kernel language's builtins, one dict per row of the engine's table: name, is_name, "
        "min_args, max_args, cpython ('purepy' or 'python'), doc.");
}

} // namespace smelt::python
