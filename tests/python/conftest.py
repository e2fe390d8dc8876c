# Shared fixtures of the Python package's tests. Run with the built package on the path:
#   PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python -q
# (ctest does this: the test `python.pytest`, label `python`).
import numpy as np
import pytest

import smelt

if not smelt.HAVE_ENGINE:
    raise RuntimeError("the smelt package on sys.path has no compiled engine (_smelt): run the "
                       "tests with PYTHONPATH=build/python after building")

# Every backend the primitives may run on. 'cython' is Compyle's name for the engine's CPU backend
# (OpenMP); 'python' runs the same functions in CPython (the oracle). GPU backends skip with the
# engine's reason when this build or machine lacks them.
_STATUS = {name: (ok, note) for name, ok, note in smelt._smelt.list_backends()}


def _param(name):
    if name in ("opencl", "cuda"):
        ok, note = _STATUS.get(name, (False, "unknown to the engine"))
        return pytest.param(name, marks=pytest.mark.skipif(not ok, reason="%s: %s" % (name, note)))
    return pytest.param(name)


BACKENDS = ["cython", "python", "opencl", "cuda"]
COMPILED = ["cython", "opencl", "cuda"]


@pytest.fixture(params=[_param(b) for b in BACKENDS])
def backend(request):
    """Every backend, the CPython one included."""
    return request.param


@pytest.fixture(params=[_param(b) for b in COMPILED])
def compiled_backend(request):
    """Every backend that compiles (not 'python')."""
    return request.param


@pytest.fixture(params=[_param(b) for b in ("opencl", "cuda")])
def gpu(request):
    """The backends with work groups and local memory (Kernel, LocalMem)."""
    return request.param


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture(autouse=True)
def _fresh_config():
    # Tests that change the config must not leak it into others.
    saved = smelt.get_config()
    smelt.config.set_config(smelt.Config())
    smelt.reset_profile()
    yield
    smelt.config.set_config(saved)
