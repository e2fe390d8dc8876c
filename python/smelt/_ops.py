"""Array operators and reductions built from the kernels of _kernels.py with the public
primitives (so they run on every backend and show up in the profile). Result dtypes follow
NumPy; the arithmetic itself follows the kernel language (C promotion of the operand types).

smelt.array (Array's methods and the array functions) calls this module, so it imports nothing
of smelt.array: it takes smelt Arrays as operands (smelt.array converts NumPy ones first) and
makes its results with their class (see `_new`)."""

import numpy as np

from . import _kernels
from . import errors
from .config import engine_backend, get_config
from .parallel import Elementwise, Reduction, Scan

_PRIMS = {}


def _prim(key, make):
    p = _PRIMS.get(key)
    if p is None:
        p = _PRIMS[key] = make()
    return p


def _new(like, n, dtype):
    """An uninitialised array of n elements of `dtype` on like's backend: Array(dtype, n,
    backend=...) is smelt.array.empty's (and Compyle's) constructor."""
    return type(like)(dtype, n, backend=like.backend)


def _precision_key():
    return bool(get_config().use_double)


def elementwise(name, backend):
    key = ("ew", name, backend, engine_backend(backend), _precision_key())
    return _prim(key, lambda: Elementwise(getattr(_kernels, name), backend=backend))


def binary(a, other, op, out_dtype=None):
    """a <op> other for op in lt le gt ge eq ne add sub mul div rsub rdiv; `other` is an Array
    of a's class or a number."""
    n = len(a)
    if isinstance(other, type(a)):
        if len(other) != n:
            raise errors.UsageError("operands have different lengths (%d and %d)" % (n, len(other)))
        if op in ("rsub", "rdiv"):
            a, other, op = other, a, op[1:]
        dt = out_dtype or (np.result_type(a.dtype, other.dtype, np.float64)
                           if op == "div" and a.dtype.kind in "iub" and other.dtype.kind in "iub"
                           else np.result_type(a.dtype, other.dtype))
        out = _new(a, n, dt)
        out._is_mask = out_dtype is not None
        elementwise(op, a.backend)(a, other, out)
        return out
    if not isinstance(other, (int, float, bool, np.number, np.bool_)):
        return NotImplemented
    dt = out_dtype or np.result_type(a.dtype, other)
    if op in ("div", "rdiv") and np.dtype(dt).kind in "iub":
        dt = np.float64
    scalar = other if out_dtype is not None else np.dtype(dt).type(other)
    out = _new(a, n, dt)
    out._is_mask = out_dtype is not None
    elementwise(op + "_s", a.backend)(a, scalar, out)
    return out


def copy(src, dst):
    if len(src) != len(dst):
        raise errors.UsageError("out has %d elements, expected %d" % (len(dst), len(src)))
    elementwise("copy", src.backend)(src, dst)


def _accumulator(dt):
    """NumPy's dtype for sums and cumulative sums of `dt`."""
    dt = np.dtype(dt)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return np.dtype(np.int64)
    if dt.kind == "u" and dt.itemsize < 8:
        return np.dtype(np.uint64)
    return dt


def _extreme(dt, largest):
    dt = np.dtype(dt)
    if dt.kind == "f":
        return "INFINITY" if largest else "-INFINITY"
    info = np.iinfo(np.uint8 if dt.kind == "b" else dt)
    v = info.max if largest else info.min
    # Engine literals are signed 64-bit: the extremes that do not fit are spelled by wrapping.
    if v >= 2**63:
        return "-1"  # converted to uint64: its largest value
    return str(v) if v > -2**63 else "(-9223372036854775807 - 1)"


def reduce(a, kind):
    store = np.dtype(np.uint8) if a.dtype == np.bool_ else a.dtype
    if kind == "sum":
        expr, dt, neutral = "a+b", _accumulator(store), "0"
    else:
        expr = "min(a, b)" if kind == "min" else "max(a, b)"
        dt, neutral = store, _extreme(store, kind == "min")
    key = ("red", kind, dt, a.backend, engine_backend(a.backend), _precision_key())
    r = _prim(key, lambda: Reduction(expr, dtype_out=dt, neutral=neutral, backend=a.backend))
    return r(a)


