# ParPy's typical programs (examples/parpy_programs.py: axpy, row sums, softmax, SpMV in CSR,
# matrix multiply, reductions over rows) on every backend, checked against NumPy.
import numpy as np
import pytest

from parpy_support import ALL, backend_param

import parpy_programs  # examples/, put on the path by parpy_support


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
@pytest.mark.parametrize("name", sorted(parpy_programs.PROGRAMS))
def test_program_matches_numpy(name, backend):
    rng = np.random.default_rng(7)
    fn, args, opts, expected = parpy_programs.PROGRAMS[name](600, rng)
    opts.backend = backend
    fn(*args, opts=opts)
    for index, want in expected.items():
        got = args[index]
        tol = 1e-5 if got.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize("backend", [backend_param(b) for b in ALL])
def test_axpy_float32_arrays(backend):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(257).astype(np.float32)
    y = rng.standard_normal(257).astype(np.float32)
    want = np.float32(0.5) * x + y
    opts = parpy_programs.parpy.par({'N': parpy_programs.parpy.threads(64)})
    opts.backend = backend
    parpy_programs.axpy(0.5, x, y, 257, opts=opts)
    np.testing.assert_allclose(y, want, rtol=1e-6)
