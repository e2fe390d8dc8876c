"""Compyle's ``Cython`` class and its ``prange``/``parallel``/``nogil``, compiled by the engine.

Compyle hands such functions to Cython; smelt compiles them itself, to the engine's CPU backend
(C++ with OpenMP): the ``for v in prange(...)`` loop becomes an Elementwise over the loop's
indices (one OpenMP parallel loop), so the function must have the form Compyle's examples
have::

    @annotate(n='int', doublep='x, y', a='double')
    def cy_ex(x, y, a, n):
        i = declare('int')               # declare()s, before the loop or inside the with
        with nogil, parallel():          # optional: any nesting of `with nogil` / `parallel()`
            for i in prange(n):          # prange(stop), (start, stop) or (start, stop, step)
                y[i] = x[i]*a            # the loop body: the kernel language

A function without prange runs once, serially (the same rewrite with a single index). The loop
must be the last statement; other statements, a ``return`` or a second prange are refused with a
UsageError naming the line. prange's keyword arguments (schedule, chunksize, ...) are ignored:
the engine's loops use a static schedule.

The engine sees the function with its lines in place: the ``def`` line gains an index
parameter, the ``with``/``for`` lines become ``v = start + k * step``, and the loop body is
dedented, so errors point at the right lines (columns of the dedented lines shift).
"""

import ast
import contextlib
import inspect
import re

from . import _source
from . import config as _config
from . import errors

__all__ = ["Cython", "prange", "parallel", "nogil"]

_INDEX = "smelt_prange_k"


class _PRange:
    """``prange(...)``: ``range(...)`` in CPython (keyword arguments ignored)."""

    def __call__(self, *args, **kw):
        return range(*args)


class _Parallel:
    """``parallel()``: a context manager that does nothing in CPython."""

    def __call__(self, *args, **kw):
        return contextlib.nullcontext()


