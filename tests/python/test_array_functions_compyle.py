# The functions of Compyle's `array` module (issue 14, item 2) against NumPy, on every backend:
# diff, trapz, take_bool, cumsum with out=, dot, minimum/maximum, sum, where, linspace, arange,
# ones_like/zeros_like/empty, sort_by_keys, argsort, align and wrap of several arrays.
import numpy as np
import pytest

import smelt
from smelt import wrap
from smelt.array import (align, arange, argsort, cumsum, diff, dot, empty, linspace, maximum,
                         minimum, ones_like, sort_by_keys, sum, take_bool, trapz, where, zeros_like)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int8, np.uint16])
def test_diff(backend, dtype, rng):
    x = (rng.normal(size=40) * 30).astype(dtype)
    a = wrap(x, backend=backend)
    for n in (1, 2, 3):
        got = diff(a, n)
        assert got.dtype == np.diff(x, n).dtype and got.backend == backend
        np.testing.assert_array_equal(got.get(), np.diff(x, n))
    assert diff(a, 0) is a
    with pytest.raises(ValueError):
        diff(a, -1)
    with pytest.raises(ValueError):
        diff(wrap(x[:2], backend=backend), 2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_trapz(backend, dtype, rng):
    y = (rng.normal(size=101) * 10).astype(dtype)
    x = np.sort(rng.uniform(0, 5, 101)).astype(np.float64 if dtype == np.int64 else dtype)
    ya, xa = wrap(y, x, backend=backend)
    np_trapezoid = getattr(np, "trapezoid", None) or np.trapz  # NumPy 2 renamed trapz
    want = np_trapezoid(y, x)
    got = trapz(ya, xa)
    assert got.dtype == want.dtype
    assert got == pytest.approx(want, rel=1e-5 if dtype == np.float32 else 1e-12)
    want_dx = np_trapezoid(y, dx=0.25)
    assert trapz(ya, dx=0.25) == pytest.approx(want_dx, rel=1e-5 if dtype == np.float32 else 1e-12)
    assert trapz(wrap(y[:1], backend=backend)) == 0.0


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_take_bool(backend, dtype, rng):
    x = (rng.normal(size=500) * 10).astype(dtype)
    cond = rng.integers(0, 2, 500).astype(np.int32)
    a = wrap(x, backend=backend)
    got = take_bool(a, wrap(cond, backend=backend))
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got.get(), x[cond != 0])
    np.testing.assert_array_equal(take_bool(a, x > 0).get(), x[x > 0])  # a bool mask
    assert len(take_bool(a, np.zeros(500, np.int32))) == 0


def test_cumsum_out_and_reductions(backend, rng):
    x = rng.integers(-50, 50, 333).astype(np.int32)
    a = wrap(x, backend=backend)
    out = smelt.zeros(333, np.int64, backend)
    assert cumsum(a, out=out) is out
    np.testing.assert_array_equal(out.get(), np.cumsum(x))
    assert cumsum(a).dtype == np.cumsum(x).dtype
    assert sum(a) == x.sum() and minimum(a) == x.min() and maximum(a) == x.max()
    y = rng.normal(size=333)
    assert dot(wrap(y, backend=backend), wrap(y, backend=backend)) == pytest.approx(y @ y)


def test_where(backend, rng):
    x, y = rng.normal(size=90), rng.normal(size=90)
    a, b = wrap(x, y, backend=backend)
    got = where(a > b, a, b)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got.get(), np.where(x > y, x, y))


def test_factories(backend):
    np.testing.assert_array_equal(linspace(0.0, 1.0, 11, backend=backend).get(),
                                  np.linspace(0.0, 1.0, 11))
    np.testing.assert_array_equal(linspace(2, 4, 4, endpoint=False, backend=backend).get(),
                                  np.linspace(2, 4, 4, endpoint=False))
    with pytest.raises(TypeError):
        linspace(0, 1, 2.5, backend=backend)
    with pytest.raises(ValueError):
        linspace(0, 1, 0, backend=backend)
    r = arange(2, 20, 3, backend=backend)  # Compyle's default dtype: int32
    assert r.dtype == np.int32
    np.testing.assert_array_equal(r.get(), np.arange(2, 20, 3))
    np.testing.assert_array_equal(arange(0, 10, 2, dtype=np.float32, backend=backend).get(),
                                  np.arange(0, 10, 2, dtype=np.float32))
    a = wrap(np.arange(5, dtype=np.uint16), backend=backend)
    o, z = ones_like(a), zeros_like(a)
    assert o.dtype == z.dtype == np.uint16 and o.backend == z.backend == backend
    np.testing.assert_array_equal(o.get(), np.ones(5, np.uint16))
    np.testing.assert_array_equal(z.get(), np.zeros(5, np.uint16))
    assert ones_like(a, backend="cython").backend == "cython"
    e = empty(7, np.float32, backend=backend)
    assert len(e) == 7 and e.dtype == np.float32


def test_sorting_and_align(backend, rng):
    keys = rng.integers(0, 30, 200).astype(np.int32)
    vals = rng.normal(size=200)
    k, v = wrap(keys, vals, backend=backend)  # wrap of several arrays: a list
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(argsort(k).get(), order)
    sk, sv = sort_by_keys([k, v], backend=backend)
    np.testing.assert_array_equal(sk.get(), keys[order])
    np.testing.assert_array_equal(sv.get(), vals[order])
    outs = [smelt.zeros(200, np.int32, backend), smelt.zeros(200, np.float64, backend)]
    got = sort_by_keys([k, v], out_list=outs, use_radix_sort=True)
    np.testing.assert_array_equal(outs[1].get(), vals[order])
    assert got[0] is outs[0]
    a1, a2 = align([v, k], wrap(order.astype(np.int64), backend=backend))
    np.testing.assert_array_equal(a1.get(), vals[order])
    np.testing.assert_array_equal(a2.get(), keys[order])
