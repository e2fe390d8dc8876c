# smelt.Array and the array functions against NumPy: wrapping without copies, the Compyle
# attributes and methods, factories, comparisons and arithmetic, reductions, cumsum, take, where,
# argsort, sort_by_keys and align, on every backend.
import numpy as np
import pytest

import smelt
from smelt import Array, wrap

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float32, np.float64]


def values(rng, n, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return (rng.normal(size=n) * 100).astype(dt)
    lo = 0 if dt.kind == "u" else -100
    return rng.integers(lo, 100, n).astype(dt)


def test_wrap_shares_memory_and_keeps_identity(backend):
    x = np.arange(5.0)
    a = wrap(x, backend=backend)
    assert isinstance(a, Array) and a.data is x and a.dtype == np.float64 and len(a) == 5
    assert a.backend == backend and a.n == 5
    b, c = wrap(x, np.zeros(3, np.int32), backend=backend)
    assert b.data is x and c.dtype == np.int32
    assert wrap(a, backend=backend) is a
    if backend in ("cython", "python"):
        assert a.dev is x  # the CPU: no copy; .dev is the NumPy memory itself, as in Compyle
        x[2] = 42.0
        assert a.dev[2] == 42.0 and list(a.dev[1:3]) == [1.0, 42.0]
    else:  # a GPU: the NumPy array is the host copy, sent by push() and filled by pull()
        assert not a.dev.host_addressable
        x[2] = 42.0
        a.push()
        x[2] = 0.0
        a.pull()
        assert x[2] == 42.0


def test_wrap_rejects_what_it_cannot_alias():
    with pytest.raises(TypeError, match="contiguous"):
        wrap(np.zeros(10)[::2])
    with pytest.raises(TypeError, match="one-dimensional"):
        wrap(np.zeros((2, 3)))
    with pytest.raises(TypeError, match="not supported"):
        wrap(np.zeros(3, np.complex128))
    with pytest.raises(TypeError, match="NumPy"):
        wrap([1.0, 2.0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_factories_match_numpy(backend, dtype):
    np.testing.assert_array_equal(smelt.zeros(7, dtype, backend).get(), np.zeros(7, dtype))
    np.testing.assert_array_equal(smelt.ones(7, dtype, backend).get(), np.ones(7, dtype))
    np.testing.assert_array_equal(smelt.arange(0, 20, 3, dtype=dtype, backend=backend).get(),
                                  np.arange(0, 20, 3, dtype=dtype))
    np.testing.assert_array_equal(smelt.linspace(0, 90, 13, dtype, backend).get(),
                                  np.floor(np.linspace(0, 90, 13)).astype(dtype)
                                  if np.dtype(dtype).kind != "f" else np.linspace(0, 90, 13, dtype=dtype))
    assert len(smelt.empty(9, dtype, backend)) == 9
    assert smelt.arange(5, backend=backend).dtype == np.int32  # Compyle's default
    np.testing.assert_array_equal(smelt.arange(5, backend=backend).get(), np.arange(5))


def test_methods(backend):
    a = smelt.arange(0, 10, 1, dtype=np.float64, backend=backend)
    b = a.copy()
    b.data[0] = 100.0
    assert a.data[0] == 0.0
    np.testing.assert_array_equal(a.get(), np.arange(10.0))
    a.set(np.arange(10.0) * 2)
    np.testing.assert_array_equal(a.data, np.arange(10.0) * 2)
    a.resize(4)
    np.testing.assert_array_equal(a.data, [0, 2, 4, 6])
    a.resize(6)
    assert len(a) == 6 and len(a.data) == 6
    np.testing.assert_array_equal(a.data[:4], [0, 2, 4, 6])
    a.fill(1.5)
    np.testing.assert_array_equal(np.asarray(a), np.full(6, 1.5))
    idx = wrap(np.array([5, 0, 2], np.int64), backend=backend)
    a.set(np.arange(6.0))
    np.testing.assert_array_equal(a.align(idx).get(), [5, 0, 2])
    assert a.empty_like().dtype == a.dtype and len(a.zeros_like()) == 6
    x = np.arange(5.0)
    w = wrap(x, backend=backend)
    w.resize(9)  # grows: moves into its own memory
    assert not np.shares_memory(w.data, x) and np.array_equal(w.data[:5], x)


def test_bool_arrays(backend):
    m = np.array([True, False, True, True])
    a = wrap(m, backend=backend)
    assert a.dtype == np.bool_ and a.data is m
    assert smelt.sum(a) == 3 and smelt.cumsum(a).get().tolist() == [1, 1, 2, 3]


@pytest.mark.parametrize("dtype", [np.int32, np.uint16, np.float32, np.float64])
def test_comparisons_and_arithmetic(backend, dtype, rng):
    x = values(rng, 200, dtype)
    y = values(rng, 200, dtype)
    a, b = wrap(x, y, backend=backend)
    for got, want in [(a < b, x < y), (a <= b, x <= y), (a > b, x > y), (a >= b, x >= y),
                      (a == b, x == y), (a != b, x != y), (a < 10, x < 10), (a > 2.5, x > 2.5),
                      (a == x[3], x == x[3]), (5 > a, 5 > x)]:
        assert got.dtype == np.int32  # Compyle's comparisons give int32 0/1
        np.testing.assert_array_equal(got.get(), want)
    for got, want in [(a + b, x + y), (a - b, x - y), (a * b, x * y), (a + 3, x + 3),
                      (2 * a, 2 * x)]:
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose((a / 4).get(), x / 4, rtol=1e-6)
        np.testing.assert_allclose((-a).get(), -x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions_match_numpy(backend, dtype, rng):
    x = values(rng, 1001, dtype)
    a = wrap(x, backend=backend)
    assert smelt.minimum(a) == x.min() and smelt.maximum(a) == x.max()
    s = smelt.sum(a)
    if np.dtype(dtype).kind == "f":
        assert s == pytest.approx(x.sum(dtype=np.float64), rel=1e-4)
    else:
        assert s == x.sum() and type(s) is type(x.sum())
    y = values(rng, 1001, dtype)
    d = smelt.dot(a, wrap(y, backend=backend))
    if np.dtype(dtype).kind == "f":
        assert d == pytest.approx(np.dot(x.astype(np.float64), y), rel=1e-4)
    else:
        assert d == np.dot(x, y)


def test_reductions_of_empty_arrays(backend):
    a = smelt.zeros(0, np.float64, backend)
    assert smelt.minimum(a) == np.inf and smelt.maximum(a) == -np.inf and smelt.sum(a) == 0
    assert smelt.minimum(smelt.zeros(0, np.int32, backend)) == np.iinfo(np.int32).max
    assert smelt.maximum(smelt.zeros(0, np.int64, backend)) == np.iinfo(np.int64).min


def test_factories_reject_bad_lengths_like_numpy():
    # NumPy's rule for a shape: an integer (operator.index), not negative; one clear error.
    for make in (smelt.zeros, smelt.empty, smelt.ones):
        with pytest.raises(ValueError, match=r"smelt\.\w+: the length must not be negative, not -1"):
            make(-1)
        with pytest.raises(TypeError, match="the length must be an integer, not float 2.5"):
            make(2.5)
    with pytest.raises(ValueError, match="must not be negative"):
        smelt.full(-3, 1.0)
    assert len(smelt.zeros(np.int64(3))) == 3


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float64])
def test_cumsum(backend, dtype, rng):
    x = values(rng, 517, dtype)
    out = smelt.cumsum(wrap(x, backend=backend))
    np.testing.assert_allclose(out.get(), np.cumsum(x), rtol=1e-12)
    assert out.dtype == np.cumsum(x).dtype
    given = smelt.zeros(517, out.dtype, backend)
    assert smelt.cumsum(x, out=given) is given
    np.testing.assert_allclose(given.get(), np.cumsum(x), rtol=1e-12)


def test_take_where_argsort_sort_by_keys_align(backend, rng):
    x = rng.normal(size=300)
    idx = rng.integers(0, 300, 50).astype(np.int64)
    a = wrap(x, backend=backend)
    np.testing.assert_array_equal(smelt.take(a, idx).get(), x[idx])
    out = smelt.zeros(50, np.float64, backend)
    assert smelt.take(a, wrap(idx, backend=backend), out=out) is out
    np.testing.assert_array_equal(out.get(), x[idx])
    with pytest.raises(smelt.UsageError):
        smelt.take(a, np.array([300], np.int64))

    cond = x > 0
    np.testing.assert_array_equal(smelt.where(cond, x, -x).get(), np.abs(x))
    np.testing.assert_array_equal(smelt.where(a > 0, a, 0.0).get(), np.where(x > 0, x, 0.0))

    keys = rng.integers(0, 20, 300).astype(np.int32)
    order = smelt.argsort(keys, backend=backend)
    np.testing.assert_array_equal(order.get(), np.argsort(keys, kind="stable"))
    k2, v2 = smelt.sort_by_keys([wrap(keys, backend=backend), a])
    np.testing.assert_array_equal(k2.get(), np.sort(keys, kind="stable"))
    np.testing.assert_array_equal(v2.get(), x[np.argsort(keys, kind="stable")])
    y1, y2 = smelt.align([a, wrap(keys, backend=backend)], order)
    np.testing.assert_array_equal(y1.get(), x[order.get()])
    np.testing.assert_array_equal(y2.get(), keys[order.get()])


def test_numpy_inputs_join_the_backend_of_the_arrays(backend, rng):
    # Array functions given NumPy arrays next to smelt Arrays wrap them on the Arrays' backend,
    # not on the config's default (on OpenCL, a CPU-side helper array made these calls fail with
    # "an array of another backend"). The results live on that backend too.
    assert smelt.get_backend() == "cython"  # the default differs from most `backend`s
    x = rng.normal(size=64)
    idx = rng.integers(0, 64, 10).astype(np.int64)
    a = wrap(x.copy(), backend=backend)

    out = smelt.zeros(64, np.float64, backend)
    assert smelt.cumsum(x, out=out) is out
    np.testing.assert_allclose(out.get(), np.cumsum(x), rtol=1e-12)

    taken = smelt.take(a, idx)
    assert taken.backend == backend
    np.testing.assert_array_equal(taken.get(), x[idx])
    out10 = smelt.zeros(10, np.float64, backend)
    assert smelt.take(x, idx, out=out10) is out10
    np.testing.assert_array_equal(out10.get(), x[idx])

    assert smelt.dot(x, a) == pytest.approx(np.dot(x, x), rel=1e-12)
    chosen = smelt.where(x > 0, a, -x)
    assert chosen.backend == backend
    np.testing.assert_array_equal(chosen.get(), np.abs(x))

    keys = rng.integers(0, 5, 64).astype(np.int32)
    k2, v2 = smelt.sort_by_keys([keys, a])
    assert k2.backend == v2.backend == backend
    np.testing.assert_array_equal(v2.get(), x[np.argsort(keys, kind="stable")])
    order = smelt.argsort(a)
    (y,) = smelt.align([x], order)
    assert y.backend == backend
    np.testing.assert_array_equal(y.get(), np.sort(x))
