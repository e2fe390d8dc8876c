"""Compyle's ``compyle.utils``: ``getsource``/``getsourcelines`` that also take objects carrying
a ``source`` attribute (the primitives), and ``ArgumentParser``, argparse with Compyle's
standard options applied to the config when the arguments are parsed."""

import argparse
import atexit
import inspect

from . import backends as _backends
from .config import Config, get_config
from .profile import print_profile

__all__ = ["getsourcelines", "getsource", "ArgumentParser"]


def getsourcelines(obj):
    """(lines, first line number) of `obj`'s source; for an object without Python source but
    with a ``source`` attribute (a primitive: its generated code), those lines and 0."""
    try:
        return inspect.getsourcelines(obj)
    except Exception:
        if hasattr(obj, "source"):
            return obj.source.splitlines(True), 0
        raise


def getsource(obj):
    """The source of `obj` (or its ``source`` attribute, see getsourcelines)."""
    try:
        return inspect.getsource(obj)
    except Exception:
        if hasattr(obj, "source"):
            return obj.source
        raise


class ArgumentParser(argparse.ArgumentParser):
    """argparse.ArgumentParser with Compyle's options ``-b/--backend {cython,opencl,cuda}``
    (cython, and the engine's backends with device memory: smelt.backends.device_families()),
    ``--openmp``, ``--use-double``, ``--suppress-warnings`` and ``--profile``; parsing sets them
    on ``get_config()`` (``--profile`` also prints the profile at exit).

    As in Compyle, OpenMP is on only with ``--openmp``, and ``--use-double`` concerns the GPU
    backends: with ``-b cython`` kernels compute in double either way (Compyle's CPU code never
    demotes doubles)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_argument("-b", "--backend", action="store", dest="backend", default="cython",
                          choices=["cython"] + list(_backends.device_families()),
                          help="Choose the backend.")
        self.add_argument("--openmp", action="store_true", dest="openmp", default=False,
                          help="Use OpenMP.")
        self.add_argument("--use-double", action="store_true", dest="use_double", default=False,
                          help="Use double precision on the GPU.")
        self.add_argument("--suppress-warnings", action="store_true", dest="suppress_warnings",
                          default=False, help="Suppress warnings")
        self.add_argument("--profile", action="store_true", dest="profile", default=False,
                          help="Print profiling info")
        self.profile_registered = False

    def _set_config_options(self, options):
        cfg = get_config()
        cfg.use_openmp = options.openmp
        cfg.use_double = options.use_double or options.backend == "cython"
        cfg.suppress_warnings = options.suppress_warnings
        if options.backend != "cython":
            # Compyle's flags for its GPU backends (use_opencl, use_cuda), which its programs
            # read; a backend without one is chosen by name.
            flag = "use_" + options.backend
            if flag in Config._DEFAULTS:
                setattr(cfg, flag, True)
            else:
                cfg.backend = options.backend
        if options.profile and not self.profile_registered:
            cfg.profile = True
            atexit.register(print_profile)
            self.profile_registered = True

    def parse_args(self, *args, **kwargs):
        options = super().parse_args(*args, **kwargs)
        self._set_config_options(options)
        return options

    def parse_known_args(self, *args, **kwargs):
        options, unknown = super().parse_known_args(*args, **kwargs)
        self._set_config_options(options)
        return options, unknown
