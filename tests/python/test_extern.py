# External functions from Python: smelt.external (a header function, pasted source, the
# decorator form) and Compyle-style Extern subclasses (code, link, __call__), called from
# Elementwise and Reduction kernels on every backend and checked against NumPy; the CPython
# backend runs their Python meaning. Mistakes: wrong calls, a backend without the function,
# missing signatures, unknown options.
import numpy as np
import pytest

import smelt
from smelt import GID_0, LDIM_0, LID_0, Elementwise, Extern, Reduction, double
from smelt.extern import declarations

HEADER = "smelt_py_test_cube.h"
HEADER_TEXT = """#pragma once
#ifdef __CUDACC__
__device__
#endif
static inline double smelt_py_cube(double x) { return x * x * x; }
"""

# Called as `cube` in kernels, emitted as smelt_py_cube.
cube = smelt.external("cube", "(double) -> double", header=HEADER, c_name="smelt_py_cube",
                      python=lambda x: x ** 3)


def cube_plus_one(i, x, y):
    y[i] = cube(x[i]) + 1.0


def _qualified(backend, text):
    return ("__device__ " if backend == "cuda" else "") + text


class Twice(Extern):
    """Compyle's form: code per backend, the CPython meaning in __call__."""
    signature = "(double, long) -> double"
    c_name = "smelt_py_twice"

    def code(self, backend):
        return _qualified(backend, "static inline double smelt_py_twice(double a, long b) "
                                   "{ return 2.0 * a + (double)b; }")

    def __call__(self, a, b):
        return 2.0 * a + b


twice = Twice()


def twice_index(i, x, y):
    y[i] = twice(x[i], i)


class Half(Extern):
    signature = (("double",), "double")
    c_name = "smelt_py_half"

    def code(self, backend):
        return _qualified(backend, "static inline double smelt_py_half(double a) "
                                   "{ return 0.5 * a; }")


class Quarter(Extern):
    """Its code calls Half's, which link() brings in."""
    signature = "(double) -> double"
    c_name = "smelt_py_quarter"

    def link(self, backend):
        return [Half()]

    def code(self, backend):
        return _qualified(backend, "static inline double smelt_py_quarter(double a) "
                                   "{ return smelt_py_half(smelt_py_half(a)); }")

    def __call__(self, a):
        return a / 4


quarter = Quarter()


def quarter_all(i, x, y):
    y[i] = quarter(x[i])


class GpuOnly(Extern):
    signature = "(double) -> double"

    def code(self, backend):
        if backend == "cpu":
            raise NotImplementedError("no CPU version")
        return _qualified(backend, "static inline double gpu_only(double a) { return a; }")


gpu_only = GpuOnly()


def calls_gpu_only(i, x, y):
    y[i] = gpu_only(x[i])


@smelt.external("smelt_py_sq", code={
    "": "static inline double smelt_py_sq(double a) { return a * a; }",
    "cuda": "__device__ static inline double smelt_py_sq(double a) { return a * a; }"})
def square(a: double) -> double:
    return a * a


def square_map(i, x):
    return square(x[i])


def wrong_count(i, x, y):
    y[i] = cube(x[i], 2.0)


class Unsigned(Extern):
    pass


unsigned = Unsigned()


def calls_unsigned(i, x, y):
    y[i] = unsigned(x[i])


@pytest.fixture
def header_dir(tmp_path):
    (tmp_path / HEADER).write_text(HEADER_TEXT)
    return str(tmp_path)


def _x(n=33):
    return np.linspace(-4.0, 4.0, n)  # multiples of 1/4: exact cubes


def test_header_function(backend, header_dir):
    x, y = _x(), np.zeros(33)
    Elementwise(cube_plus_one, backend=backend, includes=[header_dir])(x, y)
    np.testing.assert_array_equal(y, x * x * x + 1.0)


