"""ParPy's buffers: arrays that stay on a backend between calls.

A Buffer is a smelt Array (flat, in the backend's memory) with a shape and an element type.
Passing it to a jit function passes that memory: nothing is copied per call, whereas a NumPy
argument is copied to a GPU and back around every call. On the CPU (and the Python backend) a
Buffer made by ``from_array`` shares the NumPy array's memory.

Functions: ``empty(shape, dtype, backend)``, ``zeros(...)``, ``empty_like(b)``, ``zeros_like(b)``,
``from_array(a, backend)`` (a NumPy array, a torch tensor or a CuPy array; None as backend
gives a host buffer), ``sync(backend)`` (waits for the backend's work to finish). A buffer made
by ``from_array`` on a GPU writes its values back into the source array when it is
garbage-collected, as ParPy's do; ``numpy()`` gives them at any time.
"""

import math
import numbers

import numpy as np

from .. import errors
from .types import CompileBackend, ElemSize

__all__ = ["Buffer", "empty", "zeros", "empty_like", "zeros_like", "from_array", "sync"]

# The smelt.config backend name arrays of each CompileBackend live on.
_ARRAY_BACKEND = {CompileBackend.Cpu: "cpu", CompileBackend.Python: "python",
                  CompileBackend.OpenCL: "opencl", CompileBackend.Cuda: "cuda"}


def _backend(backend):
    """(CompileBackend, smelt array backend name) for a buffer's `backend` argument."""
    from .options import CompileOptions, resolve_backend
    if backend is None:
        return None, "cpu"
    if not isinstance(backend, CompileBackend):
        raise TypeError("a buffer's backend is a parpy.CompileBackend or None, not %r"
                        % (backend,))
    if backend in (CompileBackend.Auto, CompileBackend.Metal):
        opts = CompileOptions()
        opts.backend = backend
        backend = {"cuda": CompileBackend.Cuda, "opencl": CompileBackend.OpenCL,
                   "cpu": CompileBackend.Cpu}[resolve_backend(opts)]
    return backend, _ARRAY_BACKEND[backend]


def _dtype(dtype):
    if isinstance(dtype, ElemSize):
        return np.dtype(dtype.value)
    return np.dtype(dtype)


def _shape(shape):
    if isinstance(shape, (numbers.Integral, np.integer)):
        shape = (shape,)
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("a buffer's shape has no negative extents: %s" % (shape,))
    return shape


