"""Configuration (Compyle's ``compyle.config``) and the choice of backend.

``get_config()`` returns the current Config; ``use_config(**options)`` is a context manager that
runs its block with a modified copy and restores the previous one afterwards.

Options and their defaults:

=============  =======  ==============================================================
use_openmp     True     backend 'cython' runs on all cores (False: one thread)
use_opencl     False    default backend is 'opencl'
use_cuda       False    default backend is 'cuda' (wins over use_opencl)
use_double     True     kernels compute in double; False compiles every ``double`` as
                        ``float`` (the engine's single-precision switch)
profile        False    primitives record call counts and times (see smelt.profile)
backend        None     the default backend by name; None: from use_cuda / use_opencl,
                        else 'cython'
wgs            64       Kernel's largest work-group size when a call gives no local_size
                        (LocalMem sizes are multiplied by the group size)
omp_schedule   ('dynamic', 64)  Compyle's OpenMP schedule (kind, chunk); validated and kept,
                        but the engine's CPU loops always use a static schedule
use_local_memory  False  accepted for Compyle programs; no smelt primitive reads it
suppress_warnings False  accepted for Compyle programs; smelt emits no warnings it would hide
=============  =======  ==============================================================

A user file sets other defaults: ``~/.smelt/config.py`` (or the file named by the environment
variable ``SMELT_CONFIG``), Python whose top-level assignments to option names (``use_openmp =
False``, ``backend = 'opencl'``) become the defaults of every Config, like Compyle users' files.
It is read once, at import; an unknown name is a ValueError naming the file and line.
``set_config(None)`` installs a Config with the defaults.

Two defaults differ from Compyle's on purpose: ``use_openmp`` is True (Compyle starts serial)
and ``use_double`` is True (Compyle computes in float on GPUs unless asked). Both can be set as
in Compyle.

Backend names: 'cython', 'openmp', 'cpu' → the engine's CPU backend (C++ with OpenMP;
'cython' honours use_openmp); 'serial' or 'cpu:serial' → one thread; the names of the engine's
other backend rows ('opencl', 'cuda') → those backends when this build has them; 'python' →
CPython on NumPy arrays (the oracle). The names come from the engine's backend table
(smelt.backends), so without the compiled engine only the CPU names and 'python' are known.
"""

import contextlib
import copy

from . import backends as _backends

__all__ = ["Config", "get_config", "set_config", "use_config", "get_backend", "engine_backend",
           "array_backend", "backend_available", "available_backends"]

KNOWN_BACKENDS = _backends.known_names()


def _check_known(name):
    """ValueError unless `name` names a backend. Without the compiled engine there is no table
    to check the engine's names against: they are accepted, and using one needs the engine."""
    if _backends.ROWS and name not in KNOWN_BACKENDS:
        raise ValueError("unknown backend %r (known: %s)" % (name, ", ".join(KNOWN_BACKENDS)))


class Config:
    """The options above as attributes; unknown names are an AttributeError."""

    _DEFAULTS = {"use_openmp": True, "use_opencl": False, "use_cuda": False, "use_double": True,
                 "profile": False, "backend": None, "wgs": 64, "omp_schedule": ("dynamic", 64),
                 "use_local_memory": False, "suppress_warnings": False}

    def __init__(self, **options):
        self.__dict__["_values"] = dict(self._DEFAULTS)
        self.__dict__["_values"].update(_USER_DEFAULTS)
        for k, v in options.items():
            setattr(self, k, v)

    def set_omp_schedule(self, omp_schedule):
        """Compyle's form of OMP_SCHEDULE: ``'dynamic,64'`` or ``'static'``."""
        parts = omp_schedule.split(",")
        self.omp_schedule = (parts[0].strip(), int(parts[1]) if len(parts) == 2 else None)

    def __getattr__(self, name):
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError("smelt Config has no option %r (options: %s)"
                                 % (name, ", ".join(sorted(self._DEFAULTS)))) from None

    def __setattr__(self, name, value):
        if name not in self._DEFAULTS:
            raise AttributeError("smelt Config has no option %r (options: %s)"
                                 % (name, ", ".join(sorted(self._DEFAULTS))))
        self.__dict__["_values"][name] = self._check(name, value)

    @staticmethod
    def _check(name, value):
        """`value` for option `name` (validated; ValueError when it cannot be)."""
        if name == "backend" and value is not None:
            _check_known(value)
        if name == "omp_schedule":
            value = tuple(value)
            if len(value) != 2 or str(value[0]).lower() not in ("static", "dynamic", "guided"):
                raise ValueError("invalid OpenMP schedule %r: expected (kind, chunk) with kind "
                                 "static, dynamic or guided" % (value,))
        return value

    def __copy__(self):
        return Config(**self._values)

    def __repr__(self):
        return "Config(%s)" % ", ".join("%s=%r" % kv for kv in sorted(self._values.items()))


