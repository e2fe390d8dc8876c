"""What the smelt.parpy tests share: the backends to run on (as pytest params, GPU backends
skipped with the engine's reason), and examples/ on the path (parpy_programs.py)."""

import os
import sys

import pytest

import smelt
import smelt.parpy as parpy

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))

_STATUS = {name: (ok, note) for name, ok, note in smelt._smelt.list_backends()}

_ENGINE = {parpy.CompileBackend.Cpu: "cpu", parpy.CompileBackend.OpenCL: "opencl",
           parpy.CompileBackend.Cuda: "cuda"}


def backend_param(b):
    """A pytest param for CompileBackend `b`, skipped where it cannot run here."""
    marks = []
    if b in _ENGINE:
        ok, note = _STATUS.get(_ENGINE[b], (False, "unknown to the engine"))
        marks.append(pytest.mark.skipif(not ok, reason="%s: %s" % (b.name, note)))
    return pytest.param(b, marks=marks, id=b.name.lower())


ALL = [parpy.CompileBackend.Cpu, parpy.CompileBackend.OpenCL, parpy.CompileBackend.Cuda,
       parpy.CompileBackend.Python]
COMPILED = ALL[:3]


def opts_for(backend, spec):
    opts = parpy.par(spec)
    opts.backend = backend
    return opts

