# Mistakes in kernels and calls become Python exceptions located in the user's file: parse
# errors are SyntaxErrors, other kernel errors smelt.CompileError (filename, lineno, offset, text
# and the caret in the message), wrong calls smelt.UsageError (a TypeError and a ValueError).
import os
import sys
import traceback

import numpy as np
import pytest

import smelt
from smelt import Elementwise, Reduction, Scan

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "kernels"))
import bad_kernels  # noqa: E402

BAD = bad_kernels.__file__


def marker(name):
    """(line, text) of the line carrying `# ERROR name` in bad_kernels.py."""
    with open(BAD) as f:
        for k, line in enumerate(f, 1):
            if "# ERROR %s" % name in line:
                return k, line.rstrip("\n")
    raise AssertionError(name)


def compile_error(func, *args):
    with pytest.raises(smelt.CompileError) as info:
        Elementwise(func, backend="cython")(*(args or (np.zeros(3),)))
    return info.value


def test_type_error_points_into_the_file():
    e = compile_error(bad_kernels.retyped)
    line, text = marker("retyped")
    assert (e.filename, e.lineno, e.text) == (BAD, line, text)
    assert e.offset == text.index("+ x[i]") + 1  # the expression that cannot be stored
    assert not isinstance(e, SyntaxError)
    assert "%s:%d:%d: error:" % (BAD, line, e.offset) in str(e)
    assert text in str(e) and "\n" + " " * (e.offset - 1) + "^" in str(e)
    assert e.diagnostics[0].message in str(e)


def test_unknown_function():
    e = compile_error(bad_kernels.unknown_call)
    line, text = marker("unknown_call")
    assert e.lineno == line and e.offset == text.index("no_such_function") + 1
    assert "no_such_function" in e.msg


def test_parse_error_is_a_syntax_error():
    e = compile_error(bad_kernels.walrus)
    line, text = marker("walrus")
    assert isinstance(e, SyntaxError) and isinstance(e, smelt.KernelSyntaxError)
    assert (e.filename, e.lineno, e.offset) == (BAD, line, text.index(":=") + 1)
    # Tracebacks show it as Python shows syntax errors: file, line, the source line and a caret.
    shown = "".join(traceback.format_exception_only(type(e), e))
    assert 'File "%s", line %d' % (BAD, line) in shown and text.strip() in shown


def test_error_in_a_called_helper():
    e = compile_error(bad_kernels.caller)
    line, text = marker("helper_bad")
    d = [d for d in e.diagnostics if d.lineno == line]
    assert d and d[0].filename == BAD and d[0].offset == text.index("[1]") + 1 and d[0].text == text
    assert "matrix" in d[0].message


def test_error_in_a_nested_kernel_keeps_its_indentation():
    def nested(i, x):
        y = 1
        y = 0.5  # MARK
        x[i] = y

    with pytest.raises(smelt.CompileError) as info:
        Elementwise(nested)(np.zeros(2))
    e = info.value
    with open(__file__) as f:
        lines = f.read().splitlines()
    line = next(k for k, t in enumerate(lines, 1) if "# MARK" in t and "y = 0.5" in t)
    assert e.filename == __file__ and e.lineno == line
    assert e.text == lines[line - 1] and e.offset == lines[line - 1].index("0.5") + 1
    assert "\n" + lines[line - 1] + "\n" + " " * (e.offset - 1) + "^" in str(e)


def test_expression_errors_are_located_in_the_expression():
    with pytest.raises(SyntaxError) as info:
        Reduction("a ++", backend="cython")
    e = info.value
    assert (e.filename, e.lineno, e.text) == ("<reduce_expr>", 1, "a ++")
    with pytest.raises(smelt.CompileError) as info:
        Scan(bad_kernels.annotated, bad_kernels.annotated, "a + c", backend="cython")
    assert info.value.filename in ("<scan_expr>",) or isinstance(info.value, smelt.CompileError)


def test_usage_errors_are_type_and_value_errors():
    e = Elementwise(bad_kernels.annotated, backend="cython")
    with pytest.raises(smelt.UsageError) as info:
        e(np.zeros(3, np.float32))  # x is annotated doublep
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    assert "x" in str(info.value)
    with pytest.raises(TypeError):
        e(np.zeros(3), 1.0)


def test_kernels_without_source_are_refused():
    namespace = {}
    exec("def k(i, x):\n    x[i] = 1\n", namespace)  # no file, nothing in linecache
    with pytest.raises(smelt.UsageError, match="cannot find the source"):
        Elementwise(namespace["k"], backend="cython")


def test_backend_errors():
    with pytest.raises(ValueError, match="unknown backend"):
        Elementwise(bad_kernels.annotated, backend="fortran")
    for gpu in ("opencl", "cuda"):
        if not smelt.backend_available(gpu):
            with pytest.raises(smelt.BackendUnavailableError, match=gpu) as info:
                Elementwise(bad_kernels.annotated, backend=gpu)
            assert isinstance(info.value, NotImplementedError)


def test_local_array_of_another_element_type_is_a_located_error():
    # Compyle programs pass declare('matrix(n)') arrays to helpers; a helper whose parameter is
    # a pointer of another element type cannot take one, and the error is at the argument.
    e = compile_error(bad_kernels.passes_a_matrix)
    line, text = marker("passes_a_matrix")
    assert (e.filename, e.lineno) == (BAD, line)
    assert e.offset == text.index("tmp)") + 1
    assert "local array (matrix(2)) cannot be passed to parameter 'out' of 'fill_pair'" in e.msg
