"""ParPy's inspection helpers on smelt, as thin layers:

- ``print_compiled(fun, args, opts=None)``: the code generated for `fun` specialised on the
  types of `args` (compiled, not run), as a string. `fun` is an elementwise kernel
  ``fun(i, *args)``; ``opts`` may be None, a backend name, or an object/dict with ``backend``.
- ``compile_string(fun_name, code, opts=None)``: an Elementwise for the function `fun_name` of
  kernel-language source `code` (ParPy compiles generated C here; smelt compiles its own
  language, so `code` is Python source).
"""

from .parallel import Elementwise
from .tools import compile_source

__all__ = ["print_compiled", "compile_string"]


def _backend(opts):
    if opts is None or isinstance(opts, str):
        return opts
    if isinstance(opts, dict):
        return opts.get("backend")
    return getattr(opts, "backend", None)


def print_compiled(fun, args, opts=None):
    e = Elementwise(fun, backend=_backend(opts))
    if e._impl is None:
        raise ValueError("print_compiled needs a compiled backend, not 'python'")
    e.call_n(0, *args)
    return e.all_source


def compile_string(fun_name, code, opts=None):
    module = compile_source(code)
    if not hasattr(module, fun_name):
        raise ValueError("the code defines no function %r" % fun_name)
    return Elementwise(getattr(module, fun_name), backend=_backend(opts))
