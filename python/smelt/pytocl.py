"""pytocl's style on smelt: a kernel reads its work-item index with ``get_global_id(0)``
instead of taking it as a parameter::

    from smelt.pytocl import get_global_id, clify

    def parallel_add(a, b, output):
        i = get_global_id(0)
        output[i] = a[i] + b[i]

    add = clify(parallel_add)          # or clify(parallel_add, global_size=16, backend='cuda')
    add(a, b, output)                  # NumPy arrays or smelt Arrays

It is an Elementwise underneath: the engine gets the function with an index parameter added and
each ``get_global_id(0)`` replaced by it (one dimension only). pytocl's argument descriptors
(CLArgDesc, copy_in/copy_out) are not needed: arrays are passed as for any primitive.
"""

import threading

from . import _cpython
from . import config as _config
from ._source import function_of, global_id_rewrite, program_for
from .parallel import Elementwise

__all__ = ["get_global_id", "clify", "GlobalIdKernel"]

_INDEX = "_smelt_gid"
_state = threading.local()


def get_global_id(dim):
    """The running work item's index in CPython (0 for dimensions other than 0)."""
    return getattr(_state, "gid", 0) if dim == 0 else 0


class GlobalIdKernel:
    def __init__(self, func, global_size=None, backend=None):
        self.func = function_of(func)
        self.global_size = global_size
        self.backend = _config.get_backend(backend)
        self._engine = _config.engine_backend(self.backend)
        self._elementwise = None
        if self._engine is not None:
            prog = program_for([self.func], rewrite_def={self.func: global_id_rewrite(_INDEX)})[0]
            self._elementwise = Elementwise._from_program(prog, self.func.__code__.co_name,
                                                          self.func, self.backend)

    @property
    def source(self):
        return self._elementwise.source if self._elementwise else ""

    def __call__(self, *args):
        n = self.global_size
        if n is None:
            n = next((len(a) for a in args if hasattr(a, "__len__")), None)
            if n is None:
                raise TypeError("no array argument to take the global size from; pass global_size")
        if self._elementwise is not None:
            return self._elementwise.call_n(n, *args)
        views = [_cpython.host(a) for a in args]
        for gid in range(n):
            _state.gid = gid
            self.func(*views)
        _cpython.push_back(args)


def clify(func, global_size=None, backend=None):
    """`func` (reading its index with get_global_id(0)) as a callable running it on
    `global_size` work items (default: the first array argument's length)."""
    return GlobalIdKernel(func, global_size, backend)
