"""Arrays (Compyle's ``compyle.array``): ``Array``, ``wrap`` and the array functions.

An ``Array`` is a 1-D buffer of the engine: on the CPU it can wrap a NumPy array's memory
without a copy (``wrap``), on a GPU it is device memory with a host copy that ``pull()`` fills
and ``push()`` sends back. ``.data`` is the NumPy view of the host memory (for a wrapped array:
the very NumPy array that was wrapped). NumPy bool arrays are kept as bytes (kernels see them as
``ucharp``) and shown as bool.

Supported dtypes: int8..int64, uint8..uint64, float32, float64 and bool.
"""

import operator

import numpy as np

from . import _smelt
from . import config as _config
from . import errors
from .profile import record as _record

__all__ = ["Array", "wrap", "wrap_array", "to_device", "zeros", "ones", "empty", "zeros_like",
           "ones_like", "empty_like", "full", "arange", "linspace", "sum", "minimum", "maximum",
           "dot", "cumsum", "take", "where", "argsort", "sort_by_keys", "align"]

_SUPPORTED = {np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                    np.uint32, np.uint64, np.float32, np.float64, np.bool_)}


def _dtype(dtype):
    dt = np.dtype(dtype)
    if dt not in _SUPPORTED or not dt.isnative:
        raise errors.UsageError("dtype %s is not supported by smelt arrays (int8..int64, "
                                "uint8..uint64, float32, float64, bool)" % dt)
    return dt


def _storage(dt):
    """The engine dtype name holding `dt` (bool as uint8)."""
    return "uint8" if dt == np.bool_ else dt.name


class Array:
    """``Array(dtype, n=0, backend=None)``: an uninitialised array of n elements."""

    __slots__ = ("_h", "_bool", "_data", "backend", "__weakref__")

    def __init__(self, dtype=np.float64, n=0, backend=None):
        dt = _dtype(dtype)
        self.backend = _config.get_backend(backend)
        self._set(_smelt.empty(int(n), _storage(dt), _config.array_backend(self.backend)), dt == np.bool_)

    @classmethod
    def _of(cls, handle, backend, is_bool=False, data=None):
        self = cls.__new__(cls)
        self.backend = backend
        self._set(handle, is_bool, data)
        return self

    def _set(self, handle, is_bool, data=None):
        self._h = handle
        self._bool = is_bool
        self._data = data

    # --- Compyle's attributes ---
    @property
    def data(self):
        """The host memory as a NumPy array (pull() first on a GPU backend)."""
        if self._data is None or len(self._data) != self._h.size:
            view = np.asarray(self._h)
            self._data = view.view(np.bool_) if self._bool else view
        return self._data

    @property
    def dev(self):
        """The engine's array handle (what kernels receive)."""
        return self._h

    @property
    def dtype(self):
        return np.dtype(np.bool_) if self._bool else np.dtype(self._h.dtype)

    @property
    def n(self):
        return self._h.size

    def __len__(self):
        return self._h.size

    def __repr__(self):
        return "Array(%s, n=%d, backend=%r)" % (self.dtype, len(self), self.backend)

    def __array__(self, dtype=None, copy=None):
        self.pull()
        data = self.data if dtype is None else self.data.astype(dtype, copy=False)
        return data.copy() if copy else data

    # --- data movement ---
    def pull(self):
        """Device → host memory (nothing to do on the CPU)."""
        self._h.pull()

    def push(self):
        """Host memory → device (nothing to do on the CPU)."""
        self._h.push()

    def get(self):
        """A NumPy copy of the values."""
        self.pull()
        return self.data.copy()

    def set(self, values):
        """Copies `values` (same length) into the array."""
        values = np.asarray(values, dtype=self.dtype)
        if values.shape != (len(self),):
            raise errors.UsageError("set: expected %d values, got shape %s" % (len(self), values.shape))
        self.data[:] = values
        self.push()

    def resize(self, n):
        """Keeps the first min(n, len) elements. Views from ``.data`` taken before are invalid
        afterwards (as in Compyle); a wrapped array that grows stops aliasing the NumPy array."""
        self._h.resize(int(n))
        self._data = None

    def copy(self):
        return Array._of(self._h.copy(), self.backend, self._bool)

    def fill(self, value):
        self.pull()
        self.data[:] = value
        self.push()
        return self

    def align(self, indices):
        """A new array with ``out[i] = self[indices[i]]``."""
        return take(self, indices)

    def empty_like(self):
        return empty(len(self), self.dtype, self.backend)

    def zeros_like(self):
        return zeros(len(self), self.dtype, self.backend)

    # --- element-wise comparisons and arithmetic (kernels from smelt/_kernels.py) ---
    def _binary(self, other, op, out_dtype=None):
        from . import _ops
        return _ops.binary(self, other, op, out_dtype)

    def __lt__(self, other):
        return self._binary(other, "lt", np.bool_)

    def __le__(self, other):
        return self._binary(other, "le", np.bool_)

    def __gt__(self, other):
        return self._binary(other, "gt", np.bool_)

    def __ge__(self, other):
        return self._binary(other, "ge", np.bool_)

    def __eq__(self, other):
        return self._binary(other, "eq", np.bool_)

    def __ne__(self, other):
        return self._binary(other, "ne", np.bool_)

    __hash__ = None

    def __add__(self, other):
        return self._binary(other, "add")

    def __sub__(self, other):
        return self._binary(other, "sub")

    def __mul__(self, other):
        return self._binary(other, "mul")

    def __truediv__(self, other):
        return self._binary(other, "div")

    def __radd__(self, other):
        return self._binary(other, "add")

    def __rmul__(self, other):
        return self._binary(other, "mul")

    def __rsub__(self, other):
        return self._binary(other, "rsub")

    def __rtruediv__(self, other):
        return self._binary(other, "rdiv")

    def __neg__(self):
        return self._binary(-1, "mul")


