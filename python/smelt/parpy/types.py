"""ParPy's small types: ElemSize, Target, CompileBackend and LoopPar.

They carry no engine state, so this module imports only NumPy (and ctypes / torch on demand).
"""

import ctypes
import enum

import numpy as np

__all__ = ["ElemSize", "Target", "CompileBackend", "LoopPar"]


class ElemSize(enum.Enum):
    """The element types of ParPy arrays; the value is the NumPy dtype name."""

    Bool = "bool"
    I8 = "int8"
    I16 = "int16"
    I32 = "int32"
    I64 = "int64"
    U8 = "uint8"
    U16 = "uint16"
    U32 = "uint32"
    U64 = "uint64"
    F16 = "float16"
    F32 = "float32"
    F64 = "float64"

    def size(self):
        """Bytes per element."""
        return np.dtype(self.value).itemsize

    def to_numpy(self):
        """The NumPy scalar type (``ElemSize.I32.to_numpy()`` is ``numpy.int32``)."""
        return np.dtype(self.value).type

    def to_torch(self):
        """The PyTorch dtype. PyTorch has no uint16/32/64, so those raise a TypeError; torch
        must be importable."""
        import torch
        found = getattr(torch, self.value, None) if self not in _NO_TORCH else None
        if found is None:
            raise TypeError("PyTorch has no type for %s" % self.name)
        return found

    def to_ctype(self):
        """The ctypes type. ctypes has no 16-bit float, so F16 raises a TypeError."""
        if self is ElemSize.F16:
            raise TypeError("ctypes has no 16-bit floating-point type (ElemSize.F16)")
        return _CTYPES[self]

    @classmethod
    def of_dtype(cls, dtype):
        """The ElemSize of a NumPy dtype (ValueError when ParPy has none)."""
        try:
            return cls(np.dtype(dtype).name)
        except ValueError:
            raise ValueError("ParPy has no element type for %s" % np.dtype(dtype)) from None

    def __repr__(self):
        return "ElemSize.%s" % self.name


_NO_TORCH = (ElemSize.U16, ElemSize.U32, ElemSize.U64)
_CTYPES = {
    ElemSize.Bool: ctypes.c_bool, ElemSize.I8: ctypes.c_int8, ElemSize.I16: ctypes.c_int16,
    ElemSize.I32: ctypes.c_int32, ElemSize.I64: ctypes.c_int64, ElemSize.U8: ctypes.c_uint8,
    ElemSize.U16: ctypes.c_uint16, ElemSize.U32: ctypes.c_uint32, ElemSize.U64: ctypes.c_uint64,
    ElemSize.F32: ctypes.c_float, ElemSize.F64: ctypes.c_double,
}


class Target(enum.Enum):
    """Where an external function runs: on the host (sequential code) or the device (parallel
    code)."""

    Host = "host"
    Device = "device"

    def __repr__(self):
        return "Target.%s" % self.name


class CompileBackend(enum.Enum):
    """The backend a function is compiled for. ``Auto``, ``Cuda`` and ``Metal`` are ParPy's;
    ``Cpu`` (C++ with OpenMP), ``OpenCL`` and ``Python`` (CPython on NumPy, the test oracle)
    are Smelt's. Smelt has no Metal backend: asking for it is an error."""

    Auto = "auto"
    Cuda = "cuda"
    Metal = "metal"
    Cpu = "cpu"
    OpenCL = "opencl"
    Python = "python"

    def __repr__(self):
        return "CompileBackend.%s" % self.name


class LoopPar:
    """How the statements with one label run in parallel: ``threads`` (work-items on GPUs; 0:
    the engine's choice), ``reduce`` (the loop is a reduction) and ``tpb`` (threads per block
    on GPUs; 0: the engine's default, 256). Immutable: ``threads(n)``, ``reduce()`` and
    ``tpb(n)`` return new objects."""

    __slots__ = ("_nthreads", "_reduce", "_tpb")

    def __init__(self):
        self._nthreads = 0
        self._reduce = False
        self._tpb = 0

    def _with(self, **changes):
        new = LoopPar.__new__(LoopPar)
        new._nthreads = changes.get("nthreads", self._nthreads)
        new._reduce = changes.get("reduce", self._reduce)
        new._tpb = changes.get("tpb", self._tpb)
        return new

    def threads(self, nthreads):
        """A copy asking for `nthreads` threads (a positive integer)."""
        return self._with(nthreads=_positive("threads", nthreads))

    def reduce(self):
        """A copy marked as a parallel reduction."""
        return self._with(reduce=True)

    def tpb(self, tpb):
        """A copy asking for `tpb` threads per block (a positive integer)."""
        return self._with(tpb=_positive("tpb", tpb))

    @property
    def nthreads(self):
        return self._nthreads

    @property
    def is_reduction(self):
        return self._reduce

    @property
    def threads_per_block(self):
        return self._tpb

    def is_parallel(self):
        return self._nthreads > 0

    def __setattr__(self, name, value):
        if hasattr(self, "_tpb"):  # set once by __init__/_with, then frozen
            raise AttributeError("LoopPar is immutable: use threads(), reduce() or tpb(), which "
                                 "return a new LoopPar")
        object.__setattr__(self, name, value)

    def _key(self):
        return (self._nthreads, self._reduce, self._tpb)

    def __eq__(self, other):
        return isinstance(other, LoopPar) and other._key() == self._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "LoopPar(threads=%d, reduce=%s, tpb=%d)" % self._key()


def _positive(what, n):
    import numbers
    if isinstance(n, bool) or not isinstance(n, (numbers.Integral, np.integer)) or n <= 0:
        raise ValueError("LoopPar.%s expects a positive integer, not %r" % (what, n))
    return int(n)


# ParPy's ``parpy.types`` names: the element sizes by themselves (annotations of externals,
# ``def popcount(n: parpy.types.I32) -> parpy.types.I32``) and pointers to them.
Bool, I8, I16, I32, I64 = ElemSize.Bool, ElemSize.I8, ElemSize.I16, ElemSize.I32, ElemSize.I64
U8, U16, U32, U64 = ElemSize.U8, ElemSize.U16, ElemSize.U32, ElemSize.U64
F16, F32, F64 = ElemSize.F16, ElemSize.F32, ElemSize.F64


class Pointer:
    """A pointer to elements of an ElemSize (an external's array parameter)."""

    __slots__ = ("elem",)

    def __init__(self, elem):
        if not isinstance(elem, ElemSize):
            raise TypeError("parpy.types.pointer takes an ElemSize, not %r" % (elem,))
        self.elem = elem

    def __eq__(self, other):
        return isinstance(other, Pointer) and other.elem == self.elem

    def __hash__(self):
        return hash(("pointer", self.elem))

    def __repr__(self):
        return "pointer(%r)" % (self.elem,)


def pointer(elem):
    """``parpy.types.pointer(parpy.types.F32)``: the type of a float32 array parameter."""
    return Pointer(elem)
