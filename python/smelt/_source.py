"""Python functions → the kernel text the engine compiles (an engine Program).

A kernel travels as source. The engine gets the text of the file the function was defined in
(found through ``inspect.getsourcefile`` / ``linecache``, so IPython cells and strings registered
with linecache work too), with every line kept at its place so diagnostics point into the user's
file, but with everything the kernel does not need blanked out:

- kept: the function, the functions it calls (by name: top-level functions of the file, or
  functions defined next to it when it is nested in another function), with their decorators, and
  the module constants they use (``NAME = <numeric expression>``);
- blanked: everything else (test code, classes, full-Python helpers), so the engine never has to
  read Python it does not support;
- nested functions are dedented to column 0 (errors.py adds the indentation back to column
  numbers);
- names the kernel reads that are numbers at run time but not constants in the file (closure
  variables, values imported from elsewhere, ``specialize`` overrides) are appended at the end of
  the text as ``NAME = value`` lines;
- functions the kernel calls that are defined in another file (``from box import min_image``,
  a kernel library) are appended as ``from MODULE import NAME`` lines, and the directory Python
  imported MODULE from is put on the Program's kernel search path, so the engine reads that file
  itself (with its own names and line numbers). Functions of the standard library and of
  installed packages (site-/dist-packages) are not followed.

When the file cannot be parsed by CPython any more (edited since import), the function's own
source (``inspect.getsourcelines``) is used alone, at its original lines.
"""

import ast
import collections
import inspect
import linecache
import math
import numbers
import os
import re
import sys
import sysconfig
import types

import numpy as np

from . import errors
from . import purepy
from .extern import Extern, declarations

__all__ = ["program_for", "kernel_text", "specialize", "function_of", "register_source"]

# Names the kernel language defines: never captured as constants even though purepy gives some
# of them numeric values in CPython (pi, LID_0, ...).
_LANGUAGE_NAMES = frozenset(purepy.__all__) | frozenset(
    ["range", "int", "float", "abs", "min", "max", "True", "False", "None", "len", "bool"])

_ParsedFile = collections.namedtuple("_ParsedFile", "lines defs top_defs constants")
_Def = collections.namedtuple("_Def", "node name first last indent scopes")

_PARSED = collections.OrderedDict()  # (filename, text) -> _ParsedFile
_PROGRAMS = collections.OrderedDict()  # (filename, text) -> engine Program
_CACHE_SIZE = 64


def function_of(obj):
    """The Python function behind `obj` (a function, or a primitive / decorated wrapper with a
    ``func`` attribute)."""
    seen = 0
    # Only smelt's own wrappers are unwrapped (functools.partial also has .func, but its bound
    # arguments would be lost).
    while (not isinstance(obj, types.FunctionType) and hasattr(obj, "func") and seen < 8
           and type(obj).__module__.startswith("smelt.")):
        obj, seen = obj.func, seen + 1
    if not isinstance(obj, types.FunctionType):
        raise errors.UsageError("expected a Python function (def), not %r" % (obj,))
    return obj


def register_source(text, name):
    """Registers `text` with linecache under the pseudo file name `name` (e.g. '<smelt-1>') so
    functions exec'd from it have findable source, as IPython does for its cells."""
    lines = text.splitlines(True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    linecache.cache[name] = (len(text), None, lines, name)


def _lru_put(cache, key, value):
    cache[key] = value
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)


