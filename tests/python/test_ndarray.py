# Multi-dimensional NumPy arrays as kernel arguments (docs/LANGUAGE.md, "Multi-dimensional
# arrays"): a C-contiguous array of rank >= 2 is indexed x[i, j] (or x[i][j]), with x.shape[k] and
# len(x) as compile-time integers, each shape its own specialisation. Checked against NumPy and
# against CPython running the same function (backend='python').
import numpy as np
import pytest

import smelt
from smelt import Elementwise, Kernel, Reduction, annotate
from smelt.low_level import GID_0, LDIM_0, LID_0


def matvec(i, a, x, y):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j] * x[j]
    y[i] = s


def transpose(i, a, b):
    for j in range(len(b)):
        b[j, i] = a[i][j]


def plane_sums(i, t, out):
    s = 0
    for j in range(t.shape[1]):
        for k in range(t.shape[2]):
            s += t[i, j, k] * (j - k)
    out[i] = s


def scale_row(m, r, c):
    for j in range(m.shape[1]):
        m[r, j] = m[r, j] * c


def scale_rows(i, a, f):
    scale_row(a, i, f[i])


def row_norm2(i, a):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j] * a[i, j]
    return s


def gid_row_sums(a, y):
    i = GID_0 * LDIM_0 + LID_0
    if i < a.shape[0]:
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j]
        y[i] = s


def one_index(i, a, y):
    y[i] = a[i]


@annotate(x='doublep', y='doublep')
def flat_affine(i, x, y):
    y[i] = 2.0 * x[i] + 1.0


def test_matvec_matches_numpy(backend, rng):
    a = rng.integers(-9, 10, (37, 19)).astype(np.float64)
    x = rng.integers(-9, 10, 19).astype(np.float64)
    y = np.zeros(37)
    Elementwise(matvec, backend=backend)(a, x, y)  # n = len(a)
    np.testing.assert_array_equal(y, a @ x)


def test_each_shape_is_compiled_for_itself(compiled_backend, rng):
    e = Elementwise(matvec, backend=compiled_backend)
    for rows, cols in [(6, 4), (4, 6), (6, 4), (1, 24)]:
        a = rng.integers(-9, 10, (rows, cols)).astype(np.float64)
        x = rng.integers(-9, 10, cols).astype(np.float64)
        y = np.zeros(rows)
        e(a, x, y)
        np.testing.assert_array_equal(y, a @ x)
        # The extents are constants of the generated code.
        assert " * %d" % cols in e.source, e.source


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.int64])
def test_transpose(backend, dtype, rng):
    a = rng.integers(-100, 100, (5, 8)).astype(dtype)
    b = np.zeros((8, 5), dtype)
    Elementwise(transpose, backend=backend)(a, b)
    np.testing.assert_array_equal(b, a.T)


def test_rank_three_against_numpy_and_cpython(backend, rng):
    t = rng.integers(-9, 10, (4, 3, 5)).astype(np.int64)
    out = np.zeros(4, np.int64)
    Elementwise(plane_sums, backend=backend)(t, out)
    j = np.arange(3)[:, None]
    k = np.arange(5)[None, :]
    np.testing.assert_array_equal(out, (t * (j - k)).sum(axis=(1, 2)))
    want = np.zeros(4, np.int64)
    for i in range(4):
        plane_sums(i, t, want)
    np.testing.assert_array_equal(out, want)


def test_helpers_take_the_matrix_in_place(backend, rng):
    a = rng.integers(-9, 10, (7, 3)).astype(np.float64)
    f = rng.integers(-3, 4, 7).astype(np.float64)
    want = a * f[:, None]
    Elementwise(scale_rows, backend=backend)(a, f)
    np.testing.assert_array_equal(a, want)


def test_reduction_maps_over_rows(backend, rng):
    a = rng.integers(-9, 10, (300, 7)).astype(np.float64)
    got = Reduction("a+b", map_func=row_norm2, backend=backend)(a)
    assert got == (a * a).sum()


def test_low_level_kernel(gpu, rng):
    a = rng.integers(-9, 10, (50, 6)).astype(np.float64)
    y = np.zeros(50)
    Kernel(gid_row_sums, backend=gpu)(a, y, global_size=50, local_size=32)
    np.testing.assert_array_equal(y, a.sum(axis=1))
    # Without global_size: the first array's len(), its rows, for a reshaped smelt Array too.
    A, Y = smelt.wrap(a.ravel().copy(), np.zeros(50), backend=gpu)
    k = Kernel(gid_row_sums, backend=gpu)
    assert k._geometry((A.reshape(50, 6), Y), None, None) == (50, 2)
    assert k._geometry((a, y), None, None) == (50, 2)
    k(A.reshape(50, 6), Y)
    np.testing.assert_array_equal(Y.get(), a.sum(axis=1))


def test_annotated_pointer_parameters_take_the_flat_elements(compiled_backend, rng):
    x = rng.random((2, 3))
    y = np.zeros(6)
    Elementwise(flat_affine, backend=compiled_backend).call_n(6, x, y)
    np.testing.assert_array_equal(y, 2.0 * x.ravel() + 1.0)


def test_non_contiguous_arrays_are_refused(compiled_backend):
    a = np.zeros((4, 6))[:, ::2]
    with pytest.raises(TypeError, match="C-contiguous.*ascontiguousarray"):
        Elementwise(matvec, backend=compiled_backend)(a, np.zeros(3), np.zeros(4))


def test_too_few_indices_is_a_located_error(compiled_backend):
    with pytest.raises(smelt.CompileError) as info:
        Elementwise(one_index, backend=compiled_backend)(np.zeros((3, 2)), np.zeros(3))
    e = info.value
    assert e.filename.endswith("test_ndarray.py") and e.text == "    y[i] = a[i]"
    assert e.offset == e.text.index("a[i]") + 1
    assert "%s:%d:%d: error: 'a' has 2 dimensions but 1 index was given" % (
        e.filename, e.lineno, e.offset) in str(e)
    assert "\n" + " " * (e.offset - 1) + "^" in str(e)


def test_smelt_arrays_reshaped_for_kernels(backend, rng):
    a = rng.integers(-9, 10, (6, 4)).astype(np.float64)
    A = smelt.wrap(a.ravel().copy(), backend=backend)
    x = rng.integers(-9, 10, 4).astype(np.float64)
    y = np.zeros(6)
    M = A.reshape(6, 4)
    assert M.shape == (6, 4) and A.shape == (24,) and len(M) == 24
    Elementwise(matvec, backend=backend)(M, x, y)
    np.testing.assert_array_equal(y, a @ x)
    with pytest.raises(smelt.UsageError, match="cannot have the shape"):
        A.reshape(5, 5)
