"""ParPy's API on Smelt's engine: ``import smelt.parpy as parpy`` and a ParPy program runs on
the CPU (C++/OpenMP), OpenCL or CUDA, or in CPython (``CompileBackend.Python``).

A ParPy function is ordinary Python whose ``for`` loops carry labels (``parpy.label('N')``);
the parallel specification given at call time (``opts=parpy.par({'N': parpy.threads(256)})``)
says which labelled loops run in parallel and how. docs/PYTHON.md, "ParPy API", documents every
name and the differences from ParPy.

Modules: types.py (ElemSize, Target, CompileBackend, LoopPar), options.py (CompileOptions, par,
threads, reduce, backend resolution), operators.py (label, gpu, reductions, casts: their CPython
meaning; math.py the same math under ``parpy.math``), jit.py (jit, print_compiled,
compile_string, clear_cache), callargs.py (a call's arguments for the engine), buffer.py
(buffers), arrays.py (torch/CuPy arrays), dictargs.py (dict arguments), rewrite.py (the text
the engine gets), source.py (ParPy's rejections, located errors), external.py (externals),
engine.py (the engine's loop-parallel functions).
"""

from . import buffer, math, operators, types  # noqa: F401
from .buffer import sync
from .external import external
from .jit import JitFunction, clear_cache, compile_string, jit, print_compiled
from .operators import *  # noqa: F401,F403
from .operators import __all__ as _operators_all
from .options import CompileOptions, par, reduce, threads
from .types import CompileBackend, ElemSize, LoopPar, Target

__all__ = ["jit", "external", "print_compiled", "compile_string", "clear_cache", "par",
           "threads", "reduce", "sync", "CompileOptions", "CompileBackend", "ElemSize", "Target",
           "LoopPar", "JitFunction", "buffer", "math", "types"] + list(_operators_all)
