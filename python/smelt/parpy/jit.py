"""``jit``: a ParPy function compiled per call signature, with ``print_compiled``,
``compile_string`` and ``clear_cache``.

A call ``f(*args, opts=opts)`` resolves the backend, flattens dict arguments, converts the
arguments (NumPy arrays as they are; buffers as their backend memory; torch/CuPy arrays through
host views) and looks up the compiled function by its specialisation key: backend, compile
options, dict keys, and per argument the array dtype and shape or the scalar's type and value
(the engine, like ParPy, specialises on integer
values). A miss compiles through the engine, whose own disk cache
makes a recompilation of the same code cheap; ``clear_cache()`` empties both.
"""

import functools
import time
import weakref

import numpy as np

from .. import errors
from .._source import function_of, program_for
from . import arrays, callargs, dictargs, engine
from .buffer import Buffer
from .external import externals_called
from .options import CompileOptions, resolve_backend
from .rewrite import rewrite_for
from .source import check_restrictions, function_source, user_lines

__all__ = ["jit", "JitFunction", "print_compiled", "compile_string", "clear_cache"]

_LIVE = weakref.WeakSet()  # every JitFunction, so clear_cache can empty their caches


def _opts_kwarg(kwargs, name):
    opts = kwargs.pop("opts", None)
    if kwargs:
        raise errors.UsageError("%s: unsupported keyword arguments %s (ParPy functions take "
                                "their arguments by position, and opts=)"
                                % (name, ", ".join(sorted(kwargs))))
    if opts is None:
        raise errors.UsageError("missing required keyword argument opts in call to %s: ParPy "
                                "functions are called with opts=parpy.par({...}) (a "
                                "CompileOptions)" % name)
    if not isinstance(opts, CompileOptions):
        raise errors.UsageError("%s: opts must be a parpy.CompileOptions (parpy.par({...})), "
                                "not %r" % (name, opts))
    return opts


def _module_names(func):
    """The names under which `func` reads this module (``parpy``)."""
    import sys
    module = sys.modules[__package__]
    return sorted(n for n in func.__code__.co_names if func.__globals__.get(n) is module)


def _parpy_imports(names):
    """Import lines binding `names` to this module: the engine recognises ParPy's syntax
    (parpy.label, slices, ...) by such imports, and the text it gets keeps only the file's
    functions and constants."""
    if not names:
        return None
    return "\n# smelt: the names of ParPy's module\n" + "".join(
        "import smelt.parpy as %s\n" % n for n in names)


