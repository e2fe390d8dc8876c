"""A ParPy function's syntax tree in its file's coordinates, and located errors about it.

Smelt checks what ParPy rejects before any backend sees the function, so the CPython backend
(the tests' oracle) refuses the same programs as the compiled ones, with the same
``file.py:LINE:COL: error:`` message and caret: ``for ... else``, ``while ... else``, ``with``
of anything but ``parpy.gpu``. Dict arguments are checked by dictargs.py with the same tree.
"""

import ast
import collections

from .. import errors
from .._source import _find_def, _parse, _source_lines, function_of

__all__ = ["FunctionSource", "function_source", "located_error", "check_restrictions",
           "user_lines"]

FunctionSource = collections.namedtuple("FunctionSource", "func filename lines node")


def function_source(func):
    """The FunctionSource of a Python function (UsageError when its source cannot be found)."""
    func = function_of(func)
    filename, lines = _source_lines(func)
    try:
        parsed = _parse(filename, lines)
    except SyntaxError as exc:
        raise errors.UsageError("cannot parse %s to read %s: %s"
                                % (filename, func.__name__, exc)) from None
    d = _find_def(parsed, func)
    if d is None:
        raise errors.UsageError("cannot find the definition of %s in %s"
                                % (func.__name__, filename))
    return FunctionSource(func, filename, lines, d.node)


def located_error(src, node, message):
    """A CompileError pointing at `node` of `src` (the engine's format: file:L:C + caret)."""
    line = node.lineno
    text = src.lines[line - 1].rstrip("\n") if line <= len(src.lines) else ""
    col = node.col_offset + 1
    rendered = "%s:%d:%d: error: %s\n%s\n%s^" % (src.filename, line, col, message, text,
                                                 " " * (col - 1))
    return errors.CompileError([errors.Diagnostic(src.filename, line, col, message, text,
                                                  rendered)])


def _is_gpu(expr):
    """``parpy.gpu`` (under whatever name the module was imported) or a bare ``gpu``."""
    if isinstance(expr, ast.Attribute):
        return expr.attr == "gpu"
    return isinstance(expr, ast.Name) and expr.id == "gpu"


def check_restrictions(src):
    """Raises the CompileError of the first construct ParPy rejects in the function's body."""
    for node in ast.walk(src.node):
        if isinstance(node, (ast.For, ast.While)) and node.orelse:
            kind = "for" if isinstance(node, ast.For) else "while"
            raise located_error(src, node, "%s-else is not supported in ParPy functions: move "
                                "the else block after the loop" % kind)
        if isinstance(node, ast.AsyncFor):
            raise located_error(src, node, "async for is not supported in ParPy functions")
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if not _is_gpu(item.context_expr) or item.optional_vars is not None:
                    raise located_error(src, item.context_expr, "the only with statement of "
                                        "ParPy functions is 'with parpy.gpu:'")


def user_lines(exc, src):
    """`exc` with the lines of `src`'s file as the user wrote them: the engine quotes the text it
    compiled, in which rewrite.py replaced spans (with the columns kept)."""
    diags = []
    for d in exc.diagnostics:
        if d.filename == src.filename and d.lineno and d.lineno <= len(src.lines):
            text = src.lines[d.lineno - 1].rstrip("\n")
            if text != d.text:
                rendered = "%s:%d:%d: error: %s\n%s\n%s^" % (
                    d.filename, d.lineno, d.offset, d.message, text, " " * ((d.offset or 1) - 1))
                d = d._replace(text=text, rendered=rendered)
        diags.append(d)
    return type(exc)(diags)
