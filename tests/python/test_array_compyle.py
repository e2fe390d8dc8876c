# smelt.Array used the way Compyle programs use compyle.array.Array (issue 14, item 1), on every
# backend, against NumPy arrays holding the same values.
import numpy as np
import pytest

import smelt
from smelt import Array, wrap


def test_element_access_and_negative_indices(backend):
    x = np.arange(10.0) * 1.5
    a = wrap(x.copy(), backend=backend)
    for i in (0, 3, 9, -1, -10, np.int64(4), np.int32(-2), np.uint8(7)):
        got = a[i]
        assert got == x[i] and type(got) is np.float64
    a[2] = 42
    a[-1] = np.float32(-3.5)
    a[np.int16(0)] = 7.0
    want = x.copy()
    want[2], want[-1], want[0] = 42, -3.5, 7.0
    np.testing.assert_array_equal(a.get(), want)
    for bad in (10, -11):
        with pytest.raises(IndexError):
            a[bad]
        with pytest.raises(IndexError):
            a[bad] = 1.0
    i = wrap(np.array([5, -7, 3], np.int32), backend=backend)
    assert i[1] == -7 and i[-1] == 3 and type(i[0]) is np.int32


def test_slices_are_arrays_and_views_on_the_cpu(backend):
    x = np.arange(12, dtype=np.int64)
    a = wrap(x.copy(), backend=backend)
    for key in (slice(2, 7), slice(None, -3), slice(-4, None), slice(1, 11, 3), slice(8, 2)):
        s = a[key]
        assert isinstance(s, Array) and s.backend == backend and s.dtype == np.int64
        np.testing.assert_array_equal(s.get(), x[key])
    view = a[3:6]
    if backend in ("cython", "python"):
        view[0] = 100  # shares the memory: Compyle's (NumPy's) slices are views
        assert a[3] == 100
    a[3:6] = [-1, -2, -3]
    a[:2] = 9
    x[3:6], x[:2] = [-1, -2, -3], 9
    np.testing.assert_array_equal(a.get(), x)
    a[::4] = 0
    x[::4] = 0
    np.testing.assert_array_equal(a.get(), x)
    np.testing.assert_array_equal(a.get_view(2, 3).get(), x[2:5])
    np.testing.assert_array_equal(a.get_array().get(), x)
    np.testing.assert_array_equal(a.get_buff(4), x[4:])
    np.testing.assert_array_equal(a.get_buff(1, 2), x[1:3])


def test_length_dtype_backend_and_str(backend):
    a = smelt.Array(np.int32, n=5, backend=backend)
    assert len(a) == a.length == 5 and a.dtype == np.int32 and a.backend == backend
    assert a.alloc >= 5
    assert len(smelt.Array(np.float64, allocate=False, backend=backend)) == 0
    a.set(np.arange(3, dtype=np.int32))
    assert str(a) == str(np.arange(3, dtype=np.int32))


def test_get_set_data(backend):
    a = wrap(np.arange(4.0), backend=backend)
    a.set(np.array([5.0, 6.0, 7.0]))  # a different length resizes, as Compyle's set
    assert len(a) == 3
    np.testing.assert_array_equal(a.get(), [5.0, 6.0, 7.0])
    np.testing.assert_array_equal(a.get_data(), [5.0, 6.0, 7.0])
    b = smelt.zeros(2, np.float64, backend)
    b.set_data(a)  # both use the same memory
    assert len(b) == 3
    b[0] = -1.0
    assert a[0] == -1.0
    y = np.array([1.0, 2.0])
    b.set_data(y)
    np.testing.assert_array_equal(b.get(), y)
    if backend in ("cython", "python"):
        assert b.data is y


