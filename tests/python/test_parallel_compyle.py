# Compyle's parallel primitives as Compyle programs use them (issue 14, item 3): a Scan over an
# input array instead of an input function, Compyle's keyword names and argument order, primitives
# whose backend follows the config or changes by set_backend, and their Compyle attributes.
import numpy as np
import pytest

import smelt
from smelt import Elementwise, Reduction, Scan, annotate, get_config, wrap


@annotate(int='i, last_item, item', ary='intp')
def add_last(i, last_item, item, ary):
    ary[i] = item + last_item


def store(i, item, out):
    out[i] = item


def twice(i, x, y):
    y[i] = 2 * x[i]


def square(i, x):
    return x[i] * x[i]


def segment_start(i, flags):
    return flags[i] == 1


def test_scan_of_an_input_array(backend, rng):
    x = rng.integers(0, 100, 5000).astype(np.int32)
    want = np.cumsum(x) + np.cumsum(x)[-1]
    a = wrap(x.copy(), backend=backend)
    scan = Scan(output=add_last, scan_expr="a+b", dtype=np.int32, backend=backend)
    scan(input=a, ary=a)  # the output overwrites the array scanned
    np.testing.assert_array_equal(a.get(), want)


def test_scan_input_names_an_array_argument(backend, rng):
    x = rng.normal(size=300)
    out = np.zeros(300)
    Scan(input="vals", output=store, scan_expr="max(a, b)", neutral="-INFINITY",
         backend=backend)(vals=x, out=out)
    np.testing.assert_array_equal(out, np.maximum.accumulate(x))
    assert "smelt_scan_input_vals" in smelt.kernel_text(
        Scan(input="vals", output=store, backend=backend))


def test_scan_keywords_in_compyle_order(backend, rng):
    x = rng.integers(0, 10, 64).astype(np.int64)
    flags = np.zeros(64, np.int64)
    flags[[0, 10, 40]] = 1
    out = np.zeros(64, np.int64)
    # Compyle's positional order: input, output, scan_expr, is_segment, dtype, neutral
    scan = Scan(None, store, "a+b", segment_start, np.int64, "0", backend=backend)
    scan(input=x, out=out, flags=flags)
    want = np.concatenate([np.cumsum(x[s:e]) for s, e in ((0, 10), (10, 40), (40, 64))])
    np.testing.assert_array_equal(out, want)


def test_primitives_follow_the_config_at_call_time(backend):
    x = np.arange(8.0)
    y = np.zeros(8)
    e = Elementwise(twice)
    r = Reduction("a+b", map_func=square)
    s = Scan(output=store, dtype=np.float64)
    assert e.backend == r.backend == s.backend == "cython"
    with smelt.use_config(backend=backend):
        e(x, y)
        assert e.backend == backend
        assert r(x) == pytest.approx(np.sum(x * x)) and r.backend == backend
        out = np.zeros(8)
        s(input=x, out=out)
        assert s.backend == backend
    np.testing.assert_array_equal(y, 2 * x)
    np.testing.assert_array_equal(out, np.cumsum(x))
    e(x, y)
    assert e.backend == "cython"
    get_config().use_opencl = True  # Compyle's way; the primitive follows on its next call
    if smelt.backend_available("opencl"):
        e(x, y)
        assert e.backend == "opencl"


def test_set_backend_and_compyle_attributes(backend):
    x = np.arange(5.0)
    y = np.zeros(5)
    e = Elementwise(twice, backend="cython")
    e.set_backend(backend)
    assert e.backend == backend
    e(x, y)
    np.testing.assert_array_equal(y, 2 * x)
    with smelt.use_config(backend="python"):
        e(x, y)
        assert e.backend == backend  # an explicit backend does not follow the config
    e.set_backend(None)
    assert e.backend == "cython"
    r = Reduction("a+b", backend=backend)
    s = Scan(output=store, backend=backend)
    assert e.elementwise is e and r.reduction is r and s.scan is s
    r.set_backend("python")
    assert r(x) == 10.0 and r.backend == "python"


@smelt.parallel.serial
def plus_one(v):
    return v + 1.0


def uses_serial_helper(i, x, y):
    y[i] = plus_one(x[i])


def test_serial_marker(backend):
    assert plus_one.is_serial
    x = np.arange(4.0)
    y = np.zeros(4)
    Elementwise(uses_serial_helper, backend=backend)(x, y)
    np.testing.assert_array_equal(y, x + 1)
