// Engine exceptions → Python exceptions. The Python classes (smelt.CompileError, a SyntaxError
// subclass for parse errors, smelt.UsageError, smelt.BackendError, ...) and the mapping of
// locations into the user's file live in python/smelt/errors.py, which registers a factory here
// at import; this file only hands the factory what the C++ exception carries.
#include "py_module.h"

namespace smelt::python {

namespace {

// factory(kind, message, diagnostics, is_syntax, log, kept_source) -> exception instance.
// Deliberately leaked: it must outlive every translation, including at interpreter shutdown.
PyObject *g_factory = nullptr;

void raise_made(const char *kind, const std::string &message, py::list diagnostics, bool syntax,
                const std::string &log, const std::string &kept) {
    if (!g_factory) {
        PyErr_SetString(PyExc_RuntimeError, message.c_str());
        return;
    }
    try {
        py::object exc = py::reinterpret_borrow<py::object>(g_factory)(kind, message, diagnostics,
                                                                       syntax, log, kept);
        PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())), exc.ptr());
    } catch (py::error_already_set &e) {
        e.restore(); // the factory failed: report that instead
    }
}

py::list diagnostics_of(const CompileError &e) {
    py::list out;
    for (const Diagnostic &d : e.diagnostics())
        out.append(
            py::make_tuple(d.file, d.loc.line, d.loc.col, d.message, d.source_line, d.rendered));
    return out;
}

} // namespace

void bind_errors(py::module_ &m) {
    m.def("set_error_factory", [](py::object f) {
        Py_XDECREF(g_factory);
        g_factory = f.release().ptr();
    });
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const CompileError &e) {
            raise_made("compile", e.what(), diagnostics_of(e), e.is_syntax_error(), "", "");
        } catch (const UsageError &e) {
            raise_made("usage", e.what(), py::list(), false, "", "");
        } catch (const BackendError &e) {
            raise_made("backend", e.what(), py::list(), false, e.log(), e.kept_source());
        } catch (const InternalError &e) {
            raise_made("internal", e.what(), py::list(), false, "", "");
        }
    });
}

} // namespace smelt::python
