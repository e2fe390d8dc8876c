"""Low-level GPU kernels (Compyle's ``compyle.low_level``): ``Kernel``, ``LocalMem`` and the
work-item names ``LID_0 GID_0 LDIM_0 GDIM_0`` (and _1, _2), ``local_barrier``, ``atomic_inc``,
``atomic_dec``, ``cast``.

A Kernel runs a function once per work item in work groups, with local (shared) memory: this
exists only on OpenCL and CUDA. On the CPU backends (Compyle's 'cython') a Kernel is refused
with BackendUnavailableError (use Elementwise there); on OpenCL/CUDA it is refused with the same
error until the engine has a raw-kernel launch (engine/smelt.h has none yet). The Python side
(argument handling, LocalMem sizing, launch geometry) is complete, so only `_launch` remains.

In CPython the work-item names describe a single work item in a group of one (see purepy).
"""

import inspect

from . import config as _config
from .errors import BackendUnavailableError
from .purepy import (GDIM_0, GDIM_1, GDIM_2, GID_0, GID_1, GID_2, LDIM_0, LDIM_1, LDIM_2,  # noqa: F401
                     LID_0, LID_1, LID_2, LOCAL_MEM, atomic_dec, atomic_inc, cast, local_barrier)
from ._source import function_of

__all__ = ["Kernel", "LocalMem", "LID_0", "LID_1", "LID_2", "GID_0", "GID_1", "GID_2", "LDIM_0",
           "LDIM_1", "LDIM_2", "GDIM_0", "GDIM_1", "GDIM_2", "local_barrier", "atomic_inc",
           "atomic_dec", "cast", "LOCAL_MEM"]


class LocalMem:
    """``LocalMem(size, backend=None)``: local memory of ``size * work_group_size`` elements of
    the parameter's type, passed to a Kernel parameter annotated ``l<T>p``."""

    def __init__(self, size, backend=None):
        self.size = int(size)
        self.backend = _config.get_backend(backend)

    def get(self, c_type, workgroup_size):
        """Bytes for elements of the C type `c_type` ('double', 'float', ...)."""
        from .purepy import type_of
        return self.size * int(workgroup_size) * type_of(c_type).dtype.itemsize


class Kernel:
    """``Kernel(func, backend=None)``; ``k(*args, global_size=None, local_size=None)`` runs
    `func` on ``global_size`` work items (default: the first array's length rounded up to the
    work-group size) in groups of ``local_size`` (default: the config's ``wgs``)."""

    def __init__(self, func, backend=None):
        self.func = function_of(func)
        self.backend = _config.get_backend(backend)
        if self.backend not in ("opencl", "cuda"):
            raise BackendUnavailableError(
                "Kernel needs the 'opencl' or 'cuda' backend (work groups and local memory exist "
                "only there); backend %r runs on the engine's CPU backend: use Elementwise"
                % self.backend)
        self._engine = _config.engine_backend(self.backend)  # BackendUnavailableError if absent
        self.source = self.all_source = ""

    def _geometry(self, args, global_size, local_size):
        local = int(local_size or _config.get_config().wgs)
        if global_size is None:
            n = next((len(a) for a in args if hasattr(a, "__len__") and not isinstance(a, LocalMem)), None)
            if n is None:
                raise TypeError("Kernel: no array argument to size the launch by; pass global_size")
            global_size = (n + local - 1) // local * local
        return int(global_size), local

    def __call__(self, *args, global_size=None, local_size=None):
        global_size, local = self._geometry(args, global_size, local_size)
        params = list(inspect.signature(self.func).parameters)
        launch_args = []
        for k, a in enumerate(args):
            if isinstance(a, LocalMem):
                t = self.func.__annotations__.get(params[k] if k < len(params) else None)
                c_type = t.scalar_name if t is not None and getattr(t, "is_pointer", False) else "double"
                launch_args.append(("local", a.get(c_type, local)))
            else:
                launch_args.append(("value", a))
        return self._launch(launch_args, global_size, local)

    def _launch(self, launch_args, global_size, local_size):
        raise BackendUnavailableError(
            "Kernel on %r: this build of the engine has no raw-kernel launch yet (engine/smelt.h "
            "offers Elementwise, Reduction and Scan)" % self.backend)