class JitFunction:
    """What ``@parpy.jit`` makes of a function: call it with ``opts=``. ``compilations`` counts
    the specialisations compiled (a Smelt addition, to see the cache at work)."""

    def __init__(self, func):
        self.func = function_of(func)
        functools.update_wrapper(self, self.func)
        self._src = function_source(self.func)
        check_restrictions(self._src)
        node = self._src.node
        self._params = [a.arg for a in node.args.posonlyargs + node.args.args]
        if node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
            raise errors.UsageError("%s: ParPy functions take positional parameters only"
                                    % self.func.__name__)
        self._cache = {}
        self._dict_checks = {}
        self._ran = weakref.WeakSet()  # specialisations run once (debug_print)
        self.compilations = 0
        _LIVE.add(self)

    def __call__(self, *args, **kwargs):
        opts = _opts_kwarg(kwargs, self.func.__name__)
        backend = resolve_backend(opts)
        if backend == "python":
            return self._run_python(args, opts)
        impl, call = self._specialise(args, opts, backend)
        start = time.perf_counter()
        try:
            engine.run(impl, call.args)
        except errors.CompileError as exc:
            raise user_lines(exc, self._src) from None
        finally:
            call.finish()
        if opts.debug_print and impl not in self._ran:
            self._ran.add(impl)
            print("parpy: %s on %s: first call %.3f s (the engine compiles the specialisation, "
                  "or loads it from its disk cache)"
                  % (self.func.__name__, backend, time.perf_counter() - start))

    def _check_count(self, args):
        if len(args) != len(self._params):
            raise errors.UsageError("%s takes %d arguments (%s), not %d"
                                    % (self.func.__name__, len(self._params),
                                       ", ".join(self._params), len(args)))

    def _dict_keys(self, args):
        """{param: [keys]} of the dict arguments of this call (checked)."""
        if not any(isinstance(a, dict) for a in args):
            return {}
        values = {p: a for p, a in zip(self._params, args) if isinstance(a, dict)}
        if not values:
            return {}
        sig = tuple((p, tuple(d)) for p, d in values.items())
        keys = self._dict_checks.get(sig)
        if keys is None:
            keys = dictargs.check_dict_params(self._src, list(values), values)
            self._dict_checks[sig] = keys
        else:  # the structure was checked; the values may still be nested dicts
            for p, ks in keys.items():
                for k in ks:
                    if isinstance(values[p][k], dict):
                        raise errors.UsageError("dict argument '%s' holds a nested dictionary "
                                                "at key %r: ParPy supports one level of dicts"
                                                % (p, k))
        return keys

    def _specialise(self, args, opts, backend):
        """(engine LoopFunction, callargs.Call) for these arguments, compiling on a cache miss."""
        self._check_count(args)
        keys = self._dict_keys(args)
        if keys:
            args = dictargs.flatten_args(self._params, args, keys)
            names = [n for p in self._params
                     for n in (["%s[%r]" % (p, k) for k in keys[p]] if p in keys else [p])]
            dict_key = tuple((p, tuple(k)) for p, k in keys.items())
        else:
            names, dict_key = self._params, ()
        single = callargs.single_precision(opts)
        call = callargs.Call()
        for name, arg in zip(names, args):
            callargs.convert(call, name, arg, opts, backend)
        key = (backend, single, opts.key(), dict_key, tuple(call.key))
        impl = self._cache.get(key)
        if impl is None:
            impl = self._compile(keys, opts, backend, single)
            self._cache[key] = impl
        return impl, call

    def _compile(self, keys, opts, backend, single):
        """A new engine LoopFunction (it compiles when first called)."""
        called = externals_called(self._src.node, self.func)
        wrong = [e for e in called if e.backend.value != backend]
        if wrong:
            raise errors.UsageError("%s calls the external %s, declared for %s, but runs on %s"
                                    % (self.func.__name__, wrong[0].ext_name,
                                       wrong[0].backend.name, backend))
        modules = _module_names(self.func)
        rewrite = rewrite_for(keys, modules)
        program, filename, text = program_for(
            [self.func], rewrite_def={self.func: rewrite} if rewrite else None,
            appended=_parpy_imports(modules))
        impl = engine.make(program, self.func.__name__, opts, backend, single)
        self.compilations += 1
        if opts.debug_print:
            shown = "".join("%5d | %s\n" % (k + 1, line)
                            for k, line in enumerate(text.splitlines()) if line.strip())
            print("parpy: %s for %s: the engine compiles these lines of %s\n%s"
                  % (self.func.__name__, backend, filename, shown))
        return impl

    def _run_python(self, args, opts):
        """The function itself in CPython, on host views of the arguments (numbers converted
        as force_int_size / force_float_size say)."""
        self._check_count(args)
        self._dict_keys(args)
        after = []

        def host(a, name):
            if isinstance(a, Buffer):
                callargs.check_buffer(name, a, "python")
                if a.on_host:
                    return a.numpy()
                values = a.numpy()
                after.append(lambda: a._array.set(values.reshape(-1)))
                return values
            if isinstance(a, dict):
                return {k: host(v, "%s[%r]" % (name, k)) for k, v in a.items()}
            if arrays.is_array(a):
                view, back = arrays.host_view(a)
                if back is not None:
                    after.append(back)
                return view
            return callargs.scalar(a, opts, name)

        try:
            with np.errstate(all="ignore"):
                self.func(*[host(a, p) for a, p in zip(args, self._params)])
        finally:
            for f in after:
                f()

    def source(self, args, opts):
        """The code generated for these arguments and options (compiled, not run)."""
        backend = resolve_backend(opts)
        if backend == "python":
            raise errors.UsageError("print_compiled needs a compiled backend (Cpu, OpenCL, Cuda "
                                    "or Auto), not CompileBackend.Python")
        impl, call = self._specialise(list(args), opts, backend)
        try:
            return engine.source(impl, call.args)
        except errors.CompileError as exc:
            raise user_lines(exc, self._src) from None

    def clear(self):
        self._cache.clear()
        self._dict_checks.clear()


def jit(fun):
    """``@parpy.jit``: the function becomes a JitFunction, called as ``f(*args, opts=...)``."""
    return JitFunction(fun)


def _jit_of(fun):
    """The JitFunction of `fun`; an undecorated function gets one, kept on the function."""
    if isinstance(fun, JitFunction):
        return fun
    fun = function_of(fun)
    found = fun.__dict__.get("__parpy_jit__")
    if found is None:
        found = fun.__parpy_jit__ = JitFunction(fun)
    return found


def print_compiled(fun, args, opts=None):
    """The code the backend of `opts` (default options: Auto) generates for `fun` specialised
    on `args`, as a string. `fun` may be decorated with jit or not."""
    return _jit_of(fun).source(args, opts if opts is not None else CompileOptions())


def compile_string(fun_name, code, opts=None):
    """A callable running the function `fun_name` defined in `code` with `opts` (default
    options when None).

    ParPy compiles generated native code here; Smelt compiles its kernel language, so `code` is
    the Python source of a ParPy function (a module's text: it may ``import smelt.parpy as
    parpy`` and define helpers). Generated C++/OpenCL/CUDA text (what print_compiled returns) is
    refused with a UsageError: the engine does not load hand-edited backend code."""
    import ast
    from ..tools import compile_source
    try:
        tree = ast.parse(code)
    except SyntaxError:
        tree = None
    if tree is None or not any(isinstance(s, ast.FunctionDef) and s.name == fun_name
                               for s in tree.body):
        what = "is not Python" if tree is None else "defines no function %r" % fun_name
        raise errors.UsageError("compile_string: the code %s. Smelt's compile_string takes the "
                                "Python source of a ParPy function (the kernel language), not "
                                "generated backend code" % what)
    module = compile_source(code)
    jf = JitFunction(getattr(module, fun_name))
    opts = opts if opts is not None else CompileOptions()

    @functools.wraps(jf.func)
    def run(*args):
        return jf(*args, opts=opts)

    run.jit_function = jf
    return run


def clear_cache():
    """Forgets every compiled specialisation (in memory) and empties the engine's disk cache of
    compiled kernels."""
    from .. import _smelt
    from .. import _source
    for jf in list(_LIVE):
        jf.clear()
    _source._PROGRAMS.clear()
    if hasattr(_smelt, "clear_disk_cache"):
        _smelt.clear_disk_cache()
