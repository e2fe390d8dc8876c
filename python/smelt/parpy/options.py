"""CompileOptions, the parallel-specification helpers (par, threads, reduce) and the choice of
backend (``CompileBackend.Auto`` resolution)."""

import numbers

import numpy as np

from .. import backends as _backends
from .. import errors
from .types import CompileBackend, ElemSize, LoopPar

__all__ = ["CompileOptions", "par", "threads", "reduce", "resolve_backend"]

# Every field with its default (ParPy's, plus nothing else: Smelt's extras are backend values).
_DEFAULTS = {
    "parallelize": dict,
    "verbose_backend_resolution": lambda: False,
    "debug_print": lambda: False,
    "write_output": lambda: False,
    "backend": lambda: CompileBackend.Auto,
    "use_cuda_thread_block_clusters": lambda: False,
    "max_thread_blocks_per_cluster": lambda: 8,
    "use_cuda_graphs": lambda: False,
    "force_int_size": lambda: None,
    "force_float_size": lambda: None,
    "includes": list,
    "libs": list,
    "extra_flags": list,
}
_BOOLS = ("verbose_backend_resolution", "debug_print", "write_output",
          "use_cuda_thread_block_clusters", "use_cuda_graphs")
_LISTS = ("includes", "libs", "extra_flags")


class CompileOptions:
    """ParPy's compile options (docs/PYTHON.md, "ParPy API", lists what each does in Smelt).
    Fields are checked when set: a misspelt name is an AttributeError, a wrong value a
    ValueError or TypeError naming the field."""

    def __init__(self):
        for name, make in _DEFAULTS.items():
            object.__setattr__(self, name, make())

    def __setattr__(self, name, value):
        if name not in _DEFAULTS:
            raise AttributeError("CompileOptions has no field %r (fields: %s)"
                                 % (name, ", ".join(_DEFAULTS)))
        object.__setattr__(self, name, _check(name, value))

    def copy(self):
        new = CompileOptions()
        for name in _DEFAULTS:
            value = getattr(self, name)
            object.__setattr__(new, name, type(value)(value) if isinstance(value, (dict, list))
                               else value)
        return new

    def key(self):
        """A hashable summary of every field (part of the compile cache key)."""
        d = self.__dict__
        return (tuple(sorted((k, v._key()) for k, v in d["parallelize"].items())),
                d["verbose_backend_resolution"], d["debug_print"], d["write_output"],
                d["backend"], d["use_cuda_thread_block_clusters"],
                d["max_thread_blocks_per_cluster"], d["use_cuda_graphs"], d["force_int_size"],
                d["force_float_size"], tuple(d["includes"]), tuple(d["libs"]),
                tuple(d["extra_flags"]))

    def __eq__(self, other):
        return isinstance(other, CompileOptions) and other.key() == self.key()

    __hash__ = None  # mutable

    def __repr__(self):
        return "CompileOptions(%s)" % ", ".join("%s=%r" % (n, getattr(self, n)) for n in _DEFAULTS)


def _check(name, value):
    if name in _BOOLS:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError("CompileOptions.%s must be a bool, not %r" % (name, value))
        return bool(value)
    if name in _LISTS:
        if isinstance(value, str) or not all(isinstance(v, str) for v in value):
            raise TypeError("CompileOptions.%s must be a list of strings, not %r" % (name, value))
        return list(value)
    if name == "parallelize":
        return _parallel_spec(value)
    if name == "backend":
        if not isinstance(value, CompileBackend):
            raise TypeError("CompileOptions.backend must be a parpy.CompileBackend, not %r"
                            % (value,))
        return value
    if name == "max_thread_blocks_per_cluster":
        if (isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer))
                or value <= 0 or value & (value - 1)):
            raise ValueError("CompileOptions.max_thread_blocks_per_cluster must be a power of "
                             "two, not %r" % (value,))
        return int(value)
    if name in ("force_int_size", "force_float_size"):
        if value is not None and not isinstance(value, ElemSize):
            raise TypeError("CompileOptions.%s must be None or a parpy.ElemSize, not %r"
                            % (name, value))
        wanted = "int" if name == "force_int_size" else "float"
        if value is not None and not np.dtype(value.value).kind in (
                ("i", "u") if wanted == "int" else ("f",)):
            raise ValueError("CompileOptions.%s must be an %s size, not %r" % (name, wanted, value))
        return value
    return value


