"""Compyle's ``compyle.types``: type objects, ``annotate``, ``declare`` and ``KnownType``
(all from smelt.purepy, the kernel language's CPython meaning)."""

from .purepy import *  # noqa: F401,F403
from .purepy import __all__  # noqa: F401
from .purepy import _TYPES as TYPES  # noqa: F401  every type spelling → KnownType
