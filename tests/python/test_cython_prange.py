# Compyle's low_level.Cython with prange/parallel/nogil (issue 14, item 5), compiled by the engine to
# its CPU backend (OpenMP) instead of by Cython; checked against the same function run by CPython
# (where prange is range) and against NumPy.
import numpy as np
import pytest

import smelt
from smelt import annotate, declare, use_config
from smelt.low_level import Cython, nogil, parallel, prange


@annotate(n="int", doublep="x, y", a="double")
def cy_ex(x, y, a, n):
    i = declare("int")
    with nogil, parallel():
        for i in prange(n):
            y[i] = x[i] * a


@annotate(doublep="x, y", int="start, stop, step")
def strided(x, y, start, stop, step):
    """Docstrings are fine."""
    j, k = declare("int", 2)
    with nogil:
        for j in prange(start, stop, step, schedule="dynamic"):
            k = j * 2
            y[j] = x[j] + k


@annotate(doublep="x, out", n="int")
def serial_sum(x, out, n):
    s = 0.0
    for k in range(n):
        s += x[k]
    out[0] = s


def returns_early(x, n):
    for i in prange(n):
        return


def test_documentation_example():
    n = 1000
    x = np.linspace(0, 1, n)
    y = np.zeros_like(x)
    for openmp in (True, False):
        with use_config(use_openmp=openmp):
            cy = Cython(cy_ex)
            cy(x, y, 2.0, n)
        np.testing.assert_allclose(y, 2.0 * x, rtol=0, atol=0)
        y[:] = 0
    assert "cy_ex" in cy.source


@pytest.mark.parametrize("start, stop, step", [(0, 50, 1), (3, 47, 5), (10, 10, 1), (2, 50, 7)])
def test_prange_with_start_stop_step_matches_cpython(start, stop, step):
    x = np.arange(50.0)
    y, want = np.zeros(50), np.zeros(50)
    Cython(strided)(x, y, start, stop, step)
    strided(x, want, start, stop, step)  # CPython: prange is range
    np.testing.assert_array_equal(y, want)


def test_serial_function_runs_once():
    x = np.arange(10.0)
    out = np.zeros(1)
    Cython(serial_sum)(x, out, 10)
    assert out[0] == 45.0


def test_unsupported_forms_are_located_errors():
    with pytest.raises(smelt.UsageError, match=r"test_cython_prange.py:\d+: .*return"):
        Cython(returns_early)
    assert list(prange(2, 8, 3)) == [2, 5] and isinstance(nogil, object)
    with nogil, parallel():
        pass