def test_compyle_extern_code(backend):
    x, y = _x(), np.zeros(33)
    Elementwise(twice_index, backend=backend)(x, y)
    np.testing.assert_array_equal(y, 2.0 * x + np.arange(33))


def test_link_brings_in_other_externs(backend):
    x, y = _x(), np.zeros(33)
    Elementwise(quarter_all, backend=backend)(x, y)
    np.testing.assert_array_equal(y, x / 4)


def test_decorated_external_in_a_reduction(backend):
    x = _x()
    got = Reduction("a+b", map_func=square_map, backend=backend)(x)
    assert got == pytest.approx(float(np.sum(x * x)), rel=1e-12)


def test_external_missing_on_the_backend_is_a_located_error():
    x, y = _x(), np.zeros(33)
    with pytest.raises(smelt.CompileError) as info:
        Elementwise(calls_gpu_only, backend="cython")(x, y)
    msg = str(info.value)
    assert "test_extern.py" in msg and "declared for opencl and cuda only" in msg, msg


def test_wrong_argument_count_is_located(header_dir):
    x, y = _x(), np.zeros(33)
    with pytest.raises(smelt.CompileError) as info:
        Elementwise(wrong_count, backend="cython", includes=[header_dir])(x, y)
    assert "takes 1 argument but 2 were given" in str(info.value)


def test_extern_without_signature_is_a_usage_error():
    with pytest.raises(smelt.UsageError, match="no signature"):
        Elementwise(calls_unsigned, backend="cython")(_x(), np.zeros(33))


def test_missing_header_is_a_backend_error():
    x, y = _x(), np.zeros(33)
    with pytest.raises(smelt.BackendError) as info:
        Elementwise(cube_plus_one, backend="cython")(x, y)  # no includes=
    assert HEADER in str(info.value)


def test_python_meaning():
    assert cube(3.0) == 27.0 and twice(1.5, 2) == 5.0 and square(4.0) == 16.0
    with pytest.raises(NotImplementedError):
        smelt.external("nothing", "(double) -> double")(1.0)


def test_declarations():
    decls, key = declarations({"cube": cube, "twice": twice, "gpu_only": gpu_only})
    by_name = {d.name: d for d in decls}
    assert by_name["cube"].params == ["double"] and by_name["cube"].result == "double"
    assert by_name["cube"].c_name == "smelt_py_cube" and by_name["cube"].header == HEADER
    assert by_name["cube"].backends == []  # every backend
    assert by_name["gpu_only"].backends == ["opencl", "cuda"]
    assert "smelt_py_twice" in by_name["twice"].code["cpu"]
    assert hash(key) == hash(declarations({"cube": cube, "twice": twice,
                                           "gpu_only": gpu_only})[1])


def test_signature_forms():
    assert smelt.external("f", "(doublep, int)").signature == "(doublep, int)"
    from smelt.extern import signature_of
    assert signature_of(smelt.external("f", "(doublep, int)"), "f") == (["doublep", "int"], "void")
    assert signature_of(smelt.external("g", ((np.float32, int), float)), "g") == (
        ["float", "long"], "double")
    with pytest.raises(smelt.UsageError):
        smelt.external("h", "double -> double")
    with pytest.raises(smelt.UsageError):
        smelt.external("h", "(double) -> double", backends=["metal"])


def test_unknown_option_is_rejected():
    with pytest.raises(TypeError, match="unexpected keyword argument 'include'"):
        Elementwise(twice_index, backend="cython", include=["/tmp"])


def twice_kernel(x, y, n):
    i = GID_0 * LDIM_0 + LID_0
    if i < n:
        y[i] = twice(x[i], 1)


def test_low_level_kernel_calls_an_external(gpu):
    x, y = _x(64), np.zeros(64)
    smelt.low_level.Kernel(twice_kernel, backend=gpu)(x, y, 64)
    np.testing.assert_array_equal(y, 2.0 * x + 1.0)