def _read_user_defaults():
    """The options the user's config file sets (see the module docstring)."""
    import ast
    import os
    path = os.environ.get("SMELT_CONFIG") or os.path.join(os.path.expanduser("~"), ".smelt",
                                                         "config.py")
    if not os.path.isfile(path):
        return {}
    with open(path) as f:
        text = f.read()
    namespace = {}
    exec(compile(text, path, "exec"), namespace)
    found = {}
    for stmt in ast.parse(text, path).body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else []
        for t in targets:
            if not isinstance(t, ast.Name) or t.id.startswith("_"):
                continue
            if t.id not in Config._DEFAULTS:
                raise ValueError("%s:%d: unknown smelt config option %r (options: %s)"
                                 % (path, stmt.lineno, t.id, ", ".join(sorted(Config._DEFAULTS))))
            found[t.id] = namespace[t.id]
            try:
                Config._check(t.id, found[t.id])
            except ValueError as exc:
                raise ValueError("%s:%d: %s" % (path, stmt.lineno, exc)) from None
    return found


_USER_DEFAULTS = {}
_USER_DEFAULTS.update(_read_user_defaults())
_current = Config()


def get_config():
    """The current Config (the one use_config installed, inside its block)."""
    return _current


def set_config(config):
    """Installs `config` as the current Config; None installs one with the defaults."""
    global _current
    _current = Config() if config is None else config


@contextlib.contextmanager
def use_config(**options):
    """``with use_config(use_openmp=False): ...`` runs the block with those options."""
    global _current
    previous = _current
    _current = copy.copy(previous)
    for k, v in options.items():
        setattr(_current, k, v)
    try:
        yield _current
    finally:
        _current = previous


def get_backend(backend=None):
    """The backend name a primitive made now with `backend` uses (Compyle's get_backend)."""
    if backend is None:
        cfg = _current
        if cfg.backend is not None:
            return cfg.backend
        return "cuda" if cfg.use_cuda else "opencl" if cfg.use_opencl else "cython"
    _check_known(backend)
    return backend


def _engine_status():
    from . import _smelt
    return {name: (ok, note) for name, ok, note in _smelt.list_backends()}


def backend_available(backend):
    """True when primitives can run on `backend` in this build and on this machine."""
    backend = get_backend(backend)
    if backend == "python" or _backends.family(backend) == _backends.HOST:
        return True
    return _engine_status().get(backend, (False, ""))[0]


def available_backends():
    """The backends that work here, one name per engine row ('cython' stands for every spelling
    of the OpenMP CPU row, 'serial' for the one-thread row), then 'python'."""
    return [b for b in _backends.listed_names() if backend_available(b)]


def _check_available(name):
    ok, note = _engine_status().get(name, (False, "unknown to the engine"))
    if not ok:
        from .errors import BackendUnavailableError
        raise BackendUnavailableError("backend %r is not available: %s" % (name, note))


def engine_backend(backend):
    """The engine's name for a backend ("cpu", "cpu:serial", "opencl", "cuda"), or None for
    'python'. BackendUnavailableError when this build or machine lacks it."""
    backend = get_backend(backend)
    if backend == "python":
        return None
    if backend == "cython" and not _current.use_openmp:
        return "cpu:serial"
    name = _backends.COMPYLE_NAMES.get(backend, backend)
    row = _backends.row(name)
    if _backends.family(name) == _backends.HOST:
        return row["name"] if row else name  # the CPU backend is in every build
    _check_available(name)
    return name


def array_backend(backend):
    """The engine backend arrays for `backend` live on: every CPU flavour (and 'python') shares
    the "cpu" backend's host memory."""
    backend = get_backend(backend)
    family = _backends.family(backend)
    if family is not None and family != _backends.HOST:
        _check_available(backend)
        return family
    return _backends.HOST
