"""CPython meaning of the kernel-language helper names, so kernel files run as plain Python.

A kernel file (apps/md2d/physics.py, ...) imports `annotate` and `declare` from here. The Smelt
engine never executes this module: it parses the kernel file itself and treats these names as
builtins. In CPython the same names must behave the way the kernel language defines them, so the
kernels can be run element by element on NumPy arrays as the tests' reference:

- `annotate` records the declared types and returns the function unchanged;
- `declare('double')` is a zero of that type, `declare('int', 2)` a tuple of zeros,
  `declare('matrix(3)')` / `declare("matrix((2, 2), 'int')")` a zeroed NumPy array;
- `cast(x, 'float')` converts like the kernel language does (int() truncates toward zero).

When the project's Python package exists it may re-export these names; kernel files keep working.
"""

import re
import sys

import numpy as np

_INT_TYPES = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"}
_FLOAT_TYPES = {"float", "double"}
_NUMPY_OF = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
    "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
    "float": np.float32, "double": np.float64, "bool": np.bool_,
}


def annotate(func=None, **types):
    """@annotate, @annotate(i='int', x='doublep'), @annotate(doublep='x, y', return_='double')."""
    if func is not None and callable(func) and not types:
        func.__smelt_types__ = {}
        return func

    def wrap(f):
        f.__smelt_types__ = dict(types)
        return f

    return wrap


def _extent(text, names):
    """A matrix extent: an integer literal or a module constant of the declaring kernel."""
    text = text.strip()
    if re.fullmatch(r"[A-Za-z_]\w*", text):
        return int(names[text])
    return int(text)


def _zero_of(type_name, names):
    t = type_name.strip()
    if t in _INT_TYPES:
        return 0
    if t in _FLOAT_TYPES:
        return 0.0
    if t == "bool":
        return False
    m = re.fullmatch(r"(?:LOCAL_MEM\s+)?matrix\((.*)\)", t)
    if m is None:
        raise TypeError("declare(): unknown type %r" % type_name)
    inner = m.group(1).strip()
    dtype = np.float64
    q = re.fullmatch(r"(.*),\s*['\"](\w+)['\"]", inner)
    if q is not None:
        inner, dtype = q.group(1).strip(), _NUMPY_OF[q.group(2)]
    dims = tuple(_extent(d, names) for d in inner.strip("()").split(",") if d.strip())
    return np.zeros(dims, dtype=dtype)


def declare(type_name, count=1):
    names = sys._getframe(1).f_globals  # extents may name the kernel module's constants
    if count == 1:
        return _zero_of(type_name, names)
    return tuple(_zero_of(type_name, names) for _ in range(count))


def cast(value, type_name):
    t = type_name.strip()
    if t in _INT_TYPES:
        return int(value)
    if t == "bool":
        return bool(value)
    return float(value)