def _parallel_spec(spec):
    if not isinstance(spec, dict):
        raise TypeError("a parallel specification is a dict {label: LoopPar}, not %r" % (spec,))
    for k, v in spec.items():
        if not isinstance(k, str):
            raise TypeError("parallel specification: labels are strings, not %r" % (k,))
        if not isinstance(v, LoopPar):
            raise TypeError("parallel specification: label %r maps to %r, not a LoopPar "
                            "(use parpy.threads(n), parpy.reduce() or parpy.LoopPar())" % (k, v))
    return dict(spec)


def par(spec):
    """CompileOptions with the default fields and the parallel specification `spec`
    ({label: LoopPar})."""
    opts = CompileOptions()
    opts.parallelize = spec
    return opts


def threads(n):
    """``LoopPar().threads(n)``."""
    return LoopPar().threads(n)


def reduce():
    """``LoopPar().reduce()``."""
    return LoopPar().reduce()


# ---------------------------------------------------------------------------------------------
# Backend resolution

_ENGINE_NAME = {CompileBackend.Cuda: "cuda", CompileBackend.OpenCL: "opencl",
                CompileBackend.Cpu: "cpu", CompileBackend.Python: "python"}
# OpenCL devices that are processors, not GPUs, by the device names their drivers report
# (PoCL: "pthread-<cpu>" or "cpu-<arch>-<cpu>"; Intel's CPU runtime names the processor).
_CPU_DEVICE_PREFIXES = ("pthread", "cpu-", "cpu ")


def _engine_status():
    from .. import _smelt
    return {name: (ok, note) for name, ok, note in _smelt.list_backends()}


def _opencl_gpu():
    """(True, '') when the engine's OpenCL device is a GPU, else (False, why not). The engine
    lists devices as ("[k] PLATFORM / DEVICE", "details ... (selected)")."""
    from .. import _smelt
    try:
        devices = _smelt.devices("opencl")
    except Exception as exc:  # noqa: BLE001  (the backend failed to start: say why)
        return False, str(exc)
    chosen = [d for d in devices if "(selected)" in d[1]] or devices[:1]
    for name, _ in chosen:
        device = name.split(" / ", 1)[-1].lower()
        if not device.startswith(_CPU_DEVICE_PREFIXES) and " cpu" not in " " + device:
            return True, ""
    names = ", ".join(n for n, _ in chosen) or "none"
    return False, "its device is a processor, not a GPU (%s)" % names


def resolve_backend(opts):
    """The engine backend name for `opts.backend` ('cuda', 'opencl', 'cpu' or 'python').

    Auto: cuda when the engine has a usable CUDA device, else OpenCL when its device is a GPU,
    else the CPU; with ``verbose_backend_resolution`` each backend passed over is printed with
    the reason. An explicit backend that is unavailable is a BackendUnavailableError; Metal is
    one always (Smelt has no Metal backend)."""
    backend = opts.backend
    if backend is CompileBackend.Metal:
        raise errors.BackendUnavailableError(
            "CompileBackend.Metal: Smelt has no Metal backend (use Cuda, OpenCL, Cpu or Auto)")
    if backend is not CompileBackend.Auto:
        name = _ENGINE_NAME[backend]
        if _backends.on_device(name):  # the CPU is in every build
            ok, note = _engine_status().get(name, (False, "unknown to the engine"))
            if opts.verbose_backend_resolution:
                print("parpy: backend %s %s" % (backend.name, "is available" if ok else
                                                "is not available: " + note))
            if not ok:
                raise errors.BackendUnavailableError("CompileBackend.%s is not available: %s"
                                                     % (backend.name, note))
        return name
    name, skipped = _auto_choice()
    if opts.verbose_backend_resolution:
        for b, why in skipped:
            print("parpy: Auto skips CompileBackend.%s: %s" % (b, why))
        print("parpy: Auto selects CompileBackend.%s" % _NAME_OF[name])
    return name


_NAME_OF = {"cuda": "Cuda", "opencl": "OpenCL", "cpu": "Cpu"}
_AUTO = []  # the Auto choice, made once per process as ParPy does: [(name, skipped)]


def _auto_choice():
    """(engine backend name, [(backend passed over, why)]) for CompileBackend.Auto."""
    if _AUTO:
        return _AUTO[0]
    status = _engine_status()
    skipped = []
    ok, note = status.get("cuda", (False, "unknown to the engine"))
    if ok:
        _AUTO.append(("cuda", skipped))
        return _AUTO[0]
    skipped.append(("Cuda", note))
    ok, note = status.get("opencl", (False, "unknown to the engine"))
    if ok:
        ok, note = _opencl_gpu()
    if ok:
        _AUTO.append(("opencl", skipped))
        return _AUTO[0]
    skipped.append(("OpenCL", note))
    skipped.append(("Metal", "Smelt has no Metal backend"))
    _AUTO.append(("cpu", skipped))
    return _AUTO[0]
