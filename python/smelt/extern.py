"""External functions: C / C++ / CUDA / OpenCL C functions that kernels call
(docs/PYTHON.md, "External functions"; the engine's model is docs/LANGUAGE.md).

Two ways to declare one; either object is then called from a kernel by the name it is bound to
in the kernel's file (a global or closure variable), and smelt finds it there when it compiles
the kernel, as it finds module constants:

- ``Extern``: Compyle's ``compyle.extern.Extern``. A subclass gives the source text to paste
  before the kernel code (``code(backend)``), further externs that code needs
  (``link(backend)``) and its meaning in CPython (``__call__``). Smelt also needs its signature,
  as the class attribute ``signature``, and may take ``header``, ``c_name`` and ``backends``.

- ``external(name, signature, header=None, backends=None, c_name=None, code=None,
  python=None)``: a declaration in one call, e.g. of a function from a header::

      my_cube = smelt.external("my_cube", "(double) -> double", header="my_cube.h",
                               python=lambda x: x ** 3)
      Elementwise(f, includes=["/path/to/headers"])       # f calls my_cube(x[i])

Signatures are written ``"(double, int) -> double"`` (``"(doublep, long)"`` returns nothing)
or given as ``(params, result)`` with type names, smelt type objects or NumPy dtypes.
Backends are named by their family in the engine's backend table here: 'cpu', 'opencl', 'cuda'
(``code(backend)`` is called with those; smelt.backends).
"""

import numbers

import numpy as np

from . import backends as _backends
from . import errors

__all__ = ["Extern", "External", "external", "signature_of", "declarations"]

# The engine's backend families (smelt.backends; empty without the compiled engine).
BACKENDS = _backends.families()

_PY_TYPES = {float: "double", int: "long", bool: "bool"}


class Extern:
    """Compyle's Extern: subclass it and override what applies.

    - ``signature``: ``"(double) -> double"`` or ``(("double",), "double")`` (required by
      smelt: arguments are typed against it);
    - ``header``: a header to ``#include`` (``"my.h"`` from ``includes=``, or ``"<cmath>"``);
    - ``c_name``: the name the generated code calls (default: the name the kernel calls it by);
    - ``backends``: where it exists (default: the backends for which ``code`` does not raise
      NotImplementedError);
    - ``code(backend)``: source text pasted before the kernel code ('' for none, the default);
    - ``link(backend)``: further Externs whose code this one's needs (default: none);
    - ``__call__``: what it does in CPython (backend='python', and plain calls).
    """

    signature = None
    header = None
    c_name = None
    backends = None

    def link(self, backend):
        return []

    def code(self, backend):
        return ""

    def __call__(self, *args, **kw):
        raise NotImplementedError("%s has no meaning in CPython" % type(self).__name__)


class External(Extern):
    """The Extern ``external()`` makes: everything given as data."""

    def __init__(self, name, signature, header=None, backends=None, c_name=None, code=None,
                 python=None):
        if not isinstance(name, str) or not name.isidentifier():
            raise errors.UsageError("external: the name %r is not an identifier" % (name,))
        self.name = name
        self.signature = signature
        signature_of(self, name)  # reports a malformed signature now
        self.header = header
        self.c_name = c_name or name
        if isinstance(backends, str):
            backends = [backends]
        if backends is not None:
            backends = [_backend_name(b) for b in backends]
        self.backends = backends
        self._code = code
        self.python = python
        self.__name__ = name
        self.__doc__ = getattr(python, "__doc__", None)

    def code(self, backend):
        if self.backends is not None and backend not in self.backends:
            raise NotImplementedError("%s is declared for %s only" % (self.name,
                                                                     ", ".join(self.backends)))
        if isinstance(self._code, dict):
            return self._code.get(backend, self._code.get("", ""))
        return self._code or ""

    def __call__(self, *args, **kw):
        if self.python is None:
            raise NotImplementedError(
                "external function %r has no meaning in CPython: declare it with python=" %
                self.name)
        return self.python(*args, **kw)

    def __repr__(self):
        return "<smelt external %s -> %s>" % (self.name, self.c_name)


def external(name, signature=None, header=None, backends=None, c_name=None, code=None,
             python=None):
    """Declares an external function (see the module's documentation) and returns it: an
    ``External``, callable in CPython through ``python``.

    - ``name``: the function's name (also its C name unless ``c_name`` is given);
    - ``signature``: ``"(double, double) -> double"`` or ``(params, result)``;
    - ``header``: the header declaring it, found through the primitive's ``includes=``
      (``"<...>"`` for a system header); none for CUDA intrinsics and the math library;
    - ``backends``: 'cpu', 'opencl', 'cuda' (one name or a list; default every backend); a
      kernel calling it on another backend gets a compile error at the call;
    - ``code``: source text pasted before the kernel code: one string, or {backend: text}
      ('' as a key: every other backend);
    - ``python``: the function's meaning in CPython.

    With ``signature=None`` it returns a decorator instead: the decorated function's
    annotations give the signature and the function is its CPython meaning::

        @smelt.external("my_cube", header="my_cube.h")
        def my_cube(x: smelt.double) -> smelt.double:
            return x ** 3
    """
    if signature is None:
        def decorate(func):
            return External(name, _annotated_signature(func), header, backends, c_name, code,
                            python=func)
        return decorate
    return External(name, signature, header, backends, c_name, code, python)


