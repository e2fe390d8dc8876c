"""The names a ParPy function uses in its body, with their CPython meaning.

The engine reads ``parpy.label``, ``parpy.sum`` ... from the function's source; these Python
definitions are what the same function means when it runs in CPython (the ``Python`` backend,
the tests' oracle, or simply calling the undecorated function): labels and ``gpu`` do nothing,
the reductions are NumPy's, the casts convert to the NumPy scalar type.
"""

import builtins
import contextlib

import numpy as np

__all__ = ["label", "gpu", "sum", "prod", "min", "max", "abs", "exp", "log", "sqrt", "sin",
           "cos", "tanh", "atan2", "inf", "float16", "float32", "float64", "int8", "int16",
           "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def label(name):
    """Names the statement that follows, for the parallel specification (``par``)."""
    if not isinstance(name, str):
        raise TypeError("parpy.label expects a string, not %r" % (name,))


# ``with parpy.gpu:`` places sequential code on the device when compiled; nothing in CPython.
gpu = contextlib.nullcontext()


def _reduce(np_reduce, x, axis):
    return np_reduce(x) if axis is None else np_reduce(x, axis=axis)


def sum(x, axis=None):
    """The sum of the elements of x (along `axis`)."""
    return _reduce(np.sum, x, axis)


def prod(x, axis=None):
    """The product of the elements of x (along `axis`)."""
    return _reduce(np.prod, x, axis)


def min(x, y=None, axis=None):
    """``min(x)``: the least element of x (along `axis`); ``min(x, y)``: the lesser of two."""
    if y is None:
        return _reduce(np.min, x, axis)
    if axis is not None:
        raise TypeError("parpy.min(x, y) takes no axis")
    return np.minimum(x, y)


def max(x, y=None, axis=None):
    """``max(x)``: the greatest element of x (along `axis`); ``max(x, y)``: the greater of two."""
    if y is None:
        return _reduce(np.max, x, axis)
    if axis is not None:
        raise TypeError("parpy.max(x, y) takes no axis")
    return np.maximum(x, y)


abs = builtins.abs
exp, log, sqrt, sin, cos, tanh = np.exp, np.log, np.sqrt, np.sin, np.cos, np.tanh
atan2 = np.arctan2
inf = np.inf


def _cast(np_type):
    def cast(x):
        return np_type(x)

    cast.__name__ = cast.__qualname__ = np.dtype(np_type).name
    cast.__doc__ = "x converted to %s (C's conversion)." % np.dtype(np_type).name
    return cast


float16, float32, float64 = _cast(np.float16), _cast(np.float32), _cast(np.float64)
int8, int16, int32, int64 = _cast(np.int8), _cast(np.int16), _cast(np.int32), _cast(np.int64)
uint8, uint16, uint32, uint64 = (_cast(np.uint8), _cast(np.uint16), _cast(np.uint32),
                                 _cast(np.uint64))
