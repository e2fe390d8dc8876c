"""``@parpy.external(ext_name, backend, target, header=None, parallelize=LoopPar())``: declares
that calls to the decorated Python function mean the native function `ext_name`.

The decorator records an External (the declaration) and returns the function unchanged, so in
CPython (and on the Python backend) the Python body is what runs. Compiling a jit function
that calls an external needs the engine's support for externals; where this build lacks it the
compile is a BackendUnavailableError (a NotImplementedError) naming the external.
"""

import ast
import collections

from .. import errors
from .types import CompileBackend, ElemSize, LoopPar, Pointer, Target

__all__ = ["External", "external", "externals", "externals_called"]

External = collections.namedtuple(
    "External", "ext_name backend target header parallelize func params result")

_EXTERNALS = {}  # Python function name -> [External], newest last


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
    if backend is CompileBackend.Cuda and target is Target.Host:
        raise errors.UsageError("external %s: CUDA externals run on the device (Target.Device); "
                                "host externals are not supported for CUDA" % ext_name)
    if header is not None and not isinstance(header, str):
        raise errors.UsageError("external %s: header must be a string" % ext_name)

    def declare(fn):
        params, result = signature(fn)
        decl = External(ext_name, backend, target, header, parallelize, fn, params, result)
        _EXTERNALS.setdefault(fn.__name__, []).append(decl)
        fn.__parpy_external__ = decl
        return fn

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
    """Every External declared so far, by Python function name."""
    return {name: list(decls) for name, decls in _EXTERNALS.items()}


def externals_called(def_node, globals_):
    """The Externals a function body calls by name (``f(...)`` or ``mod.f(...)`` where the
    name resolves, in the function's globals, to a decorated function)."""
    found = []
    for n in ast.walk(def_node):
        if not isinstance(n, ast.Call):
            continue
        value = None
        if isinstance(n.func, ast.Name):
            value = globals_.get(n.func.id)
        elif isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
            value = getattr(globals_.get(n.func.value.id), n.func.attr, None)
        decl = getattr(value, "__parpy_external__", None)
        if isinstance(decl, External) and decl not in found:
            found.append(decl)
    return found
