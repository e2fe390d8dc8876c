"""Helpers around kernel source: kernels from strings, the text the engine sees, and
compile-time specialisation."""

import itertools
import types

from . import _source
from ._source import specialize  # noqa: F401

__all__ = ["compile_source", "kernel_text", "specialize"]

_counter = itertools.count(1)


def compile_source(code, name=None):
    """Kernel functions from source text: returns a module whose functions can be given to the
    primitives (and run in CPython). The text is registered with linecache under `name`
    (default '<smelt-source-N>'), so errors point into it as into a file."""
    from . import purepy
    name = name or "<smelt-source-%d>" % next(_counter)
    _source.register_source(code, name)
    module = types.ModuleType(name.strip("<>"))
    module.__dict__.update({k: getattr(purepy, k) for k in purepy.__all__})
    module.__file__ = name
    exec(compile(code, name, "exec"), module.__dict__)
    return module


def kernel_text(func, **constants):
    """The text the engine compiles for `func` (a function or a primitive), with `constants`
    substituted as specialize() would."""
    appended = getattr(func, "_input_text", None)  # a Scan over an input array
    names = ("output", "is_segment") if appended else ("input", "output", "is_segment")
    funcs = [getattr(func, a) for a in names if getattr(func, a, None) is not None] or [func]
    return _source.kernel_text(funcs, constants, appended=appended)[1]
