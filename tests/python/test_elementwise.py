# Elementwise against NumPy and against CPython running the same function (backend='python'):
# annotated and JIT-typed kernels, helpers and module constants, arrays passed as NumPy arrays or
# smelt Arrays, scalars of every kind, the decorator, explicit n and argument mistakes.
import numpy as np
import pytest

import smelt
from smelt import Elementwise, annotate, declare, elementwise, sin, wrap

SCALE = 3
OFFSET = SCALE * 2 + 1  # a constant computed from another


@annotate(i='int', doublep='x, y, a, b')
def axpb(i, x, y, a, b):
    y[i] = a[i] * sin(x[i]) + b[i]


def scale_shift(i, x, y, a, b):
    y[i] = a * x[i] + b


def clamp01(v):
    return min(max(v, 0.0), 1.0)


def clamped(i, x, y):
    y[i] = clamp01(x[i]) * SCALE + OFFSET


def int_work(i, x, y):
    k = declare('int')
    k = 0
    for j in range(i % 7):
        k += x[i] // (j + 1)
    y[i] = k


def call(backend, func, *args):
    Elementwise(func, backend=backend)(*args)


def test_axpb_matches_numpy_and_cpython(backend, rng):
    n = 2000 if backend != "python" else 300
    x, a, b = rng.random(n), rng.random(n), rng.random(n)
    y = np.zeros(n)
    call(backend, axpb, x, y, a, b)
    np.testing.assert_allclose(y, a * np.sin(x) + b, rtol=1e-14)
    # The same function in CPython, element by element, is the oracle.
    want = np.zeros(n)
    for i in range(n):
        axpb(i, x, want, a, b)
    np.testing.assert_allclose(y, want, rtol=1e-14)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint32])
def test_jit_types_follow_the_arguments(backend, dtype, rng):
    n = 257
    x = (rng.random(n) * 100).astype(dtype)
    y = np.zeros(n, dtype=dtype)
    a = dtype(3) if np.dtype(dtype).kind != "f" else dtype(0.5)
    call(backend, scale_shift, x, y, a, dtype(2))
    want = (a * x + dtype(2)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(y, want, rtol=1e-6)
    else:
        np.testing.assert_array_equal(y, want)


def test_helpers_and_module_constants(backend, rng):
    x = rng.random(500) * 3 - 1
    y = np.zeros_like(x)
    call(backend, clamped, x, y)
    np.testing.assert_allclose(y, np.clip(x, 0, 1) * 3 + 7, rtol=1e-15)


def test_integer_kernel_against_cpython(backend, rng):
    x = rng.integers(-1000, 1000, 400).astype(np.int64)
    y = np.zeros_like(x)
    call(backend, int_work, x, y)
    want = np.zeros_like(x)
    for i in range(len(x)):
        int_work(i, x, want)
    np.testing.assert_array_equal(y, want)


def test_wrapped_arrays_are_written_in_place(backend, rng):
    x = rng.random(100)
    y = np.zeros(100)
    xa, ya = wrap(x, y, backend=backend)
    assert xa.data is x and ya.data is y
    call(backend, scale_shift, xa, ya, 2.0, 1.0)
    ya.pull()
    np.testing.assert_allclose(y, 2 * x + 1)


def test_nested_kernel_with_closure_constant(backend, rng):
    factor = 5  # a closure variable: sent to the engine as a constant

    def triple_plus(v):
        return 3 * v + factor

    def nested(i, x, y):
        y[i] = triple_plus(x[i])

    x = rng.random(64)
    y = np.zeros(64)
    call(backend, nested, x, y)
    np.testing.assert_allclose(y, 3 * x + 5)


def test_scalars_of_every_kind(compiled_backend):
    x = np.arange(10, dtype=np.float64)
    for a in (2, 2.0, np.int32(2), np.float32(2.0), np.int64(2), np.uint8(2), True):
        y = np.zeros(10)
        call(compiled_backend, scale_shift, x, y, a, 1)
        np.testing.assert_allclose(y, float(a) * x + 1, err_msg=repr(a))


def test_decorator_and_explicit_count(backend):
    @elementwise(backend=backend)
    def fill(i, y, v):
        y[i] = v + i

    assert isinstance(fill, Elementwise) and fill.func.__name__ == "fill"
    y = np.full(10, -1.0)
    fill.call_n(4, y, 0.5)
    np.testing.assert_array_equal(y, [0.5, 1.5, 2.5, 3.5] + [-1.0] * 6)
    fill(y, 1.0)
    np.testing.assert_array_equal(y, np.arange(10) + 1.0)


def test_empty_arrays(backend):
    x = np.zeros(0)
    call(backend, scale_shift, x, np.zeros(0), 1.0, 1.0)


def test_source_and_all_source(compiled_backend):
    e = Elementwise(axpb, backend=compiled_backend)
    assert e.source == "" and e.all_source == ""
    x = np.ones(4)
    e(x, np.zeros(4), x, x)
    assert "axpb" in e.source and "smelt prelude" not in e.source
    assert e.source.strip() in e.all_source and len(e.all_source) > len(e.source)


def test_argument_mistakes(compiled_backend):
    e = Elementwise(axpb, backend=compiled_backend)
    x = np.ones(4)
    with pytest.raises(smelt.UsageError, match="takes 4 argument"):
        e(x, x, x)
    with pytest.raises(TypeError, match="doublep|double"):  # annotated doublep given float32
        e(x.astype(np.float32), x, x, x)
    with pytest.raises(TypeError, match="C-contiguous"):
        e(x, np.zeros(8)[::2], x, x)
    ro = np.ones(4)
    ro.flags.writeable = False
    with pytest.raises(TypeError, match="writable"):
        e(ro, x, x, x)
    with pytest.raises(TypeError, match="0-dimensional"):
        e(np.ones(()), x, x, x)
    with pytest.raises(TypeError, match="cannot pass a list"):
        e([1.0], x, x, x)
    with pytest.raises(TypeError, match="complex128|format"):
        e(np.ones(4, complex), x, x, x)


def test_serial_cpu_when_openmp_is_off(rng):
    x = rng.random(1000)
    y = np.zeros_like(x)
    with smelt.use_config(use_openmp=False):
        e = Elementwise(scale_shift, backend="cython")
        assert e._engine == "cpu:serial"
        xa, ya = wrap(x, y)  # arrays live on the CPU backend either way
        e(xa, ya, 2.0, 0.0)
    np.testing.assert_allclose(y, 2 * x)


def sign_code(v):
    if v > 0:
        return 1
    elif v < 0:
        return -1
    else:
        return 0


def signs(i, x, y):
    y[i] = sign_code(x[i]) * 10 + (2 if x[i] > 50 else 3)


def test_branch_returns_match_cpython(backend, rng):
    # if/elif/else each returning: the returns must keep their branches (an engine bug returned
    # them swapped once).
    x = rng.integers(-100, 100, 300).astype(np.int32)
    y = np.zeros(300, np.int64)
    call(backend, signs, x, y)
    want = np.zeros_like(y)
    for i in range(300):
        signs(i, x, want)
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(y, np.sign(x) * 10 + np.where(x > 50, 2, 3))
