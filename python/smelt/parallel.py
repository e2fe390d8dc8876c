"""The parallel primitives (Compyle's ``compyle.parallel``): Elementwise, Reduction, Scan.

Each takes Python functions written in the kernel language (docs/LANGUAGE.md). The engine
compiles them from their source (see _source.py) when first called, once per distinct list of
argument types, for the backend chosen at construction (``backend=`` or the config). Arguments
are smelt Arrays, NumPy arrays (used in place on the CPU) or numbers.

``backend='python'`` runs the same functions in CPython instead, one index at a time: the
meaning the compiled backends must agree with.
"""

import re
import time

import numpy as np

from . import _cpython
from . import _smelt
from . import config as _config
from . import errors
from ._source import function_of, program_for, register_source
from .profile import record as _record

__all__ = ["Elementwise", "elementwise", "Reduction", "Scan", "serial"]


def _split_source(all_source):
    """The part of a translation unit generated from the user's functions: after the prelude,
    before the line-number reset that starts the primitive's wrapper (the layout of
    engine/primitives/translation_unit.cpp). The whole text when the layout is not found."""
    start = all_source.find(_PRELUDE_END)
    if start < 0:
        return all_source
    start += len(_PRELUDE_END)
    resets = list(_WRAPPER_START.finditer(all_source, start))
    end = resets[-1].start() if resets else len(all_source)
    return all_source[start:end].strip("\n") + "\n"


_PRELUDE_END = "---- end of smelt prelude ---- */"
_WRAPPER_START = re.compile(r'^#line \d+ "kernel\.\w+"$', re.M)


_OPTION_LISTS = ("includes", "libs", "extra_flags")
_OPTION_FLAGS = ("fast_math", "bounds_check", "check_finite")


def _engine_options(options):
    """The keyword options of a primitive as the engine takes them (engine/smelt.h, Options):
    ``includes`` (header directories), ``libs`` (libraries, cpu only), ``extra_flags``
    (compiler flags): lists of strings, one string standing for a list of one; ``fast_math``,
    ``bounds_check``, ``check_finite``: booleans."""
    out = {}
    for key, value in options.items():
        if key in _OPTION_LISTS:
            values = [value] if isinstance(value, str) else list(value or [])
            if not all(isinstance(v, str) for v in values):
                raise errors.UsageError("%s= takes strings, not %r" % (key, value))
            out[key] = [str(v) for v in values]
        elif key in _OPTION_FLAGS:
            out[key] = bool(value)
        else:
            raise TypeError("unexpected keyword argument %r (options: %s)"
                            % (key, ", ".join(_OPTION_LISTS + _OPTION_FLAGS)))
    return out


class _Primitive:
    """What the primitives share: the backend choice, profiling and the generated source.

    As in Compyle, a primitive made without ``backend=`` follows the configuration: each call
    uses the backend (and use_openmp / use_double) the config names at that moment, compiling
    anew when that changed. ``set_backend(b)`` switches it (None: follow the config again)."""

    kind = "Primitive"

    def _setup(self, backend, name, options=None):
        self._options = _engine_options(options or {})
        self._backend_arg = backend
        self.name = name
        self._profile_name = "%s(%s)" % (self.kind, name)
        self._configure()

    def _config_key(self):
        values = _config._current._values
        return (_config.get_backend(self._backend_arg), values["use_openmp"], values["use_double"])

    def _configure(self):
        key = self._config_key()
        self.backend = key[0]
        self._engine = _config.engine_backend(self.backend)
        self._single = not key[2]
        self._impl = None
        self._build()
        self._key = key

    def _build(self):
        """Makes self._impl, the engine's primitive (None for backend='python')."""

    def _current(self):
        """The engine primitive for the configuration now in force."""
        if self._config_key() != self._key:
            self._configure()
        return self._impl

    def set_backend(self, backend=None):
        """Compyle's set_backend: run on `backend` from now on (None: the config's)."""
        self._backend_arg = backend
        self._configure()

    @property
    def all_source(self):
        """The whole translation unit of the last specialisation ('' before the first call,
        and for backend='python')."""
        return self._impl.source if self._impl is not None else ""

    @property
    def source(self):
        """The code generated from the user's functions (without the prelude and wrapper)."""
        return _split_source(self.all_source)

    def _timed(self, run, *args):
        start = time.perf_counter()
        try:
            return run(*args)
        finally:
            if self._engine is not None:
                _smelt.synchronize(self._engine)
            _record(self._profile_name, time.perf_counter() - start)


