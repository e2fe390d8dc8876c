"""Low-level GPU kernels (Compyle's ``compyle.low_level``): ``Kernel``, ``LocalMem`` and the
work-item names ``LID_0 GID_0 LDIM_0 GDIM_0`` (and _1, _2), ``local_barrier``, ``atomic_inc``,
``atomic_dec``, ``cast``.

A Kernel runs a function once per work item, in work groups sharing local memory: this exists
only on OpenCL and CUDA, where the engine compiles the function itself as the GPU kernel
(engine/smelt.h, ``smelt::Kernel``). On the CPU backends (Compyle's 'cython') a Kernel is
refused with BackendUnavailableError (use Elementwise there), as Compyle refuses it.

In CPython the work-item names describe a single work item in a group of one (see purepy).
"""

import math

import numpy as np

from ._engine import HAVE_ENGINE
from . import backends as _backends
from . import config as _config
from ._source import function_of, program_for
from .errors import BackendUnavailableError
from .purepy import (GDIM_0, GDIM_1, GDIM_2, GID_0, GID_1, GID_2, LDIM_0, LDIM_1, LDIM_2,  # noqa: F401
                     LID_0, LID_1, LID_2, LOCAL_MEM, atomic_dec, atomic_inc, cast, local_barrier)

from ._prange import nogil, parallel, prange  # noqa: F401,E402

# Kernel files import the work-item names from here, so the module loads without the engine too.
if HAVE_ENGINE:
    from ._prange import Cython  # noqa: F401
    from . import _smelt
    from .parallel import _Primitive
else:
    _Primitive = object

__all__ = ["Kernel", "LocalMem", "LID_0", "LID_1", "LID_2", "GID_0", "GID_1", "GID_2", "LDIM_0",
           "LDIM_1", "LDIM_2", "GDIM_0", "GDIM_1", "GDIM_2", "local_barrier", "atomic_inc",
           "atomic_dec", "cast", "LOCAL_MEM", "Cython", "prange", "parallel", "nogil"]


class LocalMem:
    """``LocalMem(size, backend=None)``: local memory of ``size * work_group_size`` elements of
    the type of the Kernel parameter it is passed to (which must be annotated ``l<T>p``, e.g.
    ``ldoublep``)."""

    def __init__(self, size, backend=None):
        self.size = int(size)
        self.backend = _config.get_backend(backend)

    def get(self, c_type, workgroup_size):
        """Bytes for elements of the C type `c_type` ('double', 'float', ...)."""
        from .purepy import type_of
        return self.size * int(workgroup_size) * type_of(c_type).dtype.itemsize

    def _engine_arg(self, workgroup_size):
        # The element type is the parameter's: the engine reads it from the annotation.
        return _smelt.LocalMem(self.size * int(workgroup_size))


class Kernel(_Primitive):
    """``Kernel(func, backend=None)``; ``k(*args, global_size=None, local_size=None)`` runs
    `func` once per work item, ``global_size`` items in work groups of ``local_size``.

    - ``global_size`` (a number, or a 1-tuple as in Compyle) defaults to the length of the first
      array argument.
    - With ``local_size`` given, the global size is rounded up to a multiple of it: the kernel
      must then check bounds (``if i < n``).
    - Without it, the group size is the largest divisor of the config's ``wgs`` (64) that
      divides the global size, so that the launch covers exactly that many items (Compyle's
      examples index without a bound check).

    ``.source`` / ``.all_source`` hold the generated code after the first call."""

    kind = "Kernel"

    def __init__(self, func, backend=None, **options):
        if not HAVE_ENGINE:
            raise BackendUnavailableError("Kernel needs smelt's compiled engine (_smelt)")
        self.func = function_of(func)
        # BackendUnavailableError if absent; options as for Elementwise
        self._setup(backend, self.func.__code__.co_name, options)

    def _config_key(self):
        key = super()._config_key()
        if not _backends.work_groups(key[0]):
            raise BackendUnavailableError(
                "Kernel needs the %s backend (work groups and local memory exist only there); "
                "backend %r has none: use Elementwise"
                % (_backends.text(["'%s'" % f for f in _backends.work_group_families()]),
                   key[0]))
        return key

    def _build(self):
        prog = program_for([self.func])[0]
        self._impl = _smelt.Kernel(prog, self.name, self._engine, self._single, self._options)

    def _geometry(self, args, global_size, local_size):
        """(global size, work-group size) of a call; see the class docstring."""
        if global_size is None:
            # The first array's len(): a reshaped smelt Array's first extent, as for NumPy.
            n = next((a.shape[0] if hasattr(a, "shape") else len(a)
                      for a in args if hasattr(a, "__len__") and not isinstance(a, LocalMem)),
                     None)
            if n is None:
                raise TypeError("Kernel: no array argument to size the launch by; pass global_size")
        else:
            n = int(np.prod(global_size))
        if local_size is not None:
            local = int(np.prod(local_size))
            if local < 1:
                raise ValueError("Kernel: local_size must be positive, not %r" % (local_size,))
            return (n + local - 1) // local * local, local
        wgs = int(_config.get_config().wgs)
        return n, (math.gcd(n, wgs) if n > 0 else wgs)

    def __call__(self, *args, global_size=None, local_size=None):
        impl = self._current()
        gs, ls = self._geometry(args, global_size, local_size)
        launch = [a._engine_arg(ls) if isinstance(a, LocalMem) else a for a in args]
        if _config._current._values["profile"]:
            return self._timed(impl, [gs], [ls], *launch)
        impl([gs], [ls], *launch)