class _NoGil:
    """``nogil`` (also ``with nogil:``): does nothing in CPython."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# Instances, not functions: the source reader would otherwise take smelt's own functions for
# kernel-library helpers.
prange = _PRange()
parallel = _Parallel()
nogil = _NoGil()


def _is_declare(stmt):
    return (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "declare")


def _is_docstring(stmt):
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def _is_prange_loop(stmt):
    return (isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Call)
            and isinstance(stmt.iter.func, ast.Name) and stmt.iter.func.id == "prange")


class _Shape:
    """Where things are in a Cython function: its prange loop (or None), the lines of the with
    and for headers, and how far each body line is dedented."""

    def __init__(self, filename, node):
        self.loop = None
        self.headers = []  # line numbers of `with` lines
        self.shift = {}  # line number -> columns to remove
        body_col = node.body[0].col_offset
        self._scan(filename, node.body, body_col, top=True)

    def _fail(self, filename, stmt, what):
        raise errors.UsageError(
            "%s:%d: smelt's Cython runs functions of the form `declare()s; [with nogil, "
            "parallel():] for v in prange(...): body` (%s)" % (filename, stmt.lineno, what))

    def _scan(self, filename, stmts, body_col, top=False):
        for k, stmt in enumerate(stmts):
            last = k == len(stmts) - 1
            if _is_docstring(stmt) and top and k == 0:
                continue
            if _is_declare(stmt):
                self._shift(stmt, stmt.col_offset - body_col)
            elif isinstance(stmt, ast.With) and last and self.loop is None:
                if stmt.lineno != stmt.body[0].lineno - 1:
                    self._fail(filename, stmt, "a with statement on one line")
                self.headers.append(stmt.lineno)
                self._scan(filename, stmt.body, body_col)
            elif _is_prange_loop(stmt) and last and self.loop is None:
                if stmt.orelse or not 1 <= len(stmt.iter.args) <= 3 or not isinstance(
                        stmt.target, ast.Name):
                    self._fail(filename, stmt, "prange(stop), (start, stop) or (start, stop, "
                               "step) into a single name, without else")
                if stmt.body[0].lineno == stmt.lineno:
                    self._fail(filename, stmt, "the loop body on lines of its own")
                self.loop = stmt
                shift = stmt.body[0].col_offset - body_col
                for inner in stmt.body:
                    for sub in ast.walk(inner):
                        if isinstance(sub, ast.Return) or _is_prange_loop(sub):
                            self._fail(filename, sub, "no return or second prange in the loop")
                    self._shift(inner, shift)
            elif not top or self.loop is None and not self._has_prange(stmts):
                if top:
                    self._shift(stmt, 0)  # a serial function: kept as it is
                else:
                    self._fail(filename, stmt, "only declare()s and the loop inside the with")
            else:
                self._fail(filename, stmt, "the prange loop last, after declare()s only")

    @staticmethod
    def _has_prange(stmts):
        return any(_is_prange_loop(sub) for s in stmts for sub in ast.walk(s))

    def _shift(self, stmt, cols):
        for ln in range(stmt.lineno, stmt.end_lineno + 1):
            self.shift[ln] = cols


class Cython:
    """``Cython(func)``: ``cy(*args)`` runs `func` on the engine's CPU backend, its prange loop
    in parallel (OpenMP when the config's use_openmp is on). See the module docstring."""

    def __init__(self, func):
        self.func = _source.function_of(func)
        filename, lines = _source._source_lines(self.func)
        d = _source._find_def(_source._parse(filename, lines), self.func)
        if d is None:
            raise errors.UsageError("cannot find the source of %r" % self.func.__name__)
        self._shape = _Shape(filename, d.node)
        self._def_first = d.first  # the first decorator's line: where rewrite spans start
        self._def_line = d.node.lineno
        self._body_indent = " " * (d.node.body[0].col_offset - d.indent)
        loop = self._shape.loop
        self._range = ([compile(ast.Expression(a), filename, "eval") for a in loop.iter.args]
                       if loop is not None else None)
        self.name = self.func.__name__
        self._elementwise = None
        self._key = None

    def _rewrite(self, lines):
        """The def's lines as the engine compiles them (same count; see the module docstring)."""
        out = list(lines)
        first = self._def_first
        k = self._def_line - first
        out[k] = re.sub(r"(\bdef\s+\w+\s*\()\s*", r"\g<1>%s, " % _INDEX, out[k], count=1)
        out[k] = re.sub(r", \s*\)", ")", out[k], count=1)
        for ln, cols in self._shape.shift.items():
            text = out[ln - first]
            out[ln - first] = text[cols:] if text[:cols].strip() == "" else text.lstrip()
        for ln in self._shape.headers:
            out[ln - first] = "\n"
        loop = self._shape.loop
        if loop is not None:
            texts = [ast.unparse(a) for a in loop.iter.args]
            start = texts[0] if len(texts) >= 2 else "0"
            step = texts[2] if len(texts) == 3 else "1"
            out[loop.lineno - first] = "%s%s = (%s) + %s * (%s)\n" % (
                self._body_indent, loop.target.id, start, _INDEX, step)
        return out

    def _count(self, args):
        if self._range is None:
            return 1
        bound = inspect.signature(self.func).bind(*args)
        bound.apply_defaults()
        names = dict(self.func.__globals__)
        names.update(bound.arguments)
        values = [int(eval(code, names)) for code in self._range]
        return len(range(*values))

    def _primitive(self):
        from .parallel import Elementwise
        backend = "cython"
        key = _config._current._values["use_openmp"], _config._current._values["use_double"]
        if self._elementwise is None or key != self._key:
            program = _source.program_for([self.func], rewrite_def={self.func: self._rewrite})[0]
            self._elementwise = Elementwise._from_program(program, self.name, self.func,
                                                          backend=backend)
            self._key = key
        return self._elementwise

    @property
    def source(self):
        return self._elementwise.source if self._elementwise is not None else ""

    @property
    def all_source(self):
        return self._elementwise.all_source if self._elementwise is not None else ""

    def __call__(self, *args):
        count = self._count(args)
        e = self._primitive()
        if count > 0:
            e.call_n(count, *args)