def test_reserve_resize_append_extend_squeeze(backend):
    a = smelt.Array(np.int64, backend=backend)
    ref = []
    for v in range(40):
        a.append(v * v)
        ref.append(v * v)
    np.testing.assert_array_equal(a.get(), ref)
    a.extend(wrap(np.array([-1, -2], np.int64), backend=backend))
    a.extend(np.array([-3], np.int64))
    ref += [-1, -2, -3]
    np.testing.assert_array_equal(a.get(), ref)
    a.reserve(500)
    assert a.alloc >= 500 and len(a) == len(ref)
    np.testing.assert_array_equal(a.get(), ref)
    a.resize(10)
    np.testing.assert_array_equal(a.get(), ref[:10])
    a.resize(12)
    assert len(a) == 12
    np.testing.assert_array_equal(a.get()[:10], ref[:10])
    a.squeeze()
    assert a.alloc == len(a) == 12
    np.testing.assert_array_equal(a.get()[:10], ref[:10])


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
def test_remove(backend, dtype, rng):
    x = (rng.integers(0, 100, 300)).astype(dtype)
    a = wrap(x.copy(), backend=backend)
    gone = rng.choice(300, 40, replace=False).astype(np.int32)
    a.remove(wrap(gone, backend=backend))
    np.testing.assert_array_equal(a.get(), np.delete(x, gone))
    b = wrap(x.copy(), backend=backend)
    b.remove(np.array([0, 0, 299], np.int64))  # duplicates count once
    np.testing.assert_array_equal(b.get(), np.delete(x, [0, 299]))
    with pytest.raises(IndexError):
        b.remove(np.array([298], np.int64))


def test_align_copy_copy_values(backend, rng):
    x = rng.normal(size=50)
    a = wrap(x.copy(), backend=backend)
    idx = wrap(rng.integers(0, 50, 20).astype(np.int32), backend=backend)
    np.testing.assert_array_equal(a.align(idx).get(), x[idx.get()])
    out = smelt.zeros(20, np.float64, backend)
    assert a.align(idx, out=out) is out
    np.testing.assert_array_equal(out.get(), x[idx.get()])
    c = a.copy()
    c[0] = 1e9
    assert a[0] == x[0]
    dest = smelt.zeros(30, np.float64, backend)
    a.copy_values(idx, dest)
    want = np.zeros(30)
    want[:20] = x[idx.get()]
    np.testing.assert_array_equal(dest.get(), want)
    np.testing.assert_array_equal(a[idx].get(), x[idx.get()])  # an index Array: take


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint32])
def test_update_min_max_and_fill(backend, dtype, rng):
    x = (rng.normal(size=77) * 50).astype(dtype)
    a = wrap(x.copy(), backend=backend)
    assert a.minimum == 0 and a.maximum == 0
    a.update_min_max()
    assert a.minimum == x.min() and a.maximum == x.max()
    assert type(a.minimum) is np.dtype(dtype).type
    a.fill(3)
    np.testing.assert_array_equal(a.get(), np.full(77, 3, dtype))
    a.update_min_max(only_max=True)
    assert a.maximum == 3 and a.minimum == x.min()
    smelt.array.update_minmax_gpu([a])
    assert a.minimum == 3


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.float32])
def test_comparisons_are_compyle_int32_masks(backend, dtype, rng):
    x = (rng.normal(size=64) * 10).astype(dtype)
    y = (rng.normal(size=64) * 10).astype(dtype)
    a, b = wrap(x, y, backend=backend)
    for got, want in [(a > 0, x > 0), (a <= b, x <= y), (a == x[5], x == x[5]),
                      (a != b, x != y), (a < np.float32(1.5), x < np.float32(1.5))]:
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got.get(), want.astype(np.int32))
    np.testing.assert_array_equal(a[a > 0].get(), x[x > 0])  # a mask selects (take_bool)
    np.testing.assert_array_equal((a + b - 1).get(), x + y - 1)
    np.testing.assert_array_equal((10 - a).get(), 10 - x)


def test_wrap_moves_arrays_to_the_requested_backend(backend):
    x = np.arange(6.0)
    a = wrap(x, backend="cython")
    b = wrap(a, backend=backend)
    assert b.backend == backend
    np.testing.assert_array_equal(b.get(), x)
    with smelt.use_config(backend=backend):
        c = wrap(a)  # the config's backend
    assert c.backend == backend
    assert wrap(b, backend=backend) is b
    back = wrap(b, backend="cython")
    assert back.backend == "cython"
    np.testing.assert_array_equal(back.get(), x)


def test_wrap_gives_gpus_float32_without_use_double(gpu):
    x = np.linspace(0, 1, 7)
    with smelt.use_config(use_double=False):
        a = wrap(x, backend=gpu)
        b = wrap(x, backend="cython")  # the CPU keeps the memory it is given
    assert a.dtype == np.float32 and a.data is not x
    np.testing.assert_array_equal(a.get(), x.astype(np.float32))
    assert b.dtype == np.float64 and b.data is x
    assert wrap(x, backend=gpu).dtype == np.float64  # use_double on: unchanged