def _is_numeric_expr(node):
    """True for the module constants the engine accepts: numbers, names and arithmetic."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.UAdd, ast.USub, ast.Invert)) and _is_numeric_expr(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_numeric_expr(node.left) and _is_numeric_expr(node.right)
    return False


def _parse(filename, lines):
    text = "".join(lines)
    key = (filename, text)
    parsed = _PARSED.get(key)
    if parsed is not None:
        _PARSED.move_to_end(key)
        return parsed
    module = ast.parse(text, filename)  # SyntaxError: the caller falls back
    defs, top_defs, constants = [], {}, {}

    def visit(body, scopes):
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if isinstance(stmt, ast.FunctionDef):
                    first = min([stmt.lineno] + [d.lineno for d in stmt.decorator_list])
                    d = _Def(stmt, stmt.name, first, stmt.end_lineno, stmt.col_offset, scopes)
                    defs.append(d)
                    if not scopes:
                        top_defs[stmt.name] = d
                visit(stmt.body, scopes + (stmt,))
            elif not scopes and isinstance(stmt, ast.Assign):
                if (len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and _is_numeric_expr(stmt.value)):
                    constants[stmt.targets[0].id] = stmt
            else:
                # defs inside if/for/with/try blocks of a scope belong to that scope
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(stmt, field, None)
                    if isinstance(inner, list):
                        visit([s for s in inner if isinstance(s, ast.stmt)] +
                              [s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body],
                              scopes)

    visit(module.body, ())
    parsed = _ParsedFile(lines, defs, top_defs, constants)
    _lru_put(_PARSED, key, parsed)
    return parsed


def _source_lines(func):
    code = func.__code__
    try:
        filename = inspect.getsourcefile(func) or code.co_filename
    except TypeError:
        filename = code.co_filename
    linecache.checkcache(filename)
    lines = linecache.getlines(filename, func.__globals__)
    if not lines:
        raise errors.UsageError(
            "cannot find the source of %r (defined in %s): smelt compiles functions from their "
            "source, so define kernels in a file (or pass source text to smelt.compile_string)"
            % (func.__name__, code.co_filename))
    return filename, lines


def _find_def(parsed, func):
    code = func.__code__
    candidates = [d for d in parsed.defs if d.name == code.co_name]
    for d in candidates:
        if d.first == code.co_firstlineno or d.node.lineno == code.co_firstlineno:
            return d
    return None


def _names(node):
    """(names read, names bound) in a function: parameters and assigned names are bound."""
    loads, stores = set(), set()
    for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
        stores.add(a.arg)
    for stmt in node.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name):
                (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
    return loads, stores


def _resolve_helper(parsed, d, name):
    """The def a call to `name` inside `d` means: a def in an enclosing function's body (nearest
    first), else a top-level def of the file."""
    for scope in reversed(d.scopes):
        if isinstance(scope, ast.ClassDef):
            continue  # class bodies are not enclosing scopes for names in methods
        for other in parsed.defs:
            if other.name == name and other.scopes and other.scopes[-1] is scope:
                return other
    return parsed.top_defs.get(name)


def _closure(parsed, roots, skip=()):
    """The defs the root defs need (themselves included); the names each one reads but neither
    binds nor resolves to a def ({name: [defs]}); and the calls between them (caller, name,
    callee). Defs whose node ids are in `skip` are not followed: their names count as free."""
    included, free, calls = [], {}, []
    work = list(roots)
    while work:
        d = work.pop()
        if any(d is x for x in included):
            continue
        included.append(d)
        loads, stores = _names(d.node)
        for name in sorted(loads - stores):
            helper = _resolve_helper(parsed, d, name)
            if helper is not None and id(helper.node) in skip:
                helper = None
            if helper is not None and helper is not d:
                calls.append((d, name, helper))
                work.append(helper)
            elif helper is None:
                free.setdefault(name, []).append(d)
    return included, free, calls


def _function_objects(roots, funcs, calls):
    """{def node: Python function} for the roots and, through their closure cells and
    globals, the helpers they call (so a helper's own closure values can be read)."""
    objs = {id(d.node): f for d, f in zip(roots, funcs)}
    changed = True
    while changed:
        changed = False
        for caller, name, callee in calls:
            if id(callee.node) in objs or id(caller.node) not in objs:
                continue
            value = _runtime_value(objs[id(caller.node)], name)
            if isinstance(value, types.FunctionType) and value.__code__.co_name == callee.name:
                objs[id(callee.node)] = value
                changed = True
    return objs


def _constant_deps(parsed, names):
    """Module constants named in `names`, with the constants their values use."""
    out, work = [], [n for n in names if n in parsed.constants]
    while work:
        n = work.pop()
        if n in out:
            continue
        out.append(n)
        for sub in ast.walk(parsed.constants[n].value):
            if isinstance(sub, ast.Name) and sub.id in parsed.constants:
                work.append(sub.id)
    return out


def _number_text(value):
    """`value` as a kernel-language constant expression, or None when it is not a number."""
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, (numbers.Integral, np.integer)):
        return str(int(value))
    if isinstance(value, (numbers.Real, np.floating)):
        v = float(value)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    return None


