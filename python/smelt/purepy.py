"""The CPython meaning of Smelt's kernel language.

A kernel file is valid Python 3: with ``from smelt import *`` at its top it runs in CPython on
NumPy arrays, and this module gives every name the language defines (``annotate``, ``declare``,
``cast``, the atomics, the math builtins, the type objects ...) a CPython meaning that agrees
with the engine's up to floating-point rounding. Operators on NumPy scalars follow NumPy's own
promotion rules, which are not the language's and changed in NumPy 2;
``smelt._language.language(func)`` runs a function with the language's typing instead, the same
under NumPy 1.x and 2.x: the test oracle (tests/semantics/oracle.py) and backend='python' use it.
This module imports no other module of the package (the bottom layer, docs/PYTHON.md), so kernel
files and the oracle use it without the engine's extension module.

Choices made here, each one because the engine means it that way:
- ``declare`` returns zero of the declared NumPy type (``declare('int')`` is ``np.int32(0)``)
  and ``declare('matrix(...)')`` a zeroed NumPy array; matrix extents may name module
  constants of the calling kernel's module.
- The math functions return the float type the engine computes in: a ``float32`` argument stays
  ``float32``, anything else (integers included) becomes ``float64``. ``floor``, ``ceil`` and
  ``trunc`` return floats, as C's do (``math.floor`` would return a Python int).
- ``atomic_inc(x[i])`` receives the *value* of ``x[i]`` in CPython, not a reference. To update
  the array anyway, the atomics look at the calling frame: Python 3.11's code positions give the
  exact source span of the call, whose argument expression ``x[i]`` is parsed once (cached) and
  its array and index re-evaluated in the caller's frame. So the index expression is evaluated
  twice; in the kernel language it is side-effect free unless it calls a function that has side
  effects (do not do that). On older Pythons, or without the source file, the atomics raise
  RuntimeError with this explanation. CPython runs work items one at a time, so read-modify-write
  is trivially atomic.
- Work-item names describe a single work item in a group of one: ``LID_0 == GID_0 == 0``,
  ``LDIM_0 == GDIM_0 == 1``; ``local_barrier()`` does nothing.
"""

import ast as _ast
import inspect as _inspect
import linecache as _linecache
import math as _math
import sys as _sys
import warnings as _warnings

import numpy as _np

# ---------------------------------------------------------------------------------------------
# Type objects