def dot(a, b):
    if len(a) != len(b):
        raise errors.UsageError("dot: lengths differ (%d and %d)" % (len(a), len(b)))
    dt = np.result_type(a.dtype, b.dtype)
    key = ("dot", dt, a.backend, engine_backend(a.backend), _precision_key())
    r = _prim(key, lambda: Reduction("a+b", map_func=_kernels.dot_map, dtype_out=dt, backend=a.backend))
    return r(a, b)


def cumsum(a, out=None):
    store = np.dtype(np.uint8) if a.dtype == np.bool_ else a.dtype
    dt = _accumulator(store)
    if out is None:
        out = _new(a, len(a), dt)
    elif len(out) != len(a):
        raise errors.UsageError("cumsum: out has %d elements, expected %d" % (len(out), len(a)))
    key = ("cumsum", dt, a.backend, engine_backend(a.backend), _precision_key())
    s = _prim(key, lambda: Scan(_kernels.cumsum_in, _kernels.cumsum_out, "a+b", dtype=dt,
                                backend=a.backend))
    s(ary=a, out=out)
    return out




def _scan(key, input_name, output_name, dt, backend):
    full_key = ("scan", key, np.dtype(dt), backend, engine_backend(backend), _precision_key())
    return _prim(full_key, lambda: Scan(getattr(_kernels, input_name),
                                        getattr(_kernels, output_name), "a+b", dtype=dt,
                                        backend=backend))


def _map_reduction(key, map_name, dt, backend):
    full_key = ("mapred", key, np.dtype(dt), backend, engine_backend(backend), _precision_key())
    return _prim(full_key, lambda: Reduction("a+b", map_func=getattr(_kernels, map_name),
                                             dtype_out=dt, backend=backend))


def _store_scalar(a, value):
    """`value` as the scalar type a kernel stores into `a` (bool arrays hold bytes)."""
    if a.dtype == np.bool_:
        return np.uint8(bool(value))
    return a.dtype.type(value)


def fill(a, value):
    if len(a):
        elementwise("fill_s", a.backend)(a, _store_scalar(a, value))


def diff1(a):
    out = _new(a, len(a) - 1, a.dtype)
    if len(out):
        elementwise("diff1", a.backend).call_n(len(out), a, out)
    return out


def trapz(y, x, dx):
    """NumPy's trapz in its result dtype: float64 unless every input is float32."""
    floats = [v.dtype for v in (y, x) if v is not None]
    dt = np.dtype(np.float32) if all(d == np.float32 for d in floats) else np.dtype(np.float64)
    if x is None:
        if len(y) < 2:
            return dt.type(0.0)
        ends = float(y[0]) + float(y[-1])
        return dt.type((float(reduce(y, "sum")) - 0.5 * ends) * dx)
    r = _map_reduction("trapz", "trapz_map", np.float64, y.backend)
    return dt.type(0.5 * r(x, y, np.int64(max(len(y) - 1, 0))))


def count_nonzero(c):
    return int(_map_reduction("nonzero", "nonzero_map", np.int64, c.backend)(c))


def take_bool(ary, condition):
    out = _new(ary, count_nonzero(condition), ary.dtype)
    if len(out):
        _scan("select", "select_in", "select_out", np.int64, ary.backend)(
            condition=condition, ary=ary, out=out)
    return out


def remove(a, indices):
    """Removes a's elements at `indices` (an Array on a's backend) in place (Array.remove)."""
    if indices.dtype.kind not in "iu":
        raise errors.UsageError("remove: indices must be integers, not %s" % indices.dtype)
    n = len(a)
    if len(indices) == 0:
        return
    lo, hi = reduce(indices, "min"), reduce(indices, "max")
    if lo < 0 or hi >= n:
        raise IndexError("remove: index %d is out of bounds for an Array of %d elements"
                         % (lo if lo < 0 else hi, n))
    flags = _new(a, n, np.int32)
    fill(flags, 0)
    elementwise("mark", a.backend)(indices, flags)
    kept = n - int(reduce(flags, "sum"))
    out = _new(a, kept, a.dtype)
    if kept:
        _scan("keep", "keep_in", "keep_out", np.int64, a.backend)(flags=flags, src=a, out=out)
    a._set(out._h, a._bool)
