"""The engine's loop-parallel functions (_smelt.LoopFunction, ParPy's model) against the same
functions run by CPython on NumPy arrays, with parpy.label a no-op and parpy's reductions
NumPy's (tests/primitives/loop_kernels.py). smelt.parpy builds its API on this binding."""
import os
import types

import numpy as np
import pytest

import smelt
from smelt import _smelt

KERNELS = os.path.join(os.path.dirname(__file__), "..", "primitives", "loop_kernels.py")
ENGINE_NAME = {"cython": "cpu", "opencl": "opencl", "cuda": "cuda"}


def cpython_functions():
    """The kernel file's functions in CPython: parpy's operators as NumPy's."""
    fake = types.SimpleNamespace(label=lambda name: None, sum=np.sum, prod=np.prod, min=np.min,
                                 max=np.max, float64=float, int32=lambda v: int(np.int32(v)))
    text = open(KERNELS).read().replace("import smelt.parpy as parpy", "")
    namespace = {"parpy": fake}
    exec(compile(text, KERNELS, "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def program():
    return _smelt.Program.from_file(KERNELS)


def run_both(program, backend, name, spec, args):
    """Runs `name` on the engine and in CPython on copies of `args`; returns both."""
    engine_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    f = _smelt.LoopFunction(program, name, spec, backend=ENGINE_NAME[backend])
    f(engine_args)
    oracle_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    cpython_functions()[name](*oracle_args)
    return engine_args, oracle_args


def test_axpy(program, compiled_backend, rng):
    n = 513
    x, y = rng.random(n), rng.random(n)
    got, want = run_both(program, compiled_backend, "axpy", {"N": (0, False, 0)},
                         [1.5, x, y, np.zeros(n), n])
    np.testing.assert_array_equal(got[3], want[3])


def test_row_sums_and_softmax(program, compiled_backend, rng):
    rows, cols = 7, 200
    x = rng.standard_normal(rows * cols)
    spec = {"N": (0, False, 0), "M": (128, True, 0)}
    got, want = run_both(program, compiled_backend, "row_sums", spec,
                         [x, np.zeros(rows), rows, cols])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)
    got, want = run_both(program, compiled_backend, "row_range",
                         {"N": (0, False, 0), "M": (64, False, 0)}, [x, np.zeros(rows), rows, cols])
    np.testing.assert_array_equal(got[1], want[1])
    got, want = run_both(program, compiled_backend, "row_softmax", spec,
                         [x, np.zeros(rows * cols), rows, cols])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12)


def test_matmul_spmv_and_sums(program, compiled_backend, rng):
    N, K, M = 5, 6, 7
    a, b = rng.random(N * K), rng.random(K * M)
    got, want = run_both(program, compiled_backend, "matmul",
                         {"N": (0, False, 0), "M": (0, False, 0)}, [a, b, np.zeros(N * M), N, K, M])
    np.testing.assert_array_equal(got[2], want[2])
    rows = np.array([0, 2, 2, 5], dtype=np.int64)
    cols = np.array([0, 2, 0, 1, 2], dtype=np.int64)
    vals = rng.random(5)
    x = rng.random(3)
    got, want = run_both(program, compiled_backend, "spmv", {"N": (0, False, 0)},
                         [rows, cols, vals, x, np.zeros(3), 3])
    np.testing.assert_array_equal(got[4], want[4])
    ints = rng.integers(-50, 50, 10000).astype(np.float64)
    got, want = run_both(program, compiled_backend, "total", {"N": (0, True, 0)},
                         [ints, np.zeros(1), ints.size])
    assert got[1][0] == want[1][0]
    got, want = run_both(program, compiled_backend, "extremes", {"R": (0, True, 0)},
                         [rng.standard_normal(300), np.zeros(3)])
    np.testing.assert_array_equal(got[1], want[1])


def test_source_and_errors(program, tmp_path):
    f = _smelt.LoopFunction(program, "axpy", {"N": (0, False, 0)}, backend="cpu")
    text = f.source([2.0, np.zeros(4), np.zeros(4), np.zeros(4), 4])
    assert "omp parallel for" in text
    g = _smelt.LoopFunction(program, "axpy", {}, backend="cpu")
    with pytest.raises(smelt.CompileError, match="nothing in 'axpy' runs in parallel"):
        g([2.0, np.zeros(4), np.zeros(4), np.zeros(4), 4])


def test_two_dimensional(compiled_backend, rng):
    path = os.path.join(os.path.dirname(KERNELS), "loop_kernels_2d.py")
    program = _smelt.Program.from_file(path)
    fake = types.SimpleNamespace(label=lambda name: None, sum=np.sum, max=np.max)
    namespace = {"parpy": fake}
    text = open(path).read().replace("import smelt.parpy as parpy", "")
    exec(compile(text, path, "exec"), namespace)
    x = rng.integers(-9, 9, (4, 33)).astype(np.float64)
    y = rng.integers(-9, 9, (4, 33)).astype(np.float64)
    for name, spec, args in [
            ("row_sums_2d", {"N": (0, False, 0), "M": (32, False, 0)}, [x, np.zeros(4), 4]),
            ("add_2d", {"N": (0, False, 0), "M": (0, False, 0)}, [x, y, np.zeros((4, 33))]),
            ("col_max", {"M": (0, False, 0)}, [x, np.zeros(33)])]:
        engine_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        _smelt.LoopFunction(program, name, spec, backend=ENGINE_NAME[compiled_backend])(engine_args)
        oracle_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        namespace[name](*oracle_args)
        for got, want in zip(engine_args, oracle_args):
            if isinstance(got, np.ndarray):
                np.testing.assert_array_equal(got, want, err_msg=name)