class Buffer:
    """An array on a backend: ``shape``, ``dtype`` (an ElemSize), ``backend`` (a
    CompileBackend, or None for a host buffer). Made by the module's functions, not directly."""

    def __init__(self, array, shape, backend, src=None):
        self._array = array  # smelt.Array, flat
        self.shape = tuple(shape)
        self.backend = backend
        self._src = src  # the array from_array copied (written back on release)

    @property
    def dtype(self):
        return ElemSize.of_dtype(self._array.dtype)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def on_host(self):
        """True when the buffer's memory is host memory (CPU and Python backends)."""
        return self._array._on_host

    def size(self):
        """Bytes the buffer holds."""
        return math.prod(self.shape) * self._array.dtype.itemsize

    def numpy(self):
        """The values as a NumPy array of the buffer's shape: on the host a view of the memory
        itself, on a GPU a copy."""
        if self.on_host:
            return self._array.data.reshape(self.shape)
        return self._array.get().reshape(self.shape)

    def torch(self):
        """The values as a torch tensor (through numpy(); torch must be importable)."""
        import torch
        return torch.as_tensor(self.numpy())

    def __array__(self, dtype=None, copy=None):
        out = self.numpy()
        if dtype is not None:
            out = out.astype(dtype, copy=False)
        return out.copy() if copy else out

    def copy(self):
        """A new buffer with the same values on the same backend."""
        return Buffer(self._array.copy(), self.shape, self.backend)

    def reshape(self, *dims):
        """The same memory seen with another shape of as many elements."""
        if len(dims) == 1 and not isinstance(dims[0], (numbers.Integral, np.integer)):
            dims = tuple(dims[0])
        shape = _shape(dims)
        if math.prod(shape) != math.prod(self.shape):
            raise ValueError("cannot reshape a buffer of shape %s to %s" % (self.shape, shape))
        return Buffer(self._array, shape, self.backend, self._src)

    def with_type(self, dtype):
        """The values as another element type: the same memory reinterpreted when the sizes
        agree (as ParPy does), else a converted copy."""
        dt = _dtype(dtype)
        if dt == self._array.dtype:
            return self
        if dt.itemsize == self._array.dtype.itemsize and self.on_host:
            return _host_buffer(self._array.data.view(dt), self.shape, self.backend)
        return from_array(self.numpy().view(dt) if dt.itemsize == self._array.dtype.itemsize
                          else self.numpy().astype(dt), self.backend)

    def sync(self):
        """Waits until the backend's work on the buffer is done."""
        sync(self.backend)

    def _scalar(self, convert):
        if self.shape not in ((), (1,)):
            raise ValueError("cannot convert a buffer of shape %s to a number" % (self.shape,))
        return convert(self.numpy().reshape(-1)[0])

    def __float__(self):
        return self._scalar(float)

    def __int__(self):
        return self._scalar(int)

    def __bool__(self):
        return self._scalar(bool)

    def __repr__(self):
        return "Buffer(shape=%s, dtype=%r, backend=%r)" % (self.shape, self.dtype, self.backend)

    def _release(self):
        """Writes a GPU buffer's values back into the array from_array copied them from."""
        src, self._src = self._src, None
        if src is None or self.on_host:
            return
        from .arrays import write_back
        write_back(src, self.numpy())

    def __del__(self):
        try:
            self._release()
        except Exception:  # noqa: BLE001  (interpreter shutdown: nothing left to write to)
            pass


def _host_buffer(host, shape, backend):
    from ..array import wrap
    flat = host.reshape(-1)
    return Buffer(wrap(flat, backend="cpu"), shape, backend)


def empty(shape, dtype, backend=None):
    """An uninitialised buffer of `shape` and `dtype` (an ElemSize or NumPy dtype)."""
    from ..array import empty as smelt_empty
    backend, name = _backend(backend)
    shape = _shape(shape)
    return Buffer(smelt_empty(math.prod(shape), _dtype(dtype), backend=name), shape, backend)


def zeros(shape, dtype, backend=None):
    """A buffer of zeros."""
    from ..array import zeros as smelt_zeros
    backend, name = _backend(backend)
    shape = _shape(shape)
    return Buffer(smelt_zeros(math.prod(shape), _dtype(dtype), backend=name), shape, backend)


def empty_like(b):
    return empty(b.shape, b.dtype, b.backend)


def zeros_like(b):
    return zeros(b.shape, b.dtype, b.backend)


def from_array(a, backend=None):
    """A buffer holding the values of `a` (NumPy array, torch tensor, CuPy array or Buffer).
    On the host a NumPy array's memory is shared (no copy); on a GPU the values are copied to
    the device, and back into `a` when the buffer is released."""
    from ..array import wrap
    from .arrays import host_view
    backend, name = _backend(backend)
    if isinstance(a, Buffer):
        if a.backend == backend:
            return a
        a = a.numpy()
    host, _ = host_view(a)
    if not host.flags.c_contiguous:
        raise errors.UsageError("buffers hold contiguous memory: this array is strided "
                                "(np.ascontiguousarray makes a contiguous copy)")
    shape = host.shape
    if name in ("cpu", "python"):
        return Buffer(wrap(host.reshape(-1), backend="cpu"), shape, backend)
    # A copy of its own: the engine keeps a wrapped array as the device array's host mirror,
    # and the source must only change when the buffer is released.
    return Buffer(wrap(host.reshape(-1).copy(), backend=name), shape, backend, src=a)


def sync(backend):
    """Waits until the work queued on `backend` (a CompileBackend) is done."""
    from .. import _smelt
    from .. import config as _config
    backend, name = _backend(backend)
    engine = _config.engine_backend(name)
    if engine is not None:
        _smelt.synchronize(engine)
