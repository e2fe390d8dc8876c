"""Whether the compiled engine (the ``_smelt`` extension module) is installed.

Without it the package still gives the kernel language's CPython meaning (purepy), so kernel
files and the semantics oracle run anywhere. Only the extension's absence is detected here: a
broken extension still raises when a module imports it. A module of its own, at the bottom of the
package's layers (docs/PYTHON.md), so the package's __init__ and low_level share one answer.
"""

import importlib.util as _importlib_util

HAVE_ENGINE = _importlib_util.find_spec(__package__ + "._smelt") is not None
