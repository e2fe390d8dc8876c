# Reduction and Scan against NumPy and against CPython running the same functions
# (backend='python'): plain and mapped reductions with their neutral, every output of a scan
# (item, prev_item, last_item, N), segments, in-place output and keyword arguments by name.
import numpy as np
import pytest

import smelt
from smelt import Reduction, Scan, annotate, cos, sin


@annotate(i='int', doublep='x, y')
def cos_sin(i=0, x=[0.0], y=[0.0]):
    return cos(x[i]) * sin(y[i])


def weighted(i, x, w, k):
    return k * x[i] * w[i]


def ident(i, x):
    return x[i]


def store_all(i, item, prev_item, last_item, N, y, yp, last, count):
    y[i] = item
    yp[i] = prev_item
    last[i] = last_item
    count[i] = N


def seg_start(i, flags):
    return flags[i] != 0


def in_place(i, item, x):
    x[i] = item


def both(backend, make):
    """The result of make(backend) and of make('python'), the CPython oracle."""
    return make(backend), make("python")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.uint32])
def test_plain_reductions(backend, dtype, rng):
    x = (rng.integers(-50, 50, 1001) if np.dtype(dtype).kind != "u" else rng.integers(0, 99, 1001)).astype(dtype)
    s = Reduction("a+b", dtype_out=dtype, backend=backend)(x)
    assert s == x.sum(dtype=dtype) and type(s) is np.dtype(dtype).type
    assert Reduction("min(a, b)", dtype_out=dtype, neutral="INFINITY" if np.dtype(dtype).kind == "f"
                     else "2147483647", backend=backend)(x) == x.min()
    assert Reduction("max(a, b)", dtype_out=dtype, neutral="0", backend=backend)(x) == max(x.max(), 0)


def test_neutral_for_empty_input(backend):
    r = Reduction("min(a, b)", neutral="INFINITY", backend=backend)
    assert r(np.zeros(0)) == np.inf
    assert Reduction("a+b", backend=backend)(np.zeros(0)) == 0.0


def test_mapped_reduction(backend, rng):
    x, y = rng.random(500), rng.random(500)
    got, oracle = both(backend, lambda b: Reduction("a+b", map_func=cos_sin, backend=b)(x, y))
    want = np.sum(np.cos(x) * np.sin(y))
    assert got == pytest.approx(want, rel=1e-12)
    assert got == pytest.approx(oracle, rel=1e-12)


def test_jit_mapped_reduction_with_scalar(backend, rng):
    x = rng.random(300).astype(np.float32)
    w = rng.random(300).astype(np.float32)
    r = Reduction("max(a, b)", map_func=weighted, dtype_out=np.float32, neutral="-INFINITY",
                  backend=backend)
    got = r(x, w, np.float32(2))
    assert got == np.max(np.float32(2) * x * w) and type(got) is np.float32


def test_reduction_syntax_error_is_a_syntax_error(compiled_backend):
    with pytest.raises(SyntaxError) as info:
        Reduction("a ++", backend=compiled_backend)
    assert isinstance(info.value, smelt.CompileError)
    assert info.value.filename == "<reduce_expr>" and info.value.lineno == 1


def _scan_outputs(backend, x, flags=None, scan_expr="a+b", neutral="0"):
    n = len(x)
    dt = x.dtype
    out = dict(y=np.zeros(n, dt), yp=np.zeros(n, dt), last=np.zeros(n, dt),
               count=np.zeros(n, np.int64))
    scan = Scan(ident, store_all, scan_expr, dtype=dt, neutral=neutral,
                is_segment=seg_start if flags is not None else None, backend=backend)
    kwargs = dict(x=x, **out)
    if flags is not None:
        kwargs["flags"] = flags
    scan(**kwargs)
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 33, 1000])
def test_scan_item_prev_item_last_item(backend, n, rng):
    x = rng.integers(0, 9, n).astype(np.int32)
    out = _scan_outputs(backend, x)
    inclusive = np.cumsum(x, dtype=np.int32)
    np.testing.assert_array_equal(out["y"], inclusive)
    np.testing.assert_array_equal(out["yp"], np.concatenate([[0], inclusive[:-1]])[:n])
    np.testing.assert_array_equal(out["last"], np.full(n, inclusive[-1] if n else 0))
    np.testing.assert_array_equal(out["count"], np.full(n, n))


def test_segmented_scan_matches_cpython(backend, rng):
    n = 400
    x = rng.random(n)
    flags = (rng.integers(0, 25, n) == 0).astype(np.int32)
    got = _scan_outputs(backend, x, flags)
    oracle = _scan_outputs("python", x, flags)
    for k in got:
        np.testing.assert_allclose(got[k], oracle[k], rtol=1e-13, err_msg=k)
    # and against a plain loop
    want, acc = np.zeros(n), 0.0
    for i in range(n):
        acc = x[i] if (i == 0 or flags[i]) else acc + x[i]
        want[i] = acc
    np.testing.assert_allclose(got["y"], want, rtol=1e-13)


def test_max_scan_with_neutral(backend, rng):
    x = rng.normal(size=300)
    out = _scan_outputs(backend, x, scan_expr="max(a, b)", neutral="-INFINITY")
    np.testing.assert_array_equal(out["y"], np.maximum.accumulate(x))
    np.testing.assert_array_equal(out["yp"][1:], np.maximum.accumulate(x)[:-1])
    assert out["yp"][0] == -np.inf


def test_scan_output_overwrites_its_input(backend, rng):
    x = rng.integers(-5, 5, 777).astype(np.int64)
    want = np.cumsum(x)
    Scan(ident, in_place, dtype=np.int64, backend=backend)(x=x)
    np.testing.assert_array_equal(x, want)


def test_scan_mistakes(compiled_backend):
    scan = Scan(ident, in_place, dtype=np.int64, backend=compiled_backend)
    x = np.zeros(4, np.int64)
    with pytest.raises(smelt.UsageError, match="'y'|unknown|not a parameter"):
        scan(x=x, y=x)
    with pytest.raises(TypeError):
        Scan(ident, backend=compiled_backend)