class KnownType:
    """A kernel-language type: a scalar (``int_``, ``double``) or a 1-D array (``doublep``,
    ``gdoublep``, ``ldoublep``). ``name`` is the spelling the engine parses; ``dtype`` the NumPy
    element type. Calling a scalar type converts a value with C's wrapping (``int_(2**32 + 1)``
    is ``np.int32(1)``)."""

    __slots__ = ("name", "dtype", "is_pointer", "space")

    def __init__(self, name, dtype=None, is_pointer=False, space="global"):
        if dtype is None or isinstance(dtype, str):
            # Compyle's form: KnownType(type_str, base_type=''), e.g. KnownType('float*',
            # 'float') or KnownType('GLOBAL_MEM unsigned int*', 'unsigned int').
            known = type_of(name) if name in _TYPES or _from_c_spelling(name) else None
            if known is None:
                raise ValueError(
                    "KnownType(%r): smelt kernels use the language's scalar and array types "
                    "only ('int', 'unsigned int', 'double*', 'GLOBAL_MEM float*', ...), not "
                    "custom (struct) types" % (name,))
            name, dtype, is_pointer, space = (known.name, known.dtype, known.is_pointer,
                                              known.space)
        self.name = name
        self.dtype = _np.dtype(dtype)
        self.is_pointer = is_pointer
        self.space = space

    @property
    def type(self):
        """Compyle's C spelling: 'double', 'unsigned int', 'double*', 'GLOBAL_MEM double*',
        'LOCAL_MEM float*'."""
        c = _C_SPELLING[self.dtype]
        if not self.is_pointer:
            return c
        if self.space == "local":
            return "LOCAL_MEM %s*" % c
        return ("GLOBAL_MEM %s*" if self.name.startswith("g") else "%s*") % c

    @property
    def base_type(self):
        """Compyle's base type: the element's C spelling for pointers, '' for scalars."""
        return _C_SPELLING[self.dtype] if self.is_pointer else ""

    @property
    def scalar_name(self):
        """The element's kernel-language name: 'double' for 'gdoublep'."""
        return _DTYPE_TO_NAME[self.dtype]

    def __call__(self, value):
        if self.is_pointer:
            return _np.asarray(value, dtype=self.dtype)
        return _convert(value, self.dtype)

    def __eq__(self, other):
        return isinstance(other, KnownType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "KnownType(%r)" % self.name

    __str__ = lambda self: self.name


# The language's scalar names and their NumPy types (LANGUAGE.md, "Types").
_SCALARS = {
    "bool": _np.bool_,
    "char": _np.int8,
    "uchar": _np.uint8,
    "short": _np.int16,
    "ushort": _np.uint16,
    "int": _np.int32,
    "uint": _np.uint32,
    "long": _np.int64,
    "ulong": _np.uint64,
    "float": _np.float32,
    "double": _np.float64,
}
_DTYPE_TO_NAME = {_np.dtype(t): n for n, t in _SCALARS.items()}
_C_SPELLING = {_np.dtype(t): n for n, t in _SCALARS.items()}
_C_SPELLING.update({_np.dtype(_np.uint8): "unsigned char", _np.dtype(_np.uint16): "unsigned short",
                    _np.dtype(_np.uint32): "unsigned int", _np.dtype(_np.uint64): "unsigned long"})

_TYPES = {}  # every spelling the engine's parse_type_name accepts → KnownType
for _n, _t in _SCALARS.items():
    _TYPES[_n] = _TYPES[_n + "_"] = KnownType(_n, _t)
    if _n == "bool":
        continue  # no bool arrays, as in the engine
    _TYPES[_n + "p"] = _TYPES[_n + "_p"] = KnownType(_n + "p", _t, True)
    _TYPES["g" + _n + "p"] = KnownType("g" + _n + "p", _t, True, "global")
    _TYPES["l" + _n + "p"] = KnownType("l" + _n + "p", _t, True, "local")

# Module-level names: Compyle's `int_`, `float_`, ... and every spelling that does not shadow
# a Python builtin (`int`, `float`, `bool` stay Python's own).
_TYPE_EXPORTS = {n: t for n, t in _TYPES.items() if n not in ("int", "float", "bool") and "_p" not in n}
globals().update(_TYPE_EXPORTS)


_C_NAMES = {"unsigned char": "uchar", "signed char": "char", "unsigned short": "ushort",
            "unsigned int": "uint", "unsigned": "uint", "unsigned long": "ulong",
            "long long": "long", "unsigned long long": "ulong", "long int": "long",
            "unsigned long int": "ulong"}


def _from_c_spelling(text):
    """Compyle's C spellings ('unsigned int', 'double*', 'GLOBAL_MEM float*', 'LOCAL_MEM int*')
    as the language's names ('uint', 'doublep', 'gfloatp', 'lintp'), as the engine's
    parse_type_name reads them; None when `text` is not one."""
    words = text.replace("*", " * ").split()
    prefix = ""
    if words and words[0] in ("GLOBAL_MEM", "__global", "LOCAL_MEM", "__local"):
        prefix = "l" if words[0] in ("LOCAL_MEM", "__local") else "g"
        words = words[1:]
    pointer = bool(words) and words[-1] == "*"
    if pointer:
        words = words[:-1]
    base = _C_NAMES.get(" ".join(words), " ".join(words))
    if not words or (prefix and not pointer) or base not in _SCALARS:
        return None
    return prefix + base + "p" if pointer else base


def type_of(spec):
    """The KnownType for a type name string (the language's names and Compyle's C spellings)
    or a KnownType; ValueError when unknown."""
    if isinstance(spec, KnownType):
        return spec
    if isinstance(spec, str):
        text = spec.strip()
        if text in _TYPES:
            return _TYPES[text]
        ours = _from_c_spelling(text)
        if ours in _TYPES:
            return _TYPES[ours]
    raise ValueError("unknown type %r: expected a name such as 'int', 'double' or 'doublep'" % (spec,))


def _convert(value, dtype):
    """`value` as a NumPy scalar of `dtype`, wrapping integers modulo 2**width and truncating
    floats toward zero, as the engine's conversions do."""
    dtype = _np.dtype(dtype)
    if dtype == _np.bool_:
        return _np.bool_(value != 0)
    if isinstance(value, (bool, _np.bool_)):
        value = int(value)
    if isinstance(value, int) and not isinstance(value, _np.generic):
        value = ((value + 2**63) % 2**64) - 2**63  # into int64 first; astype then wraps
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore")
        with _np.errstate(all="ignore"):
            return _np.asarray(value).astype(dtype)[()]


# ---------------------------------------------------------------------------------------------
# annotate and the declared types of a function


def _split_names(text):
    return [n.strip() for n in text.split(",") if n.strip()]


def _type_from_default(value):
    if isinstance(value, list) and len(value) == 1:
        inner = _type_from_default(value[0])
        return None if inner is None or inner.name == "bool" else _TYPES[inner.name + "p"]
    if isinstance(value, bool):
        return _TYPES["bool"]
    if isinstance(value, int):
        return _TYPES["long"]
    if isinstance(value, float):
        return _TYPES["double"]
    return None


def declared_types(func):
    """{parameter name: KnownType} for the parameters whose type the source declares (by
    ``@annotate`` or Python annotations), plus ``'return'`` when declared. Unannotated ``i``
    and ``N`` are ``long``, as in the engine. Default values do not declare a type: as in
    Compyle, the call's argument types the parameter (see `default_types`)."""
    sig = _inspect.signature(func)
    out = {}
    for name, t in getattr(func, "__annotations__", {}).items():
        try:
            out[name] = type_of(t)
        except ValueError:
            pass  # an annotation meant for something else; the engine would report it
    for name in sig.parameters:
        if name not in out and name in ("i", "N"):
            out[name] = _TYPES["long"]
    return out


def default_types(func):
    """{parameter name: KnownType} suggested by the default values of unannotated parameters
    (``0`` → long, ``0.0`` → double, ``[0.0]`` → doublep): the type a parameter gets only where
    no call gives it one (the engine compiling the function alone)."""
    declared = getattr(func, "__annotations__", {})
    out = {}
    for name, p in _inspect.signature(func).parameters.items():
        if name not in declared and p.default is not _inspect.Parameter.empty:
            t = _type_from_default(p.default)
            if t is not None:
                out[name] = t
    return out


def _record(func, kw):
    params = list(_inspect.signature(func).parameters)
    types = {}

    def put(name, t):
        if name in types and types[name] != t:
            raise TypeError("parameter %r of %r is given two different types (%s and %s)"
                            % (name, func.__name__, types[name], t))
        types[name] = t

    for key, value in kw.items():
        if key == "return_":
            types["return"] = type_of(value)
        elif key in params:  # i='int'
            put(key, type_of(value))
        else:  # doublep='x, y'
            t = type_of(key)  # ValueError: neither a parameter nor a type name
            if not isinstance(value, str):
                raise TypeError("expected a string of parameter names, e.g. %s='x, y'" % key)
            for name in _split_names(value):
                if name == "return_":  # Compyle's int='n, return_': the result's type
                    types["return"] = t
                    continue
                if name not in params:
                    raise TypeError("%r is not a parameter of %r" % (name, func.__name__))
                put(name, t)
    for name, t in getattr(func, "__annotations__", {}).items():
        try:
            put(name, type_of(t))
        except ValueError:
            types.setdefault(name, t)
    # Compyle's convention: the types live in __annotations__, as KnownType objects.
    func.__annotations__ = types
    func.__smelt_kernel__ = True
    return func


def annotate(func=None, **kw):
    """``@annotate(i='int', x='doublep', return_='double')``, ``@annotate(int='i, n',
    doublep='x, y')`` or bare ``@annotate``: records the types in ``func.__annotations__``
    (KnownType values, the result under ``'return'``) and returns ``func`` itself."""
    if func is not None:
        if kw or not callable(func):
            raise TypeError("annotate() takes keyword arguments only, e.g. @annotate(i='int', x='doublep')")
        return _record(func, {})
    return lambda f: _record(f, kw)


def _identity_decorator(name):
    def decorator(func=None, **options):
        if func is not None and callable(func) and not options:
            func.__smelt_kernel__ = True
            return func

        def wrap(f):
            f.__smelt_kernel__ = True
            return f

        return wrap

    decorator.__name__ = name
    decorator.__doc__ = ("``@%s`` / ``@%s(...)``: marks a kernel for the engine; in CPython the "
                         "function is returned unchanged." % (name, name))
    return decorator


elementwise = _identity_decorator("elementwise")
jit = _identity_decorator("jit")
kernel = _identity_decorator("kernel")

# ---------------------------------------------------------------------------------------------
# declare and cast

LOCAL_MEM = "LOCAL_MEM"


def _parse_matrix(text, module_globals):
    """'matrix(3)' / "matrix((2, 2), 'int')" → (shape, dtype)."""
    try:
        call = _ast.parse(text, mode="eval").body
    except SyntaxError:
        call = None
    if not (isinstance(call, _ast.Call) and isinstance(call.func, _ast.Name) and call.func.id == "matrix"
            and 1 <= len(call.args) <= 2 and not call.keywords):
        raise ValueError("cannot declare %r: expected 'matrix(3)' or \"matrix((2, 2), 'int')\"" % text)

    def extent(node):
        if isinstance(node, _ast.Constant) and isinstance(node.value, int):
            value = node.value
        elif isinstance(node, _ast.Name) and isinstance(module_globals.get(node.id), int):
            value = module_globals[node.id]  # a module constant of the kernel's file
        else:
            raise ValueError("cannot declare %r: extents must be positive integer constants" % text)
        if value <= 0:
            raise ValueError("cannot declare %r: extents must be positive" % text)
        return value

    dims = call.args[0]
    shape = tuple(extent(d) for d in dims.elts) if isinstance(dims, _ast.Tuple) else (extent(dims),)
    dtype = _np.float64
    if len(call.args) == 2:
        elem = call.args[1]
        if not (isinstance(elem, _ast.Constant) and isinstance(elem.value, str)):
            raise ValueError("cannot declare %r: the element type must be a string" % text)
        t = type_of(elem.value)
        if t.is_pointer:
            raise ValueError("cannot declare %r: matrix elements must be scalars" % text)
        dtype = t.dtype
    return shape, dtype


def declare(spec, count=1):
    """Zero of the declared type: ``declare('int')`` → ``np.int32(0)``, ``declare('matrix(3)')``
    → ``np.zeros(3)``, ``declare("matrix((2, 2), 'int')")`` → int32 zeros of shape (2, 2);
    ``declare('double', 2)`` → a tuple of two. ``LOCAL_MEM`` is accepted and ignored."""
    if not isinstance(spec, str):
        spec = type_of(spec).name
    text = spec.strip()
    if text.startswith("LOCAL_MEM"):  # one work item's view: local memory is ordinary memory
        text = text[len("LOCAL_MEM"):].strip()
    if text.startswith("matrix"):
        shape, dtype = _parse_matrix(text, _sys._getframe(1).f_globals)
        make = lambda: _np.zeros(shape, dtype=dtype)
    else:
        t = type_of(text)
        if t.is_pointer:
            raise ValueError("cannot declare %r: pointers cannot be declared; use a matrix" % spec)
        make = lambda: t.dtype.type(0)
    if count == 1:
        return make()
    if not isinstance(count, int) or count < 1:
        raise ValueError("declare() count must be a positive integer constant")
    return tuple(make() for _ in range(count))


def cast(x, type_name):
    """``cast(x, 'float')``: ``x`` converted to a scalar of that type (integers wrap, floats
    truncate toward zero)."""
    t = type_of(type_name)
    if t.is_pointer:
        raise ValueError("cast() needs a scalar type name, not %r" % t.name)
    return _convert(x, t.dtype)


# ---------------------------------------------------------------------------------------------
# Atomics

_ATOMIC_TARGETS = {}  # (code object, instruction offset) → (array code, index code)


def _atomic_target(name, frame):
    """The array and index of the element named by the ``name(x[i] ...)`` call that is running
    in `frame` (see the module docstring for why and how)."""
    key = (frame.f_code, frame.f_lasti)
    compiled = _ATOMIC_TARGETS.get(key)
    if compiled is None:
        code = frame.f_code
        if not hasattr(code, "co_positions"):
            raise RuntimeError("%s() in CPython needs Python 3.11 or newer to find the array element "
                               "it updates" % name)
        pos = list(code.co_positions())[frame.f_lasti // 2]
        lines = _linecache.getlines(code.co_filename, frame.f_globals)
        if None in pos or not lines:
            raise RuntimeError("%s() in CPython needs the kernel's source file to find the array "
                               "element it updates (%s)" % (name, code.co_filename))
        first, last, col, end_col = pos
        # Code positions count UTF-8 bytes.
        chunk = [ln.encode("utf-8") for ln in lines[first - 1:last]]
        if len(chunk) == 1:
            text = chunk[0][col:end_col]
        else:
            text = chunk[0][col:] + b"".join(chunk[1:-1]) + chunk[-1][:end_col]
        try:
            call = _ast.parse(text.decode("utf-8").strip(), mode="eval").body
        except SyntaxError:
            call = None
        if not isinstance(call, _ast.Call) or not call.args:
            raise RuntimeError("%s(): cannot find the call in %s:%d" % (name, code.co_filename, first))
        target = call.args[0]
        if not isinstance(target, _ast.Subscript):
            raise TypeError("%s() needs an array element, e.g. %s(x[i])" % (name, name))
        where = "<%s target at %s:%d>" % (name, code.co_filename, first)
        compiled = (compile(_ast.Expression(target.value), where, "eval"),
                    compile(_ast.Expression(target.slice), where, "eval"))
        _ATOMIC_TARGETS[key] = compiled
    array = eval(compiled[0], frame.f_globals, frame.f_locals)
    index = eval(compiled[1], frame.f_globals, frame.f_locals)
    if not isinstance(array, _np.ndarray):
        raise TypeError("%s() needs an element of a NumPy array" % name)
    return array, index


def _atomic_update(name, delta):
    frame = _sys._getframe(2)
    try:
        array, index = _atomic_target(name, frame)
    finally:
        del frame
    old = array[index]
    with _np.errstate(all="ignore"):
        array[index] = old + _convert(delta, array.dtype)  # wraps at the element's width
    return old


def atomic_inc(element):
    """``atomic_inc(x[i])``: adds one to ``x[i]``, returns the old value."""
    return _atomic_update("atomic_inc", 1)


def atomic_dec(element):
    """``atomic_dec(x[i])``: subtracts one from ``x[i]``, returns the old value."""
    return _atomic_update("atomic_dec", -1)


def atomic_add(element, value):
    """``atomic_add(x[i], v)``: adds ``v`` (converted to the element type) to ``x[i]``, returns
    the old value."""
    return _atomic_update("atomic_add", value)


# ---------------------------------------------------------------------------------------------
# Low-level GPU names: one work item in a group of one.

LID_0 = LID_1 = LID_2 = 0
GID_0 = GID_1 = GID_2 = 0
LDIM_0 = LDIM_1 = LDIM_2 = 1
GDIM_0 = GDIM_1 = GDIM_2 = 1


def local_barrier():
    """Nothing to wait for: CPython runs one work item at a time."""


# ---------------------------------------------------------------------------------------------
# Math builtins, computed in the engine's float type.


def _float_type(*xs):
    """float32 when an argument is float32 and none is float64 (Python numbers are weak, like
    the engine's literals); otherwise float64, also for integer arguments."""
    single = False
    for x in xs:
        if isinstance(x, _np.floating) or (isinstance(x, _np.ndarray) and x.dtype.kind == "f"):
            if _np.asarray(x).dtype == _np.float32:
                single = True
            else:
                return _np.float64
    return _np.float32 if single else _np.float64


def _unary(ufunc, name):
    def f(x):
        t = _float_type(x)
        with _np.errstate(all="ignore"):
            return ufunc(t(x))

    f.__name__ = name
    return f


def _binary(ufunc, name):
    def f(a, b):
        t = _float_type(a, b)
        with _np.errstate(all="ignore"):
            return ufunc(t(a), t(b))

    f.__name__ = name
    return f


def _from_math(fn, name):
    # For functions NumPy lacks: computed in double, rounded to the argument's float type.
    def f(x):
        t = _float_type(x)
        return t(fn(float(x)))

    f.__name__ = name
    return f


sin = _unary(_np.sin, "sin")
cos = _unary(_np.cos, "cos")
tan = _unary(_np.tan, "tan")
asin = _unary(_np.arcsin, "asin")
acos = _unary(_np.arccos, "acos")
atan = _unary(_np.arctan, "atan")
sinh = _unary(_np.sinh, "sinh")
cosh = _unary(_np.cosh, "cosh")
tanh = _unary(_np.tanh, "tanh")
asinh = _unary(_np.arcsinh, "asinh")
acosh = _unary(_np.arccosh, "acosh")
atanh = _unary(_np.arctanh, "atanh")
exp = _unary(_np.exp, "exp")
expm1 = _unary(_np.expm1, "expm1")
log = _unary(_np.log, "log")
log10 = _unary(_np.log10, "log10")
log2 = _unary(_np.log2, "log2")
log1p = _unary(_np.log1p, "log1p")
sqrt = _unary(_np.sqrt, "sqrt")
cbrt = _unary(_np.cbrt, "cbrt")
fabs = _unary(_np.fabs, "fabs")
floor = _unary(_np.floor, "floor")
ceil = _unary(_np.ceil, "ceil")
trunc = _unary(_np.trunc, "trunc")
erf = _from_math(_math.erf, "erf")
erfc = _from_math(_math.erfc, "erfc")


def _c_gamma(x):
    # C's tgamma where math.gamma raises: ±inf at ±0, NaN at the negative integers and -inf,
    # inf on overflow.
    try:
        return _math.gamma(x)
    except ValueError:
        return _math.copysign(_math.inf, x) if x == 0 else _math.nan
    except OverflowError:
        return _math.inf


gamma = _from_math(_c_gamma, "gamma")
atan2 = _binary(_np.arctan2, "atan2")
pow = _binary(_np.power, "pow")
hypot = _binary(_np.hypot, "hypot")
fmod = _binary(_np.fmod, "fmod")
copysign = _binary(_np.copysign, "copysign")
isnan = _unary(_np.isnan, "isnan")
isinf = _unary(_np.isinf, "isinf")
isfinite = _unary(_np.isfinite, "isfinite")

pi = M_PI = _math.pi
e = _math.e
inf = INFINITY = _math.inf
nan = NAN = _math.nan

_MATH_NAMES = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
               "atanh", "exp", "expm1", "log", "log10", "log2", "log1p", "sqrt", "cbrt", "fabs",
               "floor", "ceil", "trunc", "erf", "erfc", "gamma", "atan2", "pow", "hypot", "fmod",
               "copysign", "isnan", "isinf", "isfinite", "pi", "e", "inf", "nan", "M_PI", "INFINITY",
               "NAN"]

__all__ = (["KnownType", "type_of", "declared_types", "default_types", "annotate", "elementwise", "jit", "kernel",
            "declare", "cast", "atomic_inc", "atomic_dec", "atomic_add", "local_barrier", "LOCAL_MEM"]
           + ["%s_%d" % (p, d) for p in ("LID", "GID", "LDIM", "GDIM") for d in range(3)]
           + _MATH_NAMES + sorted(_TYPE_EXPORTS))
