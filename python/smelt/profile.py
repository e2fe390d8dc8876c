"""Profiling of primitive calls (Compyle's ``compyle.profile``).

With ``get_config().profile = True`` (or inside ``use_config(profile=True)``) every call of an
Elementwise, Reduction, Scan or Kernel, and of the array functions built on them, records its
wall time (waiting for the device to finish first) under the primitive's name, e.g.
``'Elementwise(axpb)'``. ``get_profile_info()`` returns ``{name: {'calls': n, 'time': seconds}}``;
``print_profile()`` prints it as a table, slowest first; ``reset_profile()`` clears it.
``profile_ctx(name)`` times any block under `name` while profiling is on.
"""

import contextlib
import time

__all__ = ["get_profile_info", "print_profile", "reset_profile", "profile_ctx", "profile"]

_info = {}


def record(name, seconds):
    entry = _info.get(name)
    if entry is None:
        entry = _info[name] = {"calls": 0, "time": 0.0}
    entry["calls"] += 1
    entry["time"] += seconds


def get_profile_info():
    """{name: {'calls': count, 'time': total seconds}} (a copy)."""
    return {k: dict(v) for k, v in _info.items()}


def reset_profile():
    _info.clear()


def print_profile(file=None):
    """Prints the profile, slowest first, with the total."""
    rows = sorted(_info.items(), key=lambda kv: -kv[1]["time"])
    width = max([len(k) for k, _ in rows] + [len("total")])
    lines = ["%-*s %8s %12s %12s" % (width, "primitive", "calls", "time (s)", "per call (us)")]
    total = 0.0
    for name, v in rows:
        total += v["time"]
        lines.append("%-*s %8d %12.6f %12.2f" % (width, name, v["calls"], v["time"],
                                                 1e6 * v["time"] / max(v["calls"], 1)))
    lines.append("%-*s %8s %12.6f" % (width, "total", "", total))
    print("\n".join(lines), file=file)


@contextlib.contextmanager
def profile_ctx(name):
    """Times the block under `name` when profiling is on."""
    from .config import get_config
    if not get_config().profile:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        record(name, time.perf_counter() - start)


def profile(func):
    """Decorator: times calls of `func` under its name when profiling is on."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kw):
        with profile_ctx(func.__qualname__):
            return func(*args, **kw)

    return wrapper
