# The package's modules form layers: no module imports, at module level or inside a function, a
# module that imports it back (directly or through others). docs/PYTHON.md ("Inside the package")
# lists the layers. The graph is read from the source tree with `ast`, so these tests need no
# build; they only sit among the package tests that the conftest runs against the built package.
import ast
import os

PACKAGE_DIR = os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "smelt"))


# Modules of the package that are not .py files: the compiled engine, which imports none of them.
COMPILED = ("_smelt",)


def module_files(package_dir=PACKAGE_DIR, package="smelt"):
    """{dotted module name: path} of every .py file of the package (a package is its __init__),
    and None for the compiled modules."""
    found = {package + "." + name: None for name in COMPILED}
    for root, _dirs, files in os.walk(package_dir):
        rel = os.path.relpath(root, package_dir)
        parts = [package] + ([] if rel == "." else rel.split(os.sep))
        for name in files:
            if not name.endswith(".py"):
                continue
            stem = name[:-3]
            dotted = ".".join(parts if stem == "__init__" else parts + [stem])
            found[dotted] = os.path.join(root, name)
    return found


def _resolve(module, is_package, level, target):
    """The absolute name of `from <level dots><target> import ...` written in `module`."""
    if level == 0:
        return target
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def imported_modules(module, path, modules):
    """The package modules that `module` imports anywhere in its file (functions included).

    `from X import name` imports the module X.name when that is a module of the package, and the
    module (or package __init__) X otherwise."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    is_package = os.path.basename(path) == "__init__.py"
    edges = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    edges.setdefault(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, is_package, node.level, node.module or "")
            for alias in node.names:
                sub = source + "." + alias.name
                if sub in modules:
                    edges.setdefault(sub, node.lineno)
                elif source in modules:
                    edges.setdefault(source, node.lineno)
    edges.pop(module, None)
    return edges


def import_graph(package_dir=PACKAGE_DIR, package="smelt"):
    modules = module_files(package_dir, package)
    graph = {m: imported_modules(m, p, modules) if p else {} for m, p in modules.items()}
    return graph, modules


def find_cycle(graph):
    """One import cycle as a list [a, b, ..., a], or None (depth-first search, three colours)."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def describe(cycle, graph, modules):
    steps = []
    for a, b in zip(cycle, cycle[1:]):
        path = os.path.relpath(modules[a], os.path.dirname(PACKAGE_DIR))
        steps.append("%s (%s:%d) imports %s" % (a, path, graph[a][b], b))
    return "import cycle: " + " -> ".join(cycle) + "\n  " + "\n  ".join(steps)


def test_package_imports_form_layers():
    graph, modules = import_graph()
    assert "smelt.purepy" in modules and "smelt.parpy.jit" in modules, "package not found"
    cycle = find_cycle(graph)
    assert cycle is None, describe(cycle, graph, modules)


def test_purepy_imports_nothing_compiled():
    # purepy is the CPython meaning of the kernel language: the apps' CPython checks import smelt
    # from the source tree, without the compiled engine, so it may import no package module.
    graph, _ = import_graph()
    assert graph["smelt.purepy"] == {}


def test_cycle_finder_names_a_function_level_cycle(tmp_path):
    # The finder itself on a two-module package where the back edge is a lazy import.
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import thing\n")
    graph, modules = import_graph(str(pkg), "pkg")
    assert graph["pkg.b"] == {"pkg.a": 2}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]