class Elementwise(_Primitive):
    """``Elementwise(func, backend=None, **options)``: calling it with ``(*args)`` runs
    ``func(i, *args)`` for every i in [0, n), n being the length of the first array argument.
    ``call_n(n, *args)`` gives n explicitly. ``options`` (every primitive takes them):
    ``includes``, ``libs``, ``extra_flags`` for external functions (smelt.extern), and
    ``fast_math``, ``bounds_check``, ``check_finite`` (engine/smelt.h, Options)."""

    kind = "Elementwise"
    _program = None

    def __init__(self, func, backend=None, **options):
        self.func = function_of(func)
        self._setup(backend, self.func.__code__.co_name, options)

    @classmethod
    def _from_program(cls, program, name, func, backend=None, **options):
        self = cls.__new__(cls)
        self.func = func
        self._program = program
        self._setup(backend, name, options)
        return self

    def _build(self):
        if self._engine is not None:
            prog = self._program if self._program is not None else program_for([self.func])[0]
            self._impl = _smelt.Elementwise(prog, self.name, self._engine, self._single,
                                            self._options)

    @property
    def elementwise(self):
        """Compyle's attribute for the backend-specific object: the primitive itself here."""
        return self

    def __call__(self, *args):
        impl = self._current()
        if _config._current._values["profile"]:
            if impl is None:
                return self._timed(_cpython.elementwise, self.func, args)
            return self._timed(impl, *args)
        if impl is None:
            return _cpython.elementwise(self.func, args)
        impl(*args)

    def call_n(self, n, *args):
        impl = self._current()
        if impl is None:
            return _cpython.elementwise(self.func, args, n)
        if _config._current._values["profile"]:
            return self._timed(impl.call_n, n, *args)
        impl.call_n(n, *args)


def elementwise(func=None, backend=None, **options):
    """Decorator form of Elementwise: ``@elementwise`` or ``@elementwise(backend='opencl')``
    turns the function into an Elementwise (its ``.func`` is the function itself)."""
    if func is None:
        return lambda f: Elementwise(f, backend=backend, **options)
    return Elementwise(func, backend=backend, **options)


def serial(func=None, **kw):
    """Compyle's ``@serial`` marker (Cython code generation without ``nogil``): sets
    ``func.is_serial`` and returns the function; smelt's code generation needs no such hint."""

    def mark(f):
        f.is_serial = True
        return f

    return mark if func is None else mark(func)


class Reduction(_Primitive):
    """``Reduction(reduce_expr, map_func=None, dtype_out=np.float64, neutral='0',
    backend=None)``: ``r(x)`` reduces the elements of x; with a map function ``m(i, ...)``,
    ``r(*args)`` reduces m(i, *args) over i in [0, n). Returns a NumPy scalar of dtype_out."""

    kind = "Reduction"

    def __init__(self, reduce_expr, map_func=None, dtype_out=np.float64, neutral="0", backend=None,
                 **options):
        self.reduce_expr = reduce_expr
        self.func = function_of(map_func) if map_func is not None else None
        self.neutral = str(neutral)
        self.dtype_out = np.dtype(dtype_out)
        name = self.func.__code__.co_name if self.func is not None else reduce_expr
        self._setup(backend, name, options)

    def _build(self):
        self._out_type = self.dtype_out.type
        if self._single and self.dtype_out == np.float64:
            self._out_type = np.float32
        if self._engine is not None:
            prog = program_for([self.func])[0] if self.func is not None else None
            self._impl = _smelt.Reduction(prog, self.reduce_expr, self.name if self.func else "",
                                          self.dtype_out.name, self.neutral, self._engine,
                                          self._single, self._options)

    @property
    def reduction(self):
        """Compyle's attribute for the backend-specific object: the primitive itself here."""
        return self

    def __call__(self, *args):
        impl = self._current()
        if impl is None:
            run = lambda *a: _cpython.reduction(self.func, self.reduce_expr, self.neutral,
                                                self.dtype_out, a)
            if _config._current._values["profile"]:
                return self._timed(run, *args)
            return run(*args)
        if _config._current._values["profile"]:
            return self._out_type(self._timed(impl, *args))
        return self._out_type(impl(*args))


