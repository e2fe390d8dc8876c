"""Profiling (Compyle's ``compyle.profile``), with Compyle's names and return shapes.

With ``get_config().profile = True`` (or inside ``use_config(profile=True)``) every call of an
Elementwise, Reduction, Scan or Kernel, and of the array functions built on them, records its
wall time (waiting for the device to finish first) under the primitive's name, e.g.
``'Elementwise(axpb)'``. ``profile_ctx(name)``, ``@profile`` and ``ProfileContext`` time any
Python block or function, always (as Compyle's do).

Records are kept per nesting level, as in Compyle: a record made while n timed blocks are open
is at level n. ``get_profile_info()`` returns ``{level: {name: {'calls': n, 'time': seconds}}}``
(level 0: the outermost); ``print_profile()`` prints levels 0 and 1, slowest first;
``profile2csv(fname)`` writes ``rank,level,function,calls,time`` rows; ``reset_profile()``
(smelt's addition) clears everything. ``profile_kernel`` / ``named_profile`` wrap any callable
(Compyle uses them for raw PyOpenCL/PyCUDA kernels and Cython functions).
"""

import collections
import contextlib
import functools
import time

from . import backends

__all__ = ["get_profile_info", "print_profile", "reset_profile", "profile_ctx", "profile",
           "ProfileContext", "profile2csv", "profile_kernel", "named_profile"]


def _new_entry():
    return {"calls": 0, "time": 0.0}


_info = collections.defaultdict(lambda: collections.defaultdict(_new_entry))
_level = 0  # timed blocks open now


def record(name, seconds):
    """Adds one call of `seconds` to `name` at the current level."""
    entry = _info[_level][name]
    entry["calls"] += 1
    entry["time"] += seconds


def get_profile_info():
    """{level: {name: {'calls': count, 'time': total seconds}}} (Compyle's shape; a copy)."""
    return {level: {k: dict(v) for k, v in names.items()} for level, names in _info.items()}


def reset_profile():
    _info.clear()


def print_profile(file=None):
    """Prints levels 0 and 1 of the profile, slowest first, and the total time of level 0."""
    hr = "-" * 70
    lines = [hr]
    if not _info:
        lines += ["No profiling information available", hr]
        print("\n".join(lines), file=file)
        return
    lines.append("Profiling info:")
    lines.append("{:<6} {:<40} {:<10} {:<10}".format("Level", "Function", "N calls", "Time"))
    total = 0.0
    for level in sorted(_info)[:2]:
        for name, data in sorted(_info[level].items(), key=lambda kv: -kv[1]["time"]):
            lines.append("{:<6} {:<40} {:<10} {:<10.3g}".format(level, name, data["calls"],
                                                               data["time"]))
            if level == 0:
                total += data["time"]
    lines.append("Total profiled time: %g secs" % total)
    lines.append(hr)
    print("\n".join(lines), file=file)


def profile2csv(fname, info=None):
    """Writes the profile (or `info`: a list of get_profile_info() results, one per rank) to the
    CSV file `fname`: ``rank,level,function,calls,time``, slowest first within a level."""
    if info is None:
        info = [get_profile_info()]
    with open(fname, "w") as f:
        f.write("rank,level,function,calls,time\n")
        for rank, data in enumerate(info):
            for level in sorted(data):
                rows = sorted(data[level].items(), key=lambda kv: -kv[1]["time"])
                for name, d in rows:
                    f.write("%d,%d,%s,%d,%r\n" % (rank, level, name, d["calls"], d["time"]))


@contextlib.contextmanager
def profile_ctx(name):
    """Times the block under `name` (at the level outside it)."""
    global _level
    _level += 1
    start = time.perf_counter()
    try:
        yield start
    finally:
        _level -= 1
        record(name, time.perf_counter() - start)


class ProfileContext:
    """``p = ProfileContext(name); ...; p.stop()``: profile_ctx without a ``with`` block."""

    def __init__(self, name):
        global _level
        self.name = name
        _level += 1
        self.start = time.perf_counter()

    def stop(self):
        global _level
        _level -= 1
        record(self.name, time.perf_counter() - self.start)


def profile(method=None, name=None):
    """``@profile`` or ``@profile(name='x')``: times each call of the function under `name`,
    else, for a method whose object has a ``name`` attribute, that name, else the function's
    qualified name (Compyle's rule)."""

    def make_wrapper(func):
        @functools.wraps(func)
        def wrapper(*args, **kw):
            label = name
            if label is None:
                owner = args[0] if args else None
                if hasattr(owner, func.__name__) and hasattr(owner, "name"):
                    label = owner.name
                else:
                    label = getattr(func, "__qualname__", func.__name__)
            with profile_ctx(label):
                return func(*args, **kw)

        return wrapper

    return make_wrapper if method is None else make_wrapper(method)


def profile_kernel(kernel, name, backend=None):
    """`kernel` itself when profiling is off; else a callable that runs it and records its time
    under `name` (waiting for `backend`'s device first, for the engine's GPU backends)."""
    from .config import get_config
    if not get_config().profile:
        return kernel

    def timed(*args, **kw):
        start = time.perf_counter()
        result = kernel(*args, **kw)
        _synchronize(backend)
        record(name, time.perf_counter() - start)
        return result

    return timed


def named_profile(name, backend=None):
    """Decorator for a function that returns a kernel: the kernel it returns is wrapped by
    ``profile_kernel(kernel, name)`` (`name` None: the function's name)."""

    def decorator(make):
        label = make.__name__ if name is None else name

        @functools.wraps(make)
        def make_profiled(*args, **kw):
            return profile_kernel(make(*args, **kw), label, backend=backend)

        return make_profiled

    return decorator


def _synchronize(backend):
    from . import config
    try:
        engine = config.engine_backend(backend)
    except Exception:  # a backend this build lacks: nothing of ours can be queued there
        return
    if backends.on_device(engine):
        from . import _smelt
        _smelt.synchronize(engine)