def _runtime_value(func, name):
    code = func.__code__
    if name in code.co_freevars and func.__closure__:
        try:
            return func.__closure__[code.co_freevars.index(name)].cell_contents
        except ValueError:  # empty cell
            return None
    return func.__globals__.get(name)


def _installed_dirs():
    """Directories of the standard library and installed packages, whose functions are never
    treated as kernel-library functions."""
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(os.path.realpath(path))
    return tuple(sorted(dirs))


_INSTALLED = _installed_dirs()


def _is_installed(path):
    real = os.path.realpath(path)
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return True
    return any(real == d or real.startswith(d + os.sep) for d in _INSTALLED)


def _library_import(value, filename):
    """(module, def name, search directory) when `value` is a Python function defined in a file
    other than `filename` that the engine should read as a kernel library; else None."""
    if not isinstance(value, types.FunctionType):
        return None
    try:
        path = inspect.getsourcefile(value) or value.__code__.co_filename
    except TypeError:
        return None
    if (not path or path.startswith("<") or not path.endswith(".py") or not os.path.isfile(path)
            or os.path.realpath(path) == os.path.realpath(filename) or _is_installed(path)):
        return None
    module = getattr(value, "__module__", None) or ""
    tail = os.path.join(*module.split(".")) + ".py" if module else ""
    real = os.path.realpath(path)
    if module and module != "__main__" and real.endswith(os.sep + tail):
        root = real[:-len(tail) - 1]
    else:  # e.g. a function of the script run as __main__: its file, by its own name
        module = os.path.splitext(os.path.basename(real))[0]
        root = os.path.dirname(real)
    return module, value.__code__.co_name, root


def _user_search_path():
    """The directories of sys.path that hold user code (not the standard library or installed
    packages): where the engine looks for the kernel files a kernel library imports in turn."""
    out = []
    for entry in sys.path:
        path = os.path.realpath(entry or os.getcwd())
        if os.path.isdir(path) and not _is_installed(path) and path not in out:
            out.append(path)
    return out


def _dedent(line, indent):
    if line[:indent].strip() == "":
        return line[indent:] if len(line) > indent else "\n"
    return line.lstrip(" \t")


def _rewrite_lines(out, d, rewrite):
    if rewrite is not None and d.node in rewrite:
        span = out[d.first - 1:d.last]
        new = rewrite[d.node](span)
        if len(new) != len(span):
            raise errors.InternalError("a source rewrite must keep the line count")
        out[d.first - 1:d.last] = new


def kernel_text(funcs, constants=None, rewrite_def=None, appended=None):
    """(filename, text) the engine compiles for the functions `funcs` (one file).

    `constants`: {name: number} overriding module constants (specialize). `rewrite_def`:
    {function: callable(lines) -> lines} applied to a function's own lines (pytocl)."""
    filename, text, _, _ = _kernel_source(funcs, constants, rewrite_def, appended)
    return filename, text


def _kernel_source(funcs, constants=None, rewrite_def=None, appended=None):
    filename, text, search, externs = _file_source(funcs, constants, rewrite_def)
    if appended:
        # Functions smelt writes (a Scan's array input) after the user's lines, so those keep
        # their numbers.
        text += appended
    return filename, text, search, externs


