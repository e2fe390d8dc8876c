# Config (get_config / use_config / backend choice) and profiling.
import io

import numpy as np
import pytest

import smelt
from smelt import Elementwise, Reduction, get_config, use_config


def double_it(i, x):
    x[i] = 2 * x[i]


def test_defaults_and_use_config_restores():
    cfg = get_config()
    assert cfg.use_openmp is True and cfg.use_double is True and cfg.profile is False
    assert smelt.get_backend() == "cython"
    with use_config(use_openmp=False, profile=True) as inner:
        assert get_config() is inner and inner.use_openmp is False and inner.profile is True
        with use_config(backend="python"):
            assert smelt.get_backend() == "python"
        assert smelt.get_backend() == "cython"
    assert get_config() is cfg and cfg.use_openmp is True and cfg.profile is False
    with pytest.raises(AttributeError):
        cfg.no_such_option = 1
    with pytest.raises(ValueError):
        cfg.backend = "fortran"


def test_backend_from_config():
    with use_config(use_cuda=True):
        assert smelt.get_backend() == "cuda"
    with use_config(use_opencl=True):
        assert smelt.get_backend() == "opencl"
    with use_config(backend="python"):
        e = Elementwise(double_it)
        assert e.backend == "python" and e._impl is None
        x = np.arange(4.0)
        e(x)
        np.testing.assert_array_equal(x, [0, 2, 4, 6])
    assert smelt.config.engine_backend("openmp") == "cpu"
    assert smelt.config.engine_backend("serial") == "cpu:serial"
    with use_config(use_openmp=False):
        assert smelt.config.engine_backend("cython") == "cpu:serial"
        assert smelt.config.engine_backend("openmp") == "cpu"
    assert "cython" in smelt.available_backends() and "python" in smelt.available_backends()


def test_single_precision_switch():
    with use_config(use_double=False):
        r = Reduction("a+b")
        x = np.full(10, 0.1, np.float32)
        s = r(x)
        assert type(s) is np.float32 and s == pytest.approx(1.0, rel=1e-6)
        e = Elementwise(double_it)
        y = np.ones(3, np.float32)
        e(y)
        np.testing.assert_array_equal(y, [2, 2, 2])
        with pytest.raises(smelt.UsageError):
            e(np.zeros(3))  # float64 arrays do not fit a single-precision kernel


def test_profile_counts_calls_and_times(backend):
    x = np.ones(100)
    e = Elementwise(double_it, backend=backend)
    r = Reduction("a+b", backend=backend)
    e(x)  # not profiled
    with use_config(profile=True):
        for _ in range(3):
            e(x)
        total = r(x)
        smelt.sum(smelt.wrap(x, backend=backend))
    info = smelt.get_profile_info()[0]  # Compyle's shape: {level: {name: ...}}
    assert info["Elementwise(double_it)"]["calls"] == 3
    assert info["Reduction(a+b)"]["calls"] == 2  # r and smelt.sum
    assert all(v["time"] > 0 for v in info.values())
    assert total == 1600.0
    out = io.StringIO()
    smelt.print_profile(file=out)
    text = out.getvalue()
    assert "Elementwise(double_it)" in text and "Total profiled time" in text
    smelt.reset_profile()
    assert smelt.get_profile_info() == {}


def test_profile_ctx_and_decorator():
    with use_config(profile=True):
        with smelt.profile_ctx("block"):
            pass

        @smelt.profile
        def work():
            return 3

        assert work() == 3
    info = smelt.get_profile_info()[0]
    assert info["block"]["calls"] == 1 and info["test_profile_ctx_and_decorator.<locals>.work"]["calls"] == 1