def _wrap_one(x, backend):
    if isinstance(x, Array):
        return x
    if not isinstance(x, np.ndarray):
        raise errors.UsageError("wrap: expected NumPy arrays, not %s" % type(x).__name__)
    dt = _dtype(x.dtype)
    if x.ndim != 1:
        raise errors.UsageError("wrap: arrays must be one-dimensional (pass x.ravel()), not of "
                                "shape %s" % (x.shape,))
    if not x.flags.c_contiguous or not x.flags.writeable:
        raise errors.UsageError("wrap: the array must be writable and contiguous so the kernel "
                                "sees its memory; wrap np.ascontiguousarray(x) (a copy) instead")
    storage = x.view(np.uint8) if dt == np.bool_ else x
    h = _smelt.wrap(storage, _config.array_backend(backend))
    return Array._of(h, backend, dt == np.bool_, x)


def wrap(*arrays, backend=None):
    """Wraps NumPy arrays as smelt Arrays of `backend` (on the CPU without copying: the kernels
    write into the NumPy arrays). One array gives one Array, several a list."""
    backend = _config.get_backend(backend)
    out = [_wrap_one(x, backend) for x in arrays]
    return out[0] if len(out) == 1 else out


def wrap_array(x, backend=None):
    return wrap(x, backend=backend)


to_device = wrap_array


def _made(handle, backend, dt):
    return Array._of(handle, backend, np.dtype(dt) == np.bool_)


def _length(name, n):
    """``n`` as an array length: an integer >= 0 (NumPy's rule for a shape), else a clear error."""
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"smelt.{name}: the length must be an integer, not {type(n).__name__} "
                        f"{n!r}") from None
    if n < 0:
        raise ValueError(f"smelt.{name}: the length must not be negative, not {n}")
    return n


def _factory(name, n, dtype, backend, *extra):
    n = _length(name, n)
    backend = _config.get_backend(backend)
    dt = _dtype(dtype)
    h = getattr(_smelt, name)(n, *extra, _storage(dt), _config.array_backend(backend))
    return _made(h, backend, dt)


def empty(n, dtype=np.float64, backend=None):
    return _factory("empty", n, dtype, backend)


def zeros(n, dtype=np.float64, backend=None):
    return _factory("zeros", n, dtype, backend)


def ones(n, dtype=np.float64, backend=None):
    return _factory("ones", n, dtype, backend)


def full(n, value, dtype=np.float64, backend=None):
    return _factory("full", n, dtype, backend, float(value))


def empty_like(ary):
    return empty(len(ary), ary.dtype, getattr(ary, "backend", None))


def zeros_like(ary):
    return zeros(len(ary), ary.dtype, getattr(ary, "backend", None))


def ones_like(ary):
    return ones(len(ary), ary.dtype, getattr(ary, "backend", None))