def _file_source(funcs, constants=None, rewrite_def=None):
    """(filename, text, kernel search path, externs) for `funcs`: kernel_text plus the
    directories of the kernel libraries the text imports and the external functions the
    kernels call ({name: Extern}, see extern.py), found as closure or global values."""
    funcs = [function_of(f) for f in funcs]
    constants = dict(constants or {})
    for f in funcs:
        for k, v in getattr(f, "__smelt_constants__", {}).items():
            constants.setdefault(k, v)
    files = {}
    for f in funcs:
        filename, lines = _source_lines(f)
        files.setdefault(filename, lines)
    if len(files) != 1:
        raise errors.UsageError("the functions of one primitive must be defined in one file, "
                                "not in %s" % " and ".join(sorted(files)))
    (filename, lines), = files.items()
    try:
        parsed = _parse(filename, lines)
    except SyntaxError:
        parsed = None
    roots = [_find_def(parsed, f) for f in funcs] if parsed else [None]
    if parsed is None or any(r is None for r in roots):
        return filename, _fragments_text(funcs, lines, constants), [], {}

    included, free, calls = _closure(parsed, roots)
    objects = _function_objects(roots, funcs, calls)
    # A def decorated into an external function (@smelt.external(...)) is no kernel function:
    # its name is looked up at run time below, like any other name the kernel reads.
    external_defs = set()
    for caller, name, callee in calls:
        f = objects.get(id(caller.node))
        if f is not None and isinstance(_runtime_value(f, name), Extern):
            external_defs.add(id(callee.node))
    if external_defs:
        included, free, calls = _closure(parsed, roots, external_defs)
        objects = _function_objects(roots, funcs, calls)
    names = {d.name: d for d in included}
    if len(names) != len(included):
        dup = sorted({d.name for d in included if sum(x.name == d.name for x in included) > 1})
        raise errors.UsageError("the kernel needs two different functions named %s in %s; rename "
                                "one" % (", ".join(dup), filename))

    out = ["\n"] * len(lines)
    shifts = errors._COL_SHIFT.setdefault(filename, {})
    rewrite = {}
    for f, fn in (rewrite_def or {}).items():
        d = _find_def(parsed, function_of(f))
        if d is not None:
            rewrite[d.node] = fn
    for d in included:
        for ln in range(d.first, d.last + 1):
            line = lines[ln - 1]
            if d.indent:
                out[ln - 1] = _dedent(line, d.indent)
                shifts[ln] = len(line) - len(out[ln - 1])
            else:
                out[ln - 1] = line
        _rewrite_lines(out, d, rewrite)

    # Module constants the kernel reads, at their own lines; other numbers the kernel reads at
    # the end. Overrides replace both.
    extra = {}
    for name in _constant_deps(parsed, [n for n in free if n not in constants]):
        stmt = parsed.constants[name]
        for ln in range(stmt.lineno, stmt.end_lineno + 1):
            out[ln - 1] = lines[ln - 1]
    imports, roots_of_libraries, externs = [], [], {}
    for name, readers in sorted(free.items()):
        if name in constants or name in parsed.constants or name in _LANGUAGE_NAMES:
            continue
        text = library = None
        for d in readers:
            f = objects.get(id(d.node))
            value = _runtime_value(f, name) if f is not None else None
            if isinstance(value, Extern):
                externs[name] = value
                break
            text = _number_text(value)
            library = _library_import(value, filename) if text is None else None
            if text is not None or library is not None:
                break
        if text is not None:
            extra[name] = text
        elif library is not None:
            module, def_name, root = library
            imports.append("from %s import %s%s\n" % (
                module, def_name, "" if def_name == name else " as " + name))
            if root not in roots_of_libraries:
                roots_of_libraries.append(root)
    for name, value in constants.items():
        text = _number_text(value)
        if text is None:
            raise errors.UsageError("constant %s=%r: only numbers can be substituted" % (name, value))
        extra[name] = text
    if extra:
        out.append("\n# smelt: values of names the kernel reads (closure, globals, specialize)\n")
        out.extend("%s = %s\n" % kv for kv in sorted(extra.items()))
    if imports:
        out.append("\n# smelt: functions the kernel calls from kernel libraries\n")
        out.extend(imports)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    search = roots_of_libraries + [d for d in _user_search_path() if d not in roots_of_libraries]
    return filename, "".join(out), search if imports else [], externs


