"""Smelt: kernels written in a restricted Python, compiled to C++ / OpenCL / CUDA.

``from smelt import *`` at the top of a kernel file makes the file run in CPython too: the
language's names (annotate, declare, cast, atomics, math builtins, type objects) come from
``smelt.purepy``, which needs only NumPy.

With the compiled engine (the ``_smelt`` extension, built by CMake or ``pip install .``) the
package also offers the Compyle-shaped API documented in docs/PYTHON.md: Elementwise, Reduction,
Scan, Array/wrap, the array functions (``smelt.zeros``, ``smelt.sum``, ... also in
``smelt.array``), get_config/use_config, profiling, Kernel/LocalMem, specialize.
"""

import os as _os

# OpenMP's idle threads wait passively unless the user chose otherwise: libgomp's default (spin
# for a while before sleeping) takes the cores the Python thread and other processes need, which
# made runs of many short kernels ten times slower on a busy machine. libgomp reads this once,
# when it is loaded (with the extension below, or by an earlier import), so it is set first
# thing. C++ executables get the same default (engine/support/openmp_defaults.cpp).
if "OMP_WAIT_POLICY" not in _os.environ and "GOMP_SPINCOUNT" not in _os.environ:
    _os.environ["OMP_WAIT_POLICY"] = "passive"

from ._engine import HAVE_ENGINE  # noqa: E402
from .purepy import *  # noqa: F401,F403  (the kernel language's CPython meaning)
from .purepy import __all__ as _purepy_all

__all__ = list(_purepy_all)

# The engine is optional on purpose: kernel files and the semantics oracle
# (tests/semantics/oracle.py) import `smelt` on machines without the extension, so only its
# absence is tolerated here (a broken API module still raises). Star-imports get the Compyle API
# names (smelt.api) but not the array functions, several of which (sum, where, take ...) would
# shadow Python builtins in kernel files; the engine's `elementwise` (Compyle's decorator,
# making an Elementwise) replaces purepy's marker of the same name.
if HAVE_ENGINE:
    import numpy as _np

    from . import _smelt
    from .errors import (BackendError, BackendUnavailableError, CompileError,  # noqa: F401
                         InternalError, KernelSyntaxError, UsageError, _from_engine)

    _smelt.set_error_factory(_from_engine)

    from .api import *  # noqa: F401,F403
    from .api import __all__ as _api_all
    from .array import (align, arange, argsort, cumsum, diff, dot, empty, empty_like,  # noqa: F401
                        full, linspace, maximum, minimum, ones, ones_like, sort_by_keys, sum,
                        take, take_bool, to_device, trapz, where, wrap_array, zeros, zeros_like)
    from .array import Array as _Array
    from .config import available_backends, backend_available  # noqa: F401

    _smelt.register_array_type(_Array, _np.generic)

    __all__ += [n for n in _api_all if n not in __all__]
    __all__ += ["CompileError", "KernelSyntaxError", "UsageError", "BackendError",
                "BackendUnavailableError", "InternalError"]
    __version__ = _smelt.__version__
