"""What the smelt.parpy tests share: the backends to run on (as pytest params, GPU backends
skipped with the engine's reason) and the skip for builds without loop-parallel functions."""

import os
import sys

import numpy as np
import pytest

import smelt
import smelt.parpy as parpy
from smelt.parpy import engine

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))

_STATUS = {name: (ok, note) for name, ok, note in smelt._smelt.list_backends()}

needs_loops = pytest.mark.skipif(
    not engine.available(),
    reason="this engine has no loop-parallel functions (_smelt.LoopFunction, branch 'loops')")

_ENGINE = {parpy.CompileBackend.Cpu: "cpu", parpy.CompileBackend.OpenCL: "opencl",
           parpy.CompileBackend.Cuda: "cuda"}


def backend_param(b, compiles=True):
    """A pytest param for CompileBackend `b`, skipped where it cannot run here (`compiles`:
    the test compiles functions, which needs the engine's loop-parallel functions)."""
    marks = []
    if b in _ENGINE:
        ok, note = _STATUS.get(_ENGINE[b], (False, "unknown to the engine"))
        marks.append(pytest.mark.skipif(not ok, reason="%s: %s" % (b.name, note)))
        if compiles:
            marks.append(needs_loops)
    return pytest.param(b, marks=marks, id=b.name.lower())


ALL = [parpy.CompileBackend.Cpu, parpy.CompileBackend.OpenCL, parpy.CompileBackend.Cuda,
       parpy.CompileBackend.Python]
COMPILED = ALL[:3]


def opts_for(backend, spec):
    opts = parpy.par(spec)
    opts.backend = backend
    return opts


def _probe(i, x):
    x[0, 0] = x[0, 0]


_ND = []


def require_nd(backend):
    """Skips the calling test when it compiles functions of 2-D arrays and the engine takes
    one-dimensional arrays only (before branch 'nd'); CPython needs nothing."""
    if backend is parpy.CompileBackend.Python:
        return
    if not _ND:
        try:
            smelt.Elementwise(_probe, backend="cython").call_n(0, np.zeros((1, 1)))
            _ND.append(True)
        except TypeError as exc:
            if "one-dimensional" not in str(exc):
                raise
            _ND.append(False)
    if not _ND[0]:
        pytest.skip("this engine takes one-dimensional arrays only (2-D: branch 'nd')")