def arange(start, stop=None, step=1, dtype=None, backend=None):
    """NumPy's arange: ``arange(n)`` or ``arange(start, stop, step)``."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = np.result_type(*(np.asarray(v) for v in (start, stop, step)))
        dtype = np.int64 if dtype.kind in "iub" else np.float64
    backend = _config.get_backend(backend)
    dt = _dtype(dtype)
    ab = _config.array_backend(backend)
    if start == 0 and step == 1 and isinstance(stop, (int, np.integer)):
        h = _smelt.arange_n(int(stop), _storage(dt), ab)
    else:
        h = _smelt.arange(float(start), float(stop), float(step), _storage(dt), ab)
    return _made(h, backend, dt)


def linspace(start, stop, num, dtype=np.float64, backend=None, endpoint=True):
    backend = _config.get_backend(backend)
    dt = _dtype(dtype)
    h = _smelt.linspace(float(start), float(stop), int(num), _storage(dt), bool(endpoint),
                        _config.array_backend(backend))
    return _made(h, backend, dt)


def _as_array(x, backend=None):
    return x if isinstance(x, Array) else wrap(x, backend=backend)


def _backend_of(backend, *values):
    """The backend of an array function's call: `backend` when given, else that of the first
    smelt Array among `values` (lists searched too), else None (the config's). NumPy inputs are
    wrapped on it, so they join the Arrays' backend instead of the config's default."""
    if backend is not None:
        return backend
    for v in values:
        if isinstance(v, Array):
            return v.backend
        if isinstance(v, (list, tuple)):
            found = _backend_of(None, *v)
            if found is not None:
                return found
    return None


def _timed(name, fn, *args):
    cfg = _config._current
    if not cfg._values["profile"]:
        return fn(*args)
    import time
    start = time.perf_counter()
    out = fn(*args)
    _record(name, time.perf_counter() - start)
    return out


def sum(ary, backend=None):
    """The sum, in NumPy's result dtype (integers accumulate in 64 bits)."""
    from . import _ops
    return _ops.reduce(_as_array(ary, backend), "sum")


def minimum(ary, backend=None):
    """The smallest element (the dtype's largest value, or inf, for an empty array)."""
    from . import _ops
    return _ops.reduce(_as_array(ary, backend), "min")


def maximum(ary, backend=None):
    from . import _ops
    return _ops.reduce(_as_array(ary, backend), "max")


def dot(a1, a2, backend=None):
    from . import _ops
    backend = _backend_of(backend, a1, a2)
    return _ops.dot(_as_array(a1, backend), _as_array(a2, backend))


def cumsum(ary, backend=None, out=None):
    """Inclusive prefix sum into `out` (new when None; integers accumulate in 64 bits as in
    NumPy). Returns `out`."""
    from . import _ops
    return _ops.cumsum(_as_array(ary, _backend_of(backend, ary, out)), out)


def take(ary, indices, backend=None, out=None):
    """``out[i] = ary[indices[i]]``; an index out of range is a UsageError."""
    backend = _backend_of(backend, ary, indices, out)
    ary, indices = _as_array(ary, backend), _as_array(indices, backend)
    result = _made(_timed("take", _smelt.take, ary._h, indices._h), ary.backend, ary.dtype)
    if out is None:
        return result
    from . import _ops
    _ops.copy(result, out)
    return out


def where(condition, a, b, backend=None):
    """NumPy's three-argument where: ``out[i] = a[i] if condition[i] else b[i]``; a or b may be
    scalars."""
    condition = _as_array(condition, _backend_of(backend, condition, a, b))
    n = len(condition)
    dt = np.result_type(*(v.dtype if isinstance(v, (Array, np.ndarray)) else v for v in (a, b)))
    arrays = []
    for v in (a, b):
        if isinstance(v, (Array, np.ndarray)):
            v = _as_array(v, condition.backend)
            if v.dtype != dt:
                from . import _ops
                v = _ops.astype(v, dt)
        else:
            v = full(n, v, dt, condition.backend)
        arrays.append(v)
    return _made(_timed("where", _smelt.where, condition._h, arrays[0]._h, arrays[1]._h),
                 condition.backend, dt)


def argsort(ary, backend=None):
    """Indices (int64) that sort `ary` stably (radix sort; NaNs last)."""
    ary = _as_array(ary, backend)
    return _made(_timed("argsort", _smelt.argsort, ary._h, "int64"), ary.backend, np.int64)


def align(ary_list, order, out_list=None, backend=None):
    """Each array reordered by `order`: ``out[i] = ary[order[i]]``."""
    backend = _backend_of(backend, ary_list, order, out_list)
    arrays = [_as_array(a, backend) for a in ary_list]
    order = _as_array(order, backend)
    handles = _timed("align", _smelt.align, [a._h for a in arrays], order._h)
    result = [_made(h, a.backend, a.dtype) for h, a in zip(handles, arrays)]
    if out_list is None:
        return result
    from . import _ops
    for r, o in zip(result, out_list):
        _ops.copy(r, o)
    return list(out_list)


def sort_by_keys(ary_list, out_list=None, key_bits=None, backend=None, use_radix_sort=True):
    """Sorts by the first array (stably): returns the arrays reordered. ``key_bits`` and
    ``use_radix_sort`` are accepted for Compyle compatibility (the engine always radix sorts)."""
    backend = _backend_of(backend, ary_list, out_list)
    order = argsort(ary_list[0], backend)
    return align(ary_list, order, out_list, backend)

