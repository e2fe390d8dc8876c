"""Everything a Compyle program imports from ``compyle.api`` (and ``compyle.config``,
``compyle.low_level``, ``compyle.profile``), under smelt's names: change ``compyle`` to
``smelt`` in the imports and the program runs on the engine."""

from .array import Array, wrap  # noqa: F401
from .extern import Extern, external  # noqa: F401
from .config import Config, get_backend, get_config, set_config, use_config  # noqa: F401
from .low_level import Cython, Kernel, LocalMem, cast  # noqa: F401
from .parallel import Elementwise, Reduction, Scan, elementwise  # noqa: F401
from .profile import (ProfileContext, get_profile_info, named_profile, print_profile,  # noqa: F401
                      profile, profile2csv, profile_ctx, profile_kernel, reset_profile)
from .utils import ArgumentParser  # noqa: F401
from .purepy import KnownType, annotate, declare  # noqa: F401
from .tools import compile_source, kernel_text, specialize  # noqa: F401

__all__ = ["Array", "wrap", "Config", "get_backend", "get_config", "set_config", "use_config",
           "Kernel", "LocalMem", "Cython", "cast", "ProfileContext", "named_profile",
           "profile2csv", "profile_kernel", "ArgumentParser", "Elementwise", "Reduction", "Scan", "elementwise",
           "get_profile_info", "print_profile", "profile", "profile_ctx", "reset_profile",
           "KnownType", "annotate", "declare", "compile_source", "kernel_text", "specialize",
           "Extern", "external"]