def _backend_name(b):
    """The family ('cpu', 'opencl', 'cuda') of a backend name (Compyle's CPU names included).
    Without the compiled engine there is no table to check the name against."""
    name = _backends.family(b) or b
    if _backends.ROWS and name not in BACKENDS:
        raise errors.UsageError("external: unknown backend %r (%s)"
                                % (b, _backends.text(BACKENDS)))
    return name


def _type_name(t, what):
    if isinstance(t, str):
        return t.strip()
    if t is None:
        return "void"
    if t in _PY_TYPES:
        return _PY_TYPES[t]
    name = getattr(t, "name", None)  # smelt's KnownType
    if isinstance(name, str) and not isinstance(t, np.dtype):
        return name
    try:
        from .types import dtype_to_knowntype
        return dtype_to_knowntype(np.dtype(t))
    except (TypeError, KeyError, ValueError):
        raise errors.UsageError("external: %s has the type %r, which is no kernel-language type "
                                "name (e.g. 'double', 'int', 'doublep')" % (what, t)) from None


def _parse_signature_text(text, who):
    text = text.strip()
    params, _, result = text.partition("->")
    params = params.strip()
    if not (params.startswith("(") and params.endswith(")")):
        raise errors.UsageError("%s: the signature %r is not of the form '(double, int) -> "
                                "double'" % (who, text))
    inner = params[1:-1].strip()
    names = [p.strip() for p in inner.split(",")] if inner else []
    if any(not n for n in names):
        raise errors.UsageError("%s: the signature %r has an empty parameter type" % (who, text))
    return names, (result.strip() or "void")


def _annotated_signature(func):
    ann = dict(getattr(func, "__annotations__", {}))
    result = ann.pop("return", None)
    code = func.__code__
    params = []
    for p in code.co_varnames[:code.co_argcount]:
        if p not in ann:
            raise errors.UsageError("external %s: parameter %r has no annotation (the signature "
                                    "comes from the annotations)" % (code.co_name, p))
        params.append(_type_name(ann[p], "parameter %r" % p))
    return tuple(params), _type_name(result, "the result")


def signature_of(ext, name):
    """(parameter type names, result type name) of an Extern called `name`."""
    who = "external %s" % name
    sig = getattr(ext, "signature", None)
    if sig is None:
        raise errors.UsageError(
            "%s (%s) has no signature: give the class a 'signature' attribute such as "
            "'(double) -> double'" % (who, type(ext).__name__))
    if isinstance(sig, str):
        return _parse_signature_text(sig, who)
    try:
        params, result = sig
    except (TypeError, ValueError):
        raise errors.UsageError("%s: the signature %r is neither '(double) -> double' nor "
                                "(params, result)" % (who, sig)) from None
    if isinstance(params, (str, bytes)) or isinstance(params, numbers.Number):
        params = [params]
    return ([_type_name(p, "parameter %d" % (k + 1)) for k, p in enumerate(params)],
            _type_name(result, "the result"))


def _code_for(ext, backend, seen):
    """(available, text) of `ext` on `backend`: its linked externs' code, then its own."""
    try:
        own = ext.code(backend) or ""
    except NotImplementedError:
        return False, ""
    text = ""
    for dep in ext.link(backend) or []:
        if not isinstance(dep, Extern):
            raise errors.UsageError(
                "%s.link(%r) returned %r: smelt links Externs here; give libraries to the "
                "primitive as libs=[...]" % (type(ext).__name__, backend, dep))
        if id(dep) in seen:
            continue
        seen.add(id(dep))
        ok, dep_text = _code_for(dep, backend, seen)
        if ok and dep_text:
            text += dep_text if dep_text.endswith("\n") else dep_text + "\n"
    return True, text + own


def declarations(externs):
    """The engine's declarations (``_smelt.External``) for {kernel name: Extern}, and a hashable
    key of them for caching Programs."""
    from . import _smelt
    out, key = [], []
    for name in sorted(externs):
        ext = externs[name]
        params, result = signature_of(ext, name)
        code, backends = {}, []
        for b in BACKENDS:
            ok, text = _code_for(ext, b, {id(ext)})
            if ok:
                backends.append(b)
                if text:
                    code[b] = text
        explicit = getattr(ext, "backends", None)
        if explicit is not None:
            backends = [b for b in backends if b in [_backend_name(x) for x in explicit]]
        if not backends:
            raise errors.UsageError("external %s exists on no backend (its code() raises "
                                    "NotImplementedError for %s)"
                                    % (name, _backends.text(BACKENDS, " and ")))
        if len(backends) == len(BACKENDS):
            backends = []
        c_name = getattr(ext, "c_name", None) or name
        header = getattr(ext, "header", None) or ""
        out.append(_smelt.External(name=name, params=list(params), result=result, c_name=c_name,
                                   header=header, backends=backends, code=code))
        key.append((name, tuple(params), result, c_name, header, tuple(backends),
                    tuple(sorted(code.items()))))
    return out, tuple(key)
