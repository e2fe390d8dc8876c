"""Static checks that an app's kernel file, and every kernel file it imports, stays within the
kernel language (docs/LANGUAGE.md) with explicit types everywhere. Used by the apps' CPython
physics checks (md2d_physics_check.py, md3d_physics_check.py).

Kernel imports: `from box import min_image` names box.py beside the importing file, else in
apps/common/kernels (the search path the apps pass to the engine). `math` and `smelt` are not
kernel files: they give CPython the builtins' meaning. All functions of the import closure
form one flat namespace, so a name may be defined only once.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KERNEL_PATH = [ROOT / "apps" / "common" / "kernels"]
NOT_KERNEL_MODULES = {"math", "smelt"}

BUILTINS = {"floor", "ceil", "trunc", "sqrt", "cbrt", "exp", "expm1", "log", "log1p", "log2",
            "log10", "pow", "sin", "cos", "tan", "atan2", "hypot", "fabs", "fmod", "copysign",
            "erf", "erfc", "isnan", "isinf", "isfinite", "min", "max", "abs", "int", "float",
            "declare", "cast", "range", "atomic_inc", "atomic_dec", "atomic_add"}
SCALAR_TYPES = {"int", "uint", "long", "ulong", "double", "float"}
TYPE_NAMES = SCALAR_TYPES | {t + "p" for t in SCALAR_TYPES}
ALLOWED_NODES = (ast.FunctionDef, ast.arguments, ast.arg, ast.Expr, ast.Assign, ast.AugAssign,
                 ast.If, ast.For, ast.While, ast.Return, ast.Continue, ast.Break, ast.Pass,
                 ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare,
                 ast.IfExp, ast.Call, ast.Subscript, ast.Load, ast.Store, ast.operator,
                 ast.unaryop, ast.boolop, ast.cmpop, ast.Tuple, ast.keyword)


def resolve_import(module, importer):
    """The kernel file `module` names from `importer`, or None when none exists."""
    for folder in [importer.parent] + KERNEL_PATH:
        candidate = folder / (module + ".py")
        if candidate.is_file():
            return candidate.resolve()
    return None


def _load_closure(path, fail):
    """{file: (tree, {imported name: source file})} for `path` and every kernel file it imports."""
    files, todo = {}, [Path(path).resolve()]
    while todo:
        f = todo.pop()
        if f in files:
            continue
        tree = ast.parse(f.read_text(), str(f))
        imported = {}
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name not in NOT_KERNEL_MODULES:
                        fail("%s:%d: `import %s`: kernel files import names with `from ... "
                             "import`" % (f.name, node.lineno, alias.name))
            if isinstance(node, ast.ImportFrom) and node.module not in NOT_KERNEL_MODULES:
                source = resolve_import(node.module, f)
                if source is None:
                    fail("%s:%d: kernel import %r found neither beside the file nor in %s"
                         % (f.name, node.lineno, node.module, KERNEL_PATH[0]))
                    continue
                for alias in node.names:
                    if alias.asname is not None:
                        fail("%s:%d: `import ... as` renames %r" % (f.name, node.lineno,
                                                                   alias.name))
                    imported[alias.name] = source
                todo.append(source)
        files[f] = (tree, imported)
    return files


def check_kernel_file(path, fail):
    """Calls fail(message) for every violation in `path` and the kernel files it imports."""
    files = _load_closure(path, fail)
    defined = {}  # name -> (file, FunctionDef): the flat namespace
    constant_files = {}  # module constant -> the file that assigns it
    for f, (tree, _) in sorted(files.items()):
        for node in tree.body:
            ok = isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef)) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) or (
                isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant))
            if not ok:
                fail("%s:%d: top-level %s" % (f.name, node.lineno, type(node).__name__))
            if isinstance(node, ast.FunctionDef):
                if node.name in defined and defined[node.name][0] != f:
                    fail("%s:%d: %s is also defined in %s (one flat namespace)"
                         % (f.name, node.lineno, node.name, defined[node.name][0].name))
                defined[node.name] = (f, node)
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        constant_files[t.id] = f
    for f, (tree, imported) in sorted(files.items()):
        own = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        constants = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                     if isinstance(t, ast.Name)}
        for name, source in imported.items():
            from_source = (constant_files.get(name) == source or
                           (name in defined and defined[name][0] == source))
            if name not in constants and not from_source:
                fail("%s: imports %r, which %s does not define" % (f.name, name, source.name))
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            _check_function(f.name, fn, own | set(imported), fail)


def _check_function(file_name, fn, visible, fail):
    where = "%s:%d %s" % (file_name, fn.lineno, fn.name)
    decos = [d for d in fn.decorator_list
             if isinstance(d, ast.Call) and getattr(d.func, "id", "") == "annotate"]
    if len(decos) != 1:
        fail(where + ": needs exactly one @annotate(...)")
        return
    typed, has_return_type = {}, False
    for kw in decos[0].keywords:
        value = kw.value.value
        if kw.arg == "return_":
            has_return_type = True
            if value not in SCALAR_TYPES:
                fail(where + ": unknown return type %r" % value)
        elif kw.arg in TYPE_NAMES:
            for p in value.split(","):
                typed[p.strip()] = kw.arg
        else:
            if value not in TYPE_NAMES:
                fail(where + ": unknown type %r" % value)
            typed[kw.arg] = value
    params = [a.arg for a in fn.args.args]
    for p in params:
        if p not in typed:
            fail(where + ": parameter %r has no explicit type" % p)
    for p in typed:
        if p not in params:
            fail(where + ": annotate names %r, not a parameter" % p)
    returns_value = any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn))
    if returns_value != has_return_type:
        fail(where + ": return_ type must match returns")
    body = fn.body[1:] if (isinstance(fn.body[0], ast.Expr) and
                           isinstance(fn.body[0].value, ast.Constant)) else fn.body
    for stmt in body:
        for node in ast.walk(stmt):
            if not isinstance(node, ALLOWED_NODES):
                fail("%s:%d: construct %s is not in the kernel language"
                     % (where, node.lineno, type(node).__name__))
            if isinstance(node, ast.Tuple) and not isinstance(node.ctx, ast.Store):
                fail(where + ": tuples only as declare targets")
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple):
                v = node.value
                if not (isinstance(v, ast.Call) and getattr(v.func, "id", "") == "declare"):
                    fail(where + ": tuple assignment only from declare()")
            if isinstance(node, ast.Call):
                callee = getattr(node.func, "id", None)
                if callee not in BUILTINS and callee not in visible:
                    fail("%s: call to %r is neither a builtin nor a function the file defines "
                         "or imports" % (where, callee))
                if node.keywords:
                    fail(where + ": keyword arguments at a call site")
            if isinstance(node, ast.For):
                it = node.iter
                if not (isinstance(it, ast.Call) and getattr(it.func, "id", "") == "range"):
                    fail(where + ": for loops iterate over range() only")
