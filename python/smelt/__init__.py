"""Smelt: kernels written in a restricted Python, compiled to C++ / OpenCL / CUDA.

``from smelt import *`` at the top of a kernel file makes the file run in CPython too: the
language's names (annotate, declare, cast, atomics, math builtins, type objects) come from
``smelt.purepy``, which needs only NumPy.
"""

from .purepy import *  # noqa: F401,F403  (the kernel language's CPython meaning)
from .purepy import __all__ as _purepy_all

__all__ = list(_purepy_all)

# The compiled engine (Elementwise, Reduction, Scan, Array, ...) is added here by the extension
# module once it is built. It is optional on purpose: kernel files and the semantics oracle
# (tests/semantics/oracle.py) must import `smelt` on a machine without the extension, so keep
# the import guarded and never let purepy depend on it. Its names must not replace purepy's
# kernel-language names (annotate, declare, ...), which kernel files rely on in CPython.
#
# try:
#     from ._smelt import *  # noqa: F401,F403
#     from ._smelt import __all__ as _engine_all
#     __all__ += [n for n in _engine_all if n not in __all__]
# except ImportError:
#     pass