def _fragments_text(funcs, lines, constants):
    """Fallback when the file does not parse any more: each function's own source at its lines."""
    out = ["\n"] * len(lines)
    for f in funcs:
        try:
            src, start = inspect.getsourcelines(f)
        except (OSError, TypeError) as exc:
            raise errors.UsageError("cannot find the source of %r: %s" % (f.__name__, exc)) from None
        indent = len(src[0]) - len(src[0].lstrip())
        for k, line in enumerate(src):
            if start - 1 + k < len(out):
                out[start - 1 + k] = _dedent(line, indent) if indent else line
            else:
                out.append(_dedent(line, indent) if indent else line)
    extra = {k: _number_text(v) for k, v in constants.items()}
    out.extend("%s = %s\n" % kv for kv in sorted(extra.items()) if kv[1] is not None)
    return "".join(out)


def program_for(funcs, constants=None, rewrite_def=None, appended=None):
    """(engine Program, filename, text) for `funcs` (with the source text `appended` after
    theirs); Programs are cached by their text."""
    from . import _smelt
    filename, text, search, externs = _kernel_source(funcs, constants, rewrite_def, appended)
    decls, decl_key = declarations(externs)
    key = (filename, text, tuple(search), decl_key)
    prog = _PROGRAMS.get(key)
    if prog is None:
        prog = _smelt.Program(filename, text, 0, search, decls)
        _lru_put(_PROGRAMS, key, prog)
    else:
        _PROGRAMS.move_to_end(key)
    return prog, filename, text


# ---------------------------------------------------------------------------------------------
# specialize: compile-time constants (what Compyle's mako Templates are mostly used for)


def _copy_function(f, new_globals):
    g = types.FunctionType(f.__code__, new_globals, f.__name__, f.__defaults__, f.__closure__)
    g.__kwdefaults__ = f.__kwdefaults__
    g.__dict__.update(f.__dict__)
    g.__annotations__ = dict(f.__annotations__)
    g.__qualname__ = f.__qualname__
    g.__module__ = f.__module__
    return g


def specialize(func, **constants):
    """A copy of `func` in which the module-level names in `constants` have the given numeric
    values, both when it is compiled (the engine sees ``NAME = value``, i.e. a compile-time
    constant: loop bounds, matrix extents, unrolling) and when it runs in CPython (the copy and
    the helper functions it calls see the new values)::

        N = 2
        def dot_n(i, x, y, out):
            s = 0.0
            for k in range(N):
                s += x[N * i + k] * y[N * i + k]
            out[i] = s

        dot3 = specialize(dot_n, N=3)     # Elementwise(dot3) compiles with N = 3

    Specialising a specialised function adds to its constants. ``kernel_text(dot3)`` shows the
    text the engine gets.
    """
    func = function_of(func)
    for k, v in constants.items():
        if _number_text(v) is None:
            raise errors.UsageError("specialize(%s=%r): values must be numbers" % (k, v))
    merged = dict(getattr(func, "__smelt_constants__", {}))
    merged.update(constants)
    new_globals = dict(func.__globals__)
    new_globals.update(constants)
    # Helpers called by name get the same globals, so CPython sees the values everywhere.
    try:
        filename, lines = _source_lines(func)
        parsed = _parse(filename, lines)
        root = _find_def(parsed, func)
        included = _closure(parsed, [root])[0] if root else []
    except (SyntaxError, errors.UsageError):
        included = []
    for d in included:
        helper = func.__globals__.get(d.name)
        if isinstance(helper, types.FunctionType) and helper is not func and not d.scopes:
            new_globals[d.name] = _copy_function(helper, new_globals)
    g = _copy_function(func, new_globals)
    g.__smelt_constants__ = merged
    return g


_GID_CALL = re.compile(r"\bget_global_id\s*\(\s*0\s*\)")


def global_id_rewrite(index_name):
    """A rewrite_def callable for pytocl-style kernels: adds `index_name` as the first parameter
    and replaces ``get_global_id(0)`` by it, padded so the columns of the rest of each line stay
    where the user wrote them."""

    def rewrite(lines):
        out = list(lines)
        for k, line in enumerate(out):
            m = re.match(r"(\s*def\s+\w+\s*\()", line)
            if m:
                out[k] = m.group(1) + index_name + (", " if line[m.end():].strip()[:1] != ")" else "") + line[m.end():]
                break
        for k, line in enumerate(out):
            out[k] = _GID_CALL.sub(lambda mm: index_name.ljust(len(mm.group(0))), line)
        return out

    return rewrite
