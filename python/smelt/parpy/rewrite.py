"""The line-preserving rewrite of a ParPy function's text before the engine compiles it.

Two kinds of edit, each replacing a span of one line by text padded with blanks to the span's
length (so every other column stays where the user wrote it, and diagnostics point at the right
place): dict parameters are flattened (dictargs.py), and ParPy's math names, which the engine's
language spells bare (``parpy.exp(x)`` and ``parpy.math.exp(x)`` become ``exp(x)``, ``parpy.inf``
``inf``, ``parpy.max(a, b)`` ``max(a, b)``), lose their module prefix.
"""

import ast

from .dictargs import dict_edits

__all__ = ["MATH_NAMES", "math_edits", "rewrite_for"]

# ParPy's math functions and constants that the kernel language has under the same bare name.
MATH_NAMES = frozenset(["abs", "cos", "exp", "log", "sin", "sqrt", "tanh", "atan2", "inf"])


def _is_module(node, names):
    """`node` is one of the names ParPy's module is bound to, or ``<that>.math``."""
    if isinstance(node, ast.Name):
        return node.id in names
    return (isinstance(node, ast.Attribute) and node.attr == "math"
            and isinstance(node.value, ast.Name) and node.value.id in names)


def _bare(n):
    return (n.lineno, n.col_offset, n.end_col_offset, n.attr.ljust(n.end_col_offset - n.col_offset))


def math_edits(fn, module_names):
    """Edits removing the module prefix of ParPy's math names in the function node `fn`, and of
    the two-value ``parpy.min(a, b)`` / ``parpy.max(a, b)`` (the language's ``min``/``max``;
    the one-argument forms are reductions the engine reads as they are)."""
    edits = []
    for n in ast.walk(fn):
        if (isinstance(n, ast.Attribute) and n.attr in MATH_NAMES and n.lineno == n.end_lineno
                and _is_module(n.value, module_names)):
            edits.append(_bare(n))
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr in ("min", "max") and len(n.args) == 2 and not n.keywords
              and n.func.lineno == n.func.end_lineno and _is_module(n.func.value, module_names)):
            edits.append(_bare(n.func))
    return edits


def _apply(lines, edits):
    out = [line.encode("utf-8") for line in lines]
    # Later columns first, so earlier edits' columns stay valid (ast columns are bytes).
    for line, start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        raw = out[line - 1]
        out[line - 1] = raw[:start] + text.encode("utf-8") + raw[end:]
    return [raw.decode("utf-8") for raw in out]


def rewrite_for(keys, module_names):
    """A callable(lines) -> lines for _source's rewrite_def (the function's own lines, from its
    decorators to its last line, already dedented), flattening the dict parameters `keys`
    ({name: [keys]}) and the math names under `module_names`; None when there is nothing to
    do."""
    if not keys and not module_names:
        return None

    def rewrite(lines):
        fn = ast.parse("".join(lines)).body[0]
        edits = dict_edits(fn, keys) + math_edits(fn, module_names)
        return _apply(lines, edits) if edits else list(lines)

    return rewrite
