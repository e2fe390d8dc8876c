# The examples of Compyle's documentation (/work/shared/seeds: compyle-overview, compyle-using, the
# SciPy 2020 paper) run as written with `compyle` changed to `smelt` in the imports; each file in
# compyle_examples/ says where it comes from. Results are checked against NumPy.
import os
import runpy

import numpy as np
import pytest

import smelt

HERE = os.path.join(os.path.dirname(__file__), "compyle_examples")


def run(name, backend=None):
    init = {} if backend is None else {"backend": backend}
    return runpy.run_path(os.path.join(HERE, name + ".py"), init_globals=init)


def test_overview_axpb():
    ns = run("overview_axpb")  # backend = 'cython' in the example itself
    x = np.linspace(0, 1, 10000)
    np.testing.assert_allclose(ns["y"].data, 2.0 * np.sin(x) + 3.0, rtol=1e-15)
    assert "axpb" in ns["e"].source


def test_using_elementwise():
    ns = run("using_elementwise")
    np.testing.assert_allclose(ns["y"], ns["a"] * np.sin(ns["x"]) + ns["b"], rtol=1e-15)


def test_reduction_sum(backend):
    ns = run("using_reduction_sum", backend)
    assert ns["result"] == pytest.approx(np.sum(np.linspace(0, 1, 1000) / 1000), rel=1e-13)


def test_reduction_min(backend):
    ns = run("using_reduction_min", backend)
    assert ns["result"] == 0.0


def test_reduction_map(backend):
    ns = run("using_reduction_map", backend)
    x = np.linspace(0, 1, 1000) / 1000
    assert ns["result"] == pytest.approx(np.sum(np.cos(x) * np.sin(x)), rel=1e-13)


def test_scan_cumulative_sum(backend):
    ns = run("using_scan_cumsum", backend)
    np.testing.assert_array_equal(ns["ary"].data, np.cumsum(np.arange(10000)).astype(np.int32))


def test_scan_unique(backend):
    np.random.seed(7)
    ns = run("using_scan_unique", backend)
    ary = ns["ary"].data
    keep = np.concatenate([[True], ary[1:] != ary[:-1]])
    np.testing.assert_array_equal(ns["unique_ary"], ary[keep])
    assert ns["unique_count"] == keep.sum()


def test_paper_where(backend):
    np.random.seed(11)
    ns = run("paper_where", backend)
    ary = ns["ary"].data
    np.testing.assert_array_equal(ns["res"], ary[ary < 50])


def test_paper_energy(backend):
    np.random.seed(3)
    ns = run("paper_energy", backend)
    vx, vy, pe = (ns[k].data for k in ("vx", "vy", "pe"))
    assert ns["total_energy"] == pytest.approx(np.sum(pe + 0.5 * (vx * vx + vy * vy)), rel=1e-12)


def _needs_opencl():
    # The examples set use_opencl; Kernel runs work groups, which exist only on OpenCL/CUDA (on
    # the CPU it raises BackendUnavailableError: see test_low_level.py).
    if not smelt.backend_available("opencl"):
        pytest.skip("the low-level examples need the opencl backend, which is not available here")


def test_low_level_kernel():
    _needs_opencl()
    ns = run("low_level_kernel")
    assert ns["k"].backend == "opencl"
    ns["y"].pull()
    np.testing.assert_allclose(ns["y"].data, 2.0 * np.sin(np.linspace(0, 1, 10000)) + 3.0,
                               rtol=1e-14)


def test_low_level_kernel_with_local_memory():
    _needs_opencl()
    ns = run("low_level_localmem")
    assert "f" in ns["k"].source and ns["xl"].size == 1
    np.testing.assert_array_equal(ns["x"].get(), np.linspace(0, 1, 10000))
