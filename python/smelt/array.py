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

from . import _ops
from . import _smelt
from . import backends as _backends
from . import config as _config
from . import errors
from .profile import record as _record

__all__ = ["Array", "wrap", "wrap_array", "to_device", "zeros", "ones", "empty", "zeros_like",
           "ones_like", "empty_like", "full", "arange", "linspace", "sum", "minimum", "maximum",
           "dot", "cumsum", "take", "where", "argsort", "sort_by_keys", "align", "diff", "trapz",
           "take_bool", "update_minmax_gpu", "get_backend"]

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
    """``Array(dtype, n=0, allocate=True, backend=None)``: an uninitialised array of n elements.

    Compyle's Array: ``a[i]``, ``a[i] = v`` (negative indices too), slices (views on the CPU,
    copies on a GPU), ``len``/``length``/``alloc``, ``reserve``/``resize``/``append``/``extend``/
    ``remove``/``squeeze``, ``get``/``set``/``get_data``/``set_data``, ``copy``/``copy_values``,
    ``update_min_max`` (sets ``minimum``/``maximum``), ``fill``, ``get_buff``/``get_view``,
    operators. ``allocate`` is accepted for Compyle compatibility (False: no elements)."""

    __slots__ = ("_h", "_bool", "_data", "_alloc", "_is_mask", "_shape", "backend", "minimum",
                 "maximum", "__weakref__")

    def __init__(self, dtype=np.float64, n=0, allocate=True, backend=None):
        dt = _dtype(dtype)
        self.backend = _config.get_backend(backend)
        n = int(n) if allocate else 0
        self._set(_smelt.empty(n, _storage(dt), _config.array_backend(self.backend)),
                  dt == np.bool_)

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
        self._alloc = handle.size
        self._is_mask = False  # a comparison's result: indexing with it selects (take_bool)
        self._shape = None  # reshape(): the extents kernels see (rank >= 2), else None
        self.minimum = self.maximum = 0

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
        """Compyle's device array: on the CPU backends the NumPy view of the memory itself (as
        Compyle's Cython backend gives, so ``a.dev[i]`` and ``a.dev[s:e]`` work), on a GPU the
        engine's array handle (not a PyOpenCL/PyCUDA array)."""
        return self.data if self._on_host else self._h

    @property
    def dtype(self):
        return np.dtype(np.bool_) if self._bool else np.dtype(self._h.dtype)

    @property
    def n(self):
        return self._h.size

    @property
    def length(self):
        """The number of elements (Compyle's name; ``len(a)`` too)."""
        return self._h.size

    @property
    def alloc(self):
        """Elements the array can hold before growing reallocates (``reserve`` sets it)."""
        return max(self._alloc, self._h.size)

    def __len__(self):
        return self._h.size

    @property
    def shape(self):
        """The extents kernels see: those given to ``reshape``, else ``(len(a),)``."""
        return self._shape if self._shape is not None else (self._h.size,)

    def reshape(self, *shape):
        """The same memory seen by kernels as a row-major array of `shape` (``a.reshape(3, 4)``
        or ``a.reshape((3, 4))``): an unannotated parameter given it is indexed ``x[i, j]``
        (docs/LANGUAGE.md, "Multi-dimensional arrays"). The Array's own API (``len``, indexing,
        ``data``) stays one-dimensional; the product of `shape` must be ``len(a)``."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(d) for d in shape)
        if not shape or any(d < 0 for d in shape) or int(np.prod(shape)) != self._h.size:
            raise errors.UsageError("reshape: an array of %d elements cannot have the shape %s"
                                    % (self._h.size, shape))
        out = Array._of(self._h, self.backend, self._bool, self._data)
        out._shape = shape if len(shape) >= 2 else None
        return out

    def __repr__(self):
        return "Array(%s, n=%d, backend=%r)" % (self.dtype, len(self), self.backend)

    def __str__(self):
        return str(self.get())

    def __array__(self, dtype=None, copy=None):
        self.pull()
        data = self.data if dtype is None else self.data.astype(dtype, copy=False)
        return data.copy() if copy else data

    @property
    def _on_host(self):
        return self._h.host_addressable

    # --- elements and slices ---
    def _index(self, key):
        n = self._h.size
        i = operator.index(key)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("index %d is out of bounds for an Array of %d elements" % (key, n))
        return i

    def __getitem__(self, key):
        """``a[i]`` a NumPy scalar of the array's dtype; ``a[start:stop:step]`` an Array (a view
        sharing the memory on the CPU, a copy on a GPU); ``a[indices]`` ``take``, and
        ``a[mask]`` with a bool (or comparison) mask ``take_bool``."""
        if isinstance(key, slice):
            return self._slice(key)
        if isinstance(key, (Array, np.ndarray)):
            mask_like = key.dtype == np.bool_ or (isinstance(key, Array) and key._is_mask)
            return take_bool(self, key) if mask_like else take(self, key)
        i = self._index(key)
        if self._on_host:
            return self.data[i]
        out = np.empty(1, self.dtype)
        self._h.read_range(i, out.view(np.uint8) if self._bool else out)
        return out[0]

    def __setitem__(self, key, value):
        if isinstance(key, slice):
            start, stop, step = key.indices(self._h.size)
            if self._on_host or step != 1:
                self.pull()
                self.data[key] = value
                self.push()
                return
            count = max(stop - start, 0)
            values = np.broadcast_to(np.asarray(value, self.dtype), (count,))
            self._write(start, values)
            return
        i = self._index(key)
        if self._on_host:
            self.data[i] = value
        else:
            self._write(i, np.asarray([value], self.dtype))

    def _write(self, offset, values):
        values = np.ascontiguousarray(values)
        if len(values):
            self._h.write_range(offset, values.view(np.uint8) if self._bool else values)

    def _slice(self, key):
        start, stop, step = key.indices(self._h.size)
        if step == 1 and self._on_host:
            view = self.data[start:max(start, stop)]
            return _wrap_one(view, self.backend)
        if step == 1:
            count = max(stop - start, 0)
            out = empty(count, self.dtype, self.backend)
            if count:
                out._h.copy_range(0, self._h, start, count)
            return out
        self.pull()
        return _wrap_one(np.ascontiguousarray(self.data[key]), self.backend)

    def get_view(self, offset=0, length=None):
        """``self[offset:offset + length]`` (to the end by default)."""
        stop = len(self) if length is None else offset + length
        return self[offset:stop]

    def get_array(self):
        return self[:len(self)]

    def get_buff(self, offset=0, length=0):
        """The host memory from `offset` (`length` elements, 0: to the end) as a NumPy view
        (after a pull on a GPU)."""
        self.pull()
        stop = len(self) if not length else offset + length
        return self.data[offset:stop]

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
        """Copies `values` into the array, resizing it to their length (Compyle's ``set``)."""
        values = np.asarray(values, dtype=self.dtype)
        if values.ndim != 1:
            raise errors.UsageError("set: expected a one-dimensional array, got shape %s"
                                    % (values.shape,))
        if len(values) != len(self):
            self.resize(len(values))
        if self._on_host:
            self.data[:] = values
        else:
            self._write(0, values)

    def get_data(self):
        """The host memory as a NumPy array (pulled first on a GPU)."""
        self.pull()
        return self.data

    def set_data(self, data):
        """Makes this array use `data`: another Array (then both share memory) or a NumPy array
        (wrapped as ``wrap`` does: its memory on the CPU, a device copy on a GPU)."""
        other = data if isinstance(data, Array) else _wrap_one(data, self.backend)
        if _config.array_backend(other.backend) != _config.array_backend(self.backend):
            raise errors.UsageError("set_data: the array lives on backend %r, this one on %r"
                                    % (other.backend, self.backend))
        self._set(other._h, other._bool, other._data)

    # --- size ---
    def resize(self, n):
        """Keeps the first min(n, len) elements (new ones are uninitialised). Views from
        ``.data`` taken before are invalid afterwards (as in Compyle); a wrapped array that
        grows stops aliasing the NumPy array."""
        n = int(n)
        if n > self.alloc:
            self.reserve(n)
        self._h.resize(n)
        self._data = None

    def reserve(self, n):
        """Makes room for `n` elements without changing the length."""
        n = int(n)
        if n > self.alloc:
            length = len(self)
            self._h.resize(n)
            self._h.resize(length)  # the engine keeps the larger allocation
            self._alloc = n
            self._data = None

    def squeeze(self):
        """Gives back the room beyond the length (``reserve``/``append`` left)."""
        if self.alloc > len(self):
            self._set(self._h.copy(), self._bool)

    def append(self, value):
        n = len(self)
        if n >= self.alloc:
            self.reserve(max(2 * n, 16))
        self.resize(n + 1)
        self[n] = value

    def extend(self, ary):
        """Appends the elements of `ary` (an Array or anything NumPy can convert)."""
        other = ary if isinstance(ary, Array) else None
        values = None if other is not None else np.asarray(ary, self.dtype).ravel()
        count = len(other) if other is not None else len(values)
        n = len(self)
        self.resize(n + count)
        if other is not None and other.dtype == self.dtype and (
                _config.array_backend(other.backend) == _config.array_backend(self.backend)):
            if count:
                self._h.copy_range(n, other._h, 0, count)
            return
        if values is None:
            values = np.asarray(other, self.dtype)
        self[n:n + count] = values

    def remove(self, indices, input_sorted=False):
        """Removes the elements at `indices` (an Array or integer array; duplicates count once),
        keeping the order of the others; computed by a scan on the array's backend."""
        if not isinstance(indices, Array):
            indices = wrap(np.ascontiguousarray(indices), backend=self.backend)
        _ops.remove(self, indices)

    # --- copies ---
    def copy(self):
        return Array._of(self._h.copy(), self.backend, self._bool)

    def copy_values(self, indices, dest):
        """``dest[k] = self[indices[k]]`` for every k < len(indices)."""
        if not isinstance(indices, Array) or not isinstance(dest, Array):
            raise TypeError("copy_values: indices and dest must be smelt Arrays")
        taken = take(self, indices)
        if len(taken) > len(dest):
            raise errors.UsageError("copy_values: dest has %d elements, %d are copied"
                                    % (len(dest), len(taken)))
        if len(taken):
            dest._h.copy_range(0, taken._h, 0, len(taken))

    def fill(self, value):
        _ops.fill(self, value)
        return self

    def align(self, indices, out=None):
        """A new array with ``out[i] = self[indices[i]]`` (into `out` when given)."""
        return take(self, indices, out=out)

    def update_min_max(self, only_min=False, only_max=False):
        """Sets ``self.minimum`` and ``self.maximum`` (NumPy scalars of the dtype)."""
        if only_min and only_max:
            raise ValueError("only one of only_min and only_max can be True")
        if not only_max:
            self.minimum = self.dtype.type(minimum(self))
        if not only_min:
            self.maximum = self.dtype.type(maximum(self))

    def empty_like(self):
        return empty(len(self), self.dtype, self.backend)

    def zeros_like(self):
        return zeros(len(self), self.dtype, self.backend)

    # --- element-wise comparisons and arithmetic (kernels from smelt/_kernels.py) ---
    def _binary(self, other, op, out_dtype=None):
        if isinstance(other, np.ndarray):
            other = wrap(other, backend=self.backend)
        return _ops.binary(self, other, op, out_dtype)

    def __lt__(self, other):
        return self._binary(other, "lt", _MASK)

    def __le__(self, other):
        return self._binary(other, "le", _MASK)

    def __gt__(self, other):
        return self._binary(other, "gt", _MASK)

    def __ge__(self, other):
        return self._binary(other, "ge", _MASK)

    def __eq__(self, other):
        return self._binary(other, "eq", _MASK)

    def __ne__(self, other):
        return self._binary(other, "ne", _MASK)

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


# Comparisons give int32 arrays of 0 and 1, as Compyle's do (kernels annotated ``intp`` take
# them); indexing with one selects like a bool mask.
_MASK = np.dtype(np.int32)


def _wrap_one(x, backend):
    if isinstance(x, Array):
        return _moved(x, backend)
    if not isinstance(x, np.ndarray):
        raise errors.UsageError("wrap: expected NumPy arrays, not %s" % type(x).__name__)
    if (x.dtype == np.float64 and _backends.on_device(backend)
            and not _config.get_config().use_double):
        # Compyle's rule: with use_double off, float arrays go to a GPU as float32 (a copy,
        # which .data then holds), so single-precision kernels take them.
        x = x.astype(np.float32)
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


def _moved(a, backend):
    """`a` on `backend`: itself when it is there already, the same memory under the new name
    for another CPU flavour ('cython', 'serial', 'python' share the CPU's memory), else a copy
    in the new backend's memory."""
    if a.backend == backend:
        return a
    if _config.array_backend(a.backend) == _config.array_backend(backend):
        return Array._of(a._h, backend, a._bool, a._data)
    return _wrap_one(a.get(), backend)


def wrap(*arrays, backend=None):
    """Wraps NumPy arrays as smelt Arrays of `backend` (default: the config's; on the CPU
    without copying: the kernels write into the NumPy arrays). A smelt Array of another backend
    moves there (a copy). One array gives one Array, several a list."""
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


def empty_like(ary, backend=None):
    return empty(len(ary), ary.dtype, backend or getattr(ary, "backend", None))


def zeros_like(ary, backend=None):
    return zeros(len(ary), ary.dtype, backend or getattr(ary, "backend", None))


def ones_like(ary, backend=None):
    return ones(len(ary), ary.dtype, backend or getattr(ary, "backend", None))


def arange(start, stop=None, step=1, dtype=None, backend=None):
    """NumPy's arange: ``arange(n)`` or ``arange(start, stop, step)``. The default dtype is
    Compyle's: int32 for integer arguments (float64 when one is a float)."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = np.result_type(*(np.asarray(v) for v in (start, stop, step)))
        dtype = np.int32 if dtype.kind in "iub" else np.float64
    backend = _config.get_backend(backend)
    dt = _dtype(dtype)
    ab = _config.array_backend(backend)
    if start == 0 and step == 1 and isinstance(stop, (int, np.integer)):
        h = _smelt.arange_n(int(stop), _storage(dt), ab)
    else:
        h = _smelt.arange(float(start), float(stop), float(step), _storage(dt), ab)
    return _made(h, backend, dt)


def linspace(start, stop, num, dtype=np.float64, backend=None, endpoint=True):
    if isinstance(num, bool) or not isinstance(num, (int, np.integer)):
        raise TypeError("linspace: num must be an integer, not %s" % type(num).__name__)
    if num <= 0:
        raise ValueError("linspace: the number of samples, %d, must be positive" % num)
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
    return _ops.reduce(_as_array(ary, backend), "sum")


def minimum(ary, backend=None):
    """The smallest element (the dtype's largest value, or inf, for an empty array)."""
    return _ops.reduce(_as_array(ary, backend), "min")


def maximum(ary, backend=None):
    return _ops.reduce(_as_array(ary, backend), "max")


def dot(a1, a2, backend=None):
    backend = _backend_of(backend, a1, a2)
    return _ops.dot(_as_array(a1, backend), _as_array(a2, backend))


def cumsum(ary, backend=None, out=None):
    """Inclusive prefix sum into `out` (new when None; integers accumulate in 64 bits as in
    NumPy). Returns `out`."""
    return _ops.cumsum(_as_array(ary, _backend_of(backend, ary, out)), out)


def take(ary, indices, backend=None, out=None):
    """``out[i] = ary[indices[i]]``; an index out of range is a UsageError."""
    backend = _backend_of(backend, ary, indices, out)
    ary, indices = _as_array(ary, backend), _as_array(indices, backend)
    result = _made(_timed("take", _smelt.take, ary._h, indices._h), ary.backend, ary.dtype)
    if out is None:
        return result
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
                v = _astype(v, dt)
        else:
            v = full(n, v, dt, condition.backend)
        arrays.append(v)
    return _made(_timed("where", _smelt.where, condition._h, arrays[0]._h, arrays[1]._h),
                 condition.backend, dt)


def _astype(a, dtype):
    """A copy of `a` converted to `dtype` (on the host, as NumPy converts)."""
    a.pull()
    return wrap(np.ascontiguousarray(a.data.astype(dtype)), backend=a.backend)


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
    for r, o in zip(result, out_list):
        _ops.copy(r, o)
    return list(out_list)


def sort_by_keys(ary_list, out_list=None, key_bits=None, backend=None, use_radix_sort=True):
    """Sorts by the first array (stably): returns the arrays reordered. ``key_bits`` and
    ``use_radix_sort`` are accepted for Compyle compatibility (the engine always radix sorts)."""
    backend = _backend_of(backend, ary_list, out_list)
    order = argsort(ary_list[0], backend)
    return align(ary_list, order, out_list, backend)



def diff(a, n=1, backend=None):
    """NumPy's ``diff(a, n)``: the n-th discrete difference (``out[i] = a[i+1] - a[i]``
    applied n times), in a's dtype; ``n == 0`` returns `a` itself, as Compyle does."""
    if n < 0:
        raise ValueError("diff: the order must be non-negative, not %r" % (n,))
    a = _as_array(a, _backend_of(backend, a))
    if n == 0:
        return a
    if len(a) < n + 1:
        raise ValueError("diff: the array needs at least n+1 = %d elements, it has %d"
                         % (n + 1, len(a)))
    for _ in range(n):
        a = _ops.diff1(a)
    return a


def trapz(y, x=None, dx=1.0, backend=None):
    """NumPy's trapezoidal rule ``trapz(y, x=None, dx=1.0)``, one reduction on y's backend;
    float64 for integer inputs (as NumPy)."""
    backend = _backend_of(backend, y, x)
    y = _as_array(y, backend)
    if x is not None:
        x = _as_array(x, y.backend)
        if len(x) != len(y):
            raise errors.UsageError("trapz: x has %d elements, y %d" % (len(x), len(y)))
    return _ops.trapz(y, x, dx)


def take_bool(ary, condition, backend=None):
    """The elements of `ary` where `condition` (bool or integer, same length) is non-zero, in
    order (NumPy's ``ary[condition != 0]``): a scan of the condition places them."""
    backend = _backend_of(backend, ary, condition)
    ary, condition = _as_array(ary, backend), _as_array(condition, backend)
    if len(condition) != len(ary):
        raise errors.UsageError("take_bool: the condition has %d elements, the array %d"
                                % (len(condition), len(ary)))
    return _ops.take_bool(ary, condition)


def update_minmax_gpu(ary_list, only_min=False, only_max=False, backend=None):
    """Sets ``minimum`` and ``maximum`` of every Array in `ary_list` (on any backend)."""
    for a in ary_list:
        a.update_min_max(only_min, only_max)


get_backend = _config.get_backend
