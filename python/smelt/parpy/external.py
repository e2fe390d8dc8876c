"""``@parpy.external(ext_name, backend, target, header=None, parallelize=LoopPar())``: declares
that calls to the decorated Python function mean the native function `ext_name`.

The decorator records a Declaration and returns the engine's external function
(``smelt.extern.External``: name, signature from the parpy.types annotations, header, the one
backend, C name `ext_name`), whose CPython meaning is the decorated function: calling it in
Python, or on the Python backend, runs the Python body. A jit function calling it compiles the
call as a call of `ext_name` (docs/LANGUAGE.md, "External functions"); the header is found
through ``CompileOptions.includes``.
"""

import ast
import collections

from .. import errors
from .types import CompileBackend, ElemSize, LoopPar, Pointer, Target

__all__ = ["Declaration", "external", "externals", "externals_called"]

Declaration = collections.namedtuple(
    "Declaration", "ext_name backend target header parallelize func params result")

_EXTERNALS = {}  # Python function name -> [Declaration], newest last
_ENGINE_BACKEND = {CompileBackend.Cpu: "cpu", CompileBackend.OpenCL: "opencl",
                   CompileBackend.Cuda: "cuda"}


def external(ext_name, backend, target, header=None, parallelize=None):
    """The decorator described in the module docstring. Checks ParPy's rules: a host external
    is not parallel, CUDA has no host externals; Smelt has no Metal backend."""
    parallelize = LoopPar() if parallelize is None else parallelize
    if not isinstance(ext_name, str) or not ext_name.isidentifier():
        raise errors.UsageError("external: ext_name must be a C identifier, not %r" % (ext_name,))
    if not isinstance(backend, CompileBackend) or backend in (CompileBackend.Auto,
                                                              CompileBackend.Python):
        raise errors.UsageError("external: backend must be a concrete compiled backend "
                                "(CompileBackend.Cuda, OpenCL or Cpu), not %r" % (backend,))
    if backend is CompileBackend.Metal:
        raise errors.BackendUnavailableError("external: Smelt has no Metal backend")
    if not isinstance(target, Target):
        raise errors.UsageError("external: target must be a parpy.Target, not %r" % (target,))
    if not isinstance(parallelize, LoopPar):
        raise errors.UsageError("external: parallelize must be a LoopPar, not %r" % (parallelize,))
    if target is Target.Host and parallelize.is_parallel():
        raise errors.UsageError("external %s: host externals cannot be parallel" % ext_name)
    if backend is not CompileBackend.Cpu and target is Target.Host:
        raise errors.UsageError("external %s: host externals exist for the CPU backend only: on "
                                "CUDA and OpenCL, Smelt runs sequential code on the device too "
                                "(use Target.Device)" % ext_name)
    if parallelize.is_parallel():
        raise errors.UsageError("external %s: parallel externals (parallelize=) are not "
                                "supported by Smelt; call the external inside a parallel loop"
                                % ext_name)
    if header is not None and not isinstance(header, str):
        raise errors.UsageError("external %s: header must be a string" % ext_name)

    def declare(fn):
        from ..extern import External
        params, result = signature(fn)
        decl = Declaration(ext_name, backend, target, header, parallelize, fn, params, result)
        _EXTERNALS.setdefault(fn.__name__, []).append(decl)
        ext = External(fn.__name__, (tuple(params), result), header=header,
                       backends=[_ENGINE_BACKEND[backend]], c_name=ext_name, python=fn)
        ext.__parpy_external__ = decl
        ext.__wrapped__ = fn
        return ext

    return declare


# ElemSize -> the kernel language's scalar name (docs/LANGUAGE.md, "Types").
_LANGUAGE_NAME = {
    ElemSize.Bool: "bool", ElemSize.I8: "char", ElemSize.I16: "short", ElemSize.I32: "int",
    ElemSize.I64: "long", ElemSize.U8: "uchar", ElemSize.U16: "ushort", ElemSize.U32: "uint",
    ElemSize.U64: "ulong", ElemSize.F32: "float", ElemSize.F64: "double",
}


def _type_name(fn, what, t):
    elem = t.elem if isinstance(t, Pointer) else t
    if not isinstance(elem, ElemSize):
        raise errors.UsageError("external %s: %s must be annotated with a parpy.types type "
                                "(parpy.types.F64, parpy.types.pointer(parpy.types.F32), ...), "
                                "not %r" % (fn.__name__, what, t))
    if elem is ElemSize.F16:
        raise errors.UsageError("external %s: %s is F16; Smelt has no 16-bit float type"
                                % (fn.__name__, what))
    return _LANGUAGE_NAME[elem] + ("p" if isinstance(t, Pointer) else "")


def signature(fn):
    """(parameter types, result type) of an external in kernel-language names ("double",
    "floatp", result "void" when the function is not annotated with one), from the
    parpy.types annotations ParPy requires."""
    import inspect
    sig = inspect.signature(fn)
    params = []
    for p in sig.parameters.values():
        if p.annotation is inspect.Parameter.empty:
            raise errors.UsageError("external %s: parameter %s has no type annotation "
                                    "(e.g. %s: parpy.types.F64)" % (fn.__name__, p.name, p.name))
        params.append(_type_name(fn, "parameter " + p.name, p.annotation))
    ret = sig.return_annotation
    result = ("void" if ret is inspect.Signature.empty or ret is None
              else _type_name(fn, "the result", ret))
    return params, result


def externals():
    """Every Declaration made so far, by Python function name."""
    return {name: list(decls) for name, decls in _EXTERNALS.items()}


def externals_called(def_node, func):
    """The Declarations the body of `func` (its node `def_node`) calls by name: ``f(...)`` or
    ``mod.f(...)`` where the name is, in the function's globals or closure, a function
    decorated by ``external``."""
    from .._source import _runtime_value
    found = []
    for n in ast.walk(def_node):
        if not isinstance(n, ast.Call):
            continue
        value = None
        if isinstance(n.func, ast.Name):
            value = _runtime_value(func, n.func.id)
        elif isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
            value = getattr(_runtime_value(func, n.func.value.id), n.func.attr, None)
        decl = getattr(value, "__parpy_external__", None)
        if isinstance(decl, Declaration) and decl not in found:
            found.append(decl)
    return found