_ARRAY_INPUTS = {}  # argument name -> (function, source text) reading that array


def _array_input(arg):
    """The input function of a Scan whose input is an array argument: ``return arg[i]``.
    Its text is appended to the program of the output function (see Scan)."""
    found = _ARRAY_INPUTS.get(arg)
    if found is None:
        if not arg.isidentifier():
            raise errors.UsageError("Scan: input=%r is not an argument name" % (arg,))
        name = "smelt_scan_input_" + arg
        text = "def %s(i, %s):\n    return %s[i]\n" % (name, arg, arg)
        filename = "<smelt-scan-input-%s>" % arg
        register_source(text, filename)
        namespace = {}
        exec(compile(text, filename, "exec"), namespace)
        found = _ARRAY_INPUTS[arg] = (namespace[name], "\n# smelt: the scan's input array\n" + text)
    return found


class Scan(_Primitive):
    """``Scan(input=None, output=None, scan_expr='a+b', is_segment=None, dtype=np.float64,
    neutral='0', complex_map=False, backend=None)`` (Compyle's order), called with keyword
    arguments named like the parameters of the input, output and segment functions:
    ``scan(ary=ary, out=out)``. Without an input function the scanned values are those of the
    array passed as ``input=`` (``scan(input=a, out=out)``); ``input='name'`` scans the array
    argument ``name`` instead. See engine/smelt.h for item, prev_item, last_item, N and
    segments. ``complex_map`` is accepted for Compyle compatibility and has no effect."""

    kind = "Scan"

    def __init__(self, input=None, output=None, scan_expr="a+b", is_segment=None,
                 dtype=np.float64, neutral="0", complex_map=False, backend=None, **options):
        if output is None:
            raise TypeError("Scan needs an output function (output=)")
        self.output = function_of(output)
        if input is None or isinstance(input, str):
            self.input, self._input_text = _array_input(input or "input")
        else:
            self.input, self._input_text = function_of(input), None
        self.is_segment = function_of(is_segment) if is_segment is not None else None
        self.scan_expr = scan_expr
        self.dtype = np.dtype(dtype)
        self.neutral = str(neutral)
        self.complex_map = complex_map
        self.func = self.output
        self._setup(backend, "%s, %s" % (self.input.__code__.co_name, self.output.__code__.co_name),
                    options)

    def _build(self):
        if self._engine is None:
            return
        own = [self.output] + ([self.is_segment] if self.is_segment else [])
        funcs = own if self._input_text is not None else [self.input] + own
        prog = program_for(funcs, appended=self._input_text)[0]
        self._impl = _smelt.Scan(prog, self.input.__code__.co_name, self.output.__code__.co_name,
                                 self.scan_expr, self.dtype.name, self.neutral,
                                 self.is_segment.__code__.co_name if self.is_segment else "",
                                 self._engine, self._single, self._options)

    @property
    def scan(self):
        """Compyle's attribute for the backend-specific object: the primitive itself here."""
        return self

    def __call__(self, **kwargs):
        impl = self._current()
        if _config._current._values["profile"]:
            return self._timed(self._run, kwargs)
        if impl is None:
            return self._run(kwargs)
        impl(kwargs)

    def _run(self, kwargs):
        if self._impl is None:
            return _cpython.scan(self.input, self.output, self.is_segment, self.scan_expr,
                                 self.neutral, self.dtype, kwargs)
        self._impl(kwargs)
