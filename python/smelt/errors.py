"""The exceptions smelt raises, and how the engine's C++ errors become them.

- ``CompileError``: a mistake in kernel source. ``filename``, ``lineno``, ``offset`` (1-based,
  in characters, like SyntaxError's) and ``text`` point into the user's file; the message holds
  every diagnostic with its source line and caret. ``diagnostics`` lists them all.
- ``KernelSyntaxError``: a CompileError whose diagnostics all come from the engine's parser; it is
  also a ``SyntaxError``, so tracebacks show it like one.
- ``UsageError``: a wrong call (argument count, dtype, length, unknown name). It is both a
  ``TypeError`` and a ``ValueError``, since the engine reports both kinds of mistake under one
  class.
- ``BackendError``: the toolchain or driver failed (``log``: the compiler's output,
  ``kept_source``: where the generated source was kept). ``BackendUnavailableError`` (also a
  ``NotImplementedError``): the backend asked for is not built or not usable here.
- ``InternalError``: a bug in smelt.
"""

import collections
import linecache

__all__ = ["CompileError", "KernelSyntaxError", "UsageError", "BackendError",
           "BackendUnavailableError", "InternalError", "Diagnostic"]

#: One located error: ``filename``, ``lineno``, ``offset`` (characters, 1-based), ``message``,
#: ``text`` (the line as the user wrote it) and ``rendered`` ("file:L:C: error: ..." + caret).
Diagnostic = collections.namedtuple("Diagnostic", "filename lineno offset message text rendered")


class CompileError(Exception):
    """Mistakes in kernel source; see the module docstring."""

    def __init__(self, diagnostics):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else Diagnostic(None, None, None, "", None, "")
        self.filename, self.lineno, self.offset, self.text = first.filename, first.lineno, first.offset, first.text
        self.msg = first.message
        super().__init__(self._message())

    def _message(self):
        return "\n".join(d.rendered.rstrip("\n") for d in self.diagnostics)

    def __str__(self):
        return self._message()


class KernelSyntaxError(CompileError, SyntaxError):
    """A CompileError from the engine's parser, shown by tracebacks as a SyntaxError."""

    def __init__(self, diagnostics):
        CompileError.__init__(self, diagnostics)
        # SyntaxError keeps its fields in C slots; set them the way SyntaxError(msg, details) does.
        SyntaxError.__init__(self, self.msg, (self.filename, self.lineno, self.offset, self.text))
        self.diagnostics = list(diagnostics)

    def __str__(self):
        return self._message()


class UsageError(TypeError, ValueError):
    """A wrong call; catch it as smelt.UsageError, TypeError or ValueError."""


class BackendError(RuntimeError):
    """The toolchain or device failed. ``log``: its output; ``kept_source``: the generated
    source's path (empty when there is none)."""

    def __init__(self, message, log="", kept_source=""):
        super().__init__(message)
        self.log = log
        self.kept_source = kept_source


class BackendUnavailableError(BackendError, NotImplementedError):
    """The backend asked for is not available in this build or on this machine."""


class InternalError(RuntimeError):
    """A broken invariant inside smelt: please report it."""


# filename -> {line: columns removed}: kernels nested in functions or classes are sent to the
# engine dedented (see _source.py); their diagnostics get the indentation back here.
_COL_SHIFT = {}


def _char_offset(line_text, byte_col):
    """1-based character offset of the 1-based byte column `byte_col` in `line_text`."""
    if not line_text or byte_col <= 1:
        return max(byte_col, 1) if byte_col else byte_col
    raw = line_text.encode("utf-8")
    return len(raw[:byte_col - 1].decode("utf-8", "replace")) + 1


# The engine compiles a reduce/scan expression or a neutral as the body of a generated function
# ("def f(a, b):\n    return EXPR", engine/primitives/combine.cpp); its diagnostics are moved to
# the expression itself, line 1, as the user wrote it.
_EXPR_FILES = ("<reduce_expr>", "<scan_expr>", "<neutral>")
_EXPR_PREFIX = "    return "


def _diagnostic(file, line, col, message, source_line, rendered):
    if file in _EXPR_FILES and line == 2 and source_line.startswith(_EXPR_PREFIX) and col > len(_EXPR_PREFIX):
        line, col = 1, col - len(_EXPR_PREFIX)
        source_line = source_line[len(_EXPR_PREFIX):]
        rendered = "%s:1:%d: error: %s\n%s\n%s^" % (file, col, message, source_line, " " * (col - 1))
    shift = _COL_SHIFT.get(file, {}).get(line, 0)
    offset = _char_offset(source_line, col)
    if shift:
        offset += shift
        original = linecache.getline(file, line).rstrip("\n")
        source_line = original or (" " * shift + source_line)
        rendered = "%s:%d:%d: error: %s\n%s\n%s^" % (file, line, offset, message, source_line,
                                                     " " * (offset - 1))
    return Diagnostic(file, line or None, offset or None, message, source_line, rendered)


def _from_engine(kind, message, diagnostics, syntax, log, kept_source):
    """Called by the extension (set_error_factory) for every engine exception."""
    if kind == "compile":
        diags = [_diagnostic(*d) for d in diagnostics]
        return (KernelSyntaxError if syntax else CompileError)(diags)
    if kind == "usage":
        return UsageError(message)
    if kind == "backend":
        if "is not available" in message or "do not exist" in message or "not implemented" in message:
            return BackendUnavailableError(message, log, kept_source)
        return BackendError(message, log, kept_source)
    return InternalError(message)
