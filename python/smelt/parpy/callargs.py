"""A ParPy call's arguments as the engine takes them, with the key of their specialisation.

NumPy arrays pass as they are; buffers as their backend memory (shaped: ``Array.reshape``), or
a host view of a host buffer for a GPU function; smelt Arrays
as they are; torch/CuPy arrays through host views (arrays.py); numbers converted as
``force_int_size`` / ``force_float_size`` say. The key holds per argument the array's dtype and
shape, or the number's type and, for integers, its value: integers are constants of the engine's
code (parallel loop bounds must be known), as in ParPy; floats are passed at run time.
"""

import numbers

import numpy as np

from .. import errors
from ..array import Array
from . import arrays
from .buffer import Buffer
from .types import ElemSize

__all__ = ["Call", "convert", "check_buffer", "scalar", "single_precision"]


class Call:
    """One call's arguments converted for the engine, with the key of their specialisation and
    what to do after the run (write copies back)."""

    __slots__ = ("args", "key", "after")

    def __init__(self):
        self.args, self.key, self.after = [], [], []

    def finish(self):
        for f in self.after:
            f()


def single_precision(opts):
    """True when force_float_size asks for float32 (the engine's single precision)."""
    size = opts.force_float_size
    if size is ElemSize.F16:
        raise errors.UsageError("force_float_size=ElemSize.F16: Smelt computes in float32 or "
                                "float64 only")
    return size is ElemSize.F32


def scalar(value, opts, name):
    """A number as the engine should receive it, honouring force_int_size/force_float_size."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (numbers.Integral, np.integer)):
        if opts.force_int_size is not None:
            return np.dtype(opts.force_int_size.value).type(value)
        return value
    if isinstance(value, (numbers.Real, np.floating)):
        if opts.force_float_size is ElemSize.F32:
            return np.float32(value)
        return value
    raise errors.UsageError("argument %s: cannot pass %s to a ParPy function (arrays, buffers, "
                            "numbers and dicts of those are accepted)" % (name, type(value).__name__))


def check_buffer(name, buf, backend):
    """A buffer made for one backend is passed only to functions running on it (as in ParPy);
    a host buffer (backend None) goes anywhere."""
    if buf.backend is not None and buf.backend.value != backend:
        raise errors.UsageError("argument %s is a buffer of backend %s, but the function runs "
                                "on %s" % (name, buf.backend.name, backend))


def convert(call, name, arg, opts, backend):
    """Appends `arg` (parameter `name`), converted for the engine `backend`, to `call`."""
    kind = type(arg)
    if kind is np.ndarray:  # the common cases first: a call's cost is mostly this function
        call.key.append(("a", arg.dtype.str, arg.shape))
        call.args.append(arg)
        return
    if kind is float and opts.force_float_size is None:
        call.key.append(("s", "float", None))
        call.args.append(arg)
        return
    if kind is int and opts.force_int_size is None:
        call.key.append(("s", "int", arg))
        call.args.append(arg)
        return
    if isinstance(arg, Buffer):
        check_buffer(name, arg, backend)
        call.key.append(("a", arg._array.dtype.str, arg.shape))
        if arg.on_host and backend != "cpu":
            # Host memory for a GPU function: the engine copies it around the call.
            call.args.append(arg.numpy())
        elif arg.ndim >= 2:
            call.args.append(arg._array.reshape(arg.shape))  # the same memory, shaped
        else:
            call.args.append(arg._array)
        return
    if isinstance(arg, Array):
        call.key.append(("a", arg.dtype.str, arg.shape))
        call.args.append(arg)
        return
    if arrays.is_array(arg):
        host, back = arrays.host_view(arg)
        call.key.append(("a", host.dtype.str, host.shape))
        call.args.append(host)
        if back is not None:
            call.after.append(back)
        return
    value = scalar(arg, opts, name)
    # Integers are constants of the engine's code (parallel loop bounds must be known), so
    # their values are part of the key, as in ParPy; floats are passed at run time.
    is_int = isinstance(value, (bool, numbers.Integral, np.integer))
    call.key.append(("s", type(value).__name__, value if is_int else None))
    call.args.append(value)
