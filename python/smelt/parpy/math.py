"""``parpy.math``: ParPy's math functions under the name newer ParPy versions use
(``parpy.math.exp(x)``); the same functions as ``parpy.exp`` ... (operators.py). In compiled
code both spellings become the kernel language's bare names (rewrite.py)."""

from .operators import abs, atan2, cos, exp, inf, log, sin, sqrt, tanh  # noqa: F401

__all__ = ["abs", "atan2", "cos", "exp", "inf", "log", "sin", "sqrt", "tanh"]
