"""Dict arguments: a parameter given a dict of arrays or numbers (``d["x"][i]`` in the body).

The engine's functions take arrays and numbers only, so such a parameter is flattened before
the function is compiled: the source is rewritten so that ``def f(d, out)`` reads
``def f(d__x, d__y, out)`` and every ``d["x"]`` reads ``d__x`` (padded with blanks to the
length of what it replaces, so every other column of the line stays where the user wrote it and
diagnostics still point at the right place), and the call passes ``d["x"], d["y"]`` in their
place. ParPy's rules hold: keys are string literals (any other key is a located error), values
are not dicts themselves (a nested dictionary is an error), and the parameter is only ever
subscripted.
"""

import ast
import collections

from .. import errors
from .source import located_error

__all__ = ["DictUse", "dict_uses", "check_dict_params", "flat_names", "flatten_args",
           "dict_edits"]

# uses: [(key, subscript node)] in source order; bare: nodes using the name otherwise.
DictUse = collections.namedtuple("DictUse", "uses bare")


def _params(node):
    return [a.arg for a in node.args.posonlyargs + node.args.args]


def dict_uses(def_node, name):
    """How the body of `def_node` uses the parameter `name` (a DictUse)."""
    uses, bare, inside = [], [], set()
    for n in ast.walk(def_node):
        if (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                and n.value.id == name):
            uses.append((n.slice, n))
            inside.add(id(n.value))
    for n in ast.walk(def_node):
        if isinstance(n, ast.Name) and n.id == name and id(n) not in inside:
            bare.append(n)
    uses.sort(key=lambda u: (u[1].lineno, u[1].col_offset))
    bare.sort(key=lambda n: (n.lineno, n.col_offset))
    return DictUse(uses, bare)


def _key_of(key_node):
    if isinstance(key_node, ast.Constant) and isinstance(key_node.value, str):
        return key_node.value
    return None


def check_dict_params(src, names, values):
    """The keys each dict parameter is read with ({name: [keys in first-use order]}), after
    checking `src` (a FunctionSource) and the dicts passed (`values`, {name: dict}) against
    ParPy's rules. Located CompileErrors for bad keys and other uses; UsageErrors for missing
    keys and nested dicts."""
    keys = {}
    for name in names:
        use = dict_uses(src.node, name)
        if use.bare:
            raise located_error(src, use.bare[0], "'%s' is a dict argument: it may only be "
                                "indexed by string literals, as in %s[\"key\"]" % (name, name))
        found = []
        for key_node, sub in use.uses:
            key = _key_of(key_node)
            if sub.end_lineno != sub.lineno:
                raise located_error(src, sub, "write %s[...] on one line (dict arguments are "
                                    "flattened line by line)" % name)
            if key is None:
                what = ("a non-string key" if isinstance(key_node, ast.Constant)
                        else "a key that is not a string literal")
                raise located_error(src, key_node, "dict argument '%s' indexed by %s: ParPy "
                                    "dict keys must be strings" % (name, what))
            if key not in found:
                found.append(key)
        d = values[name]
        for bad in d:
            if not isinstance(bad, str):
                raise errors.UsageError("dict argument '%s' has the key %r: ParPy dict keys must "
                                        "be strings" % (name, bad))
        for key in found:
            if key not in d:
                raise errors.UsageError("dict argument '%s' has no key %r (the function reads "
                                        "%s[%r])" % (name, key, name, key))
            if isinstance(d[key], dict):
                raise errors.UsageError("dict argument '%s' holds a nested dictionary at key %r: "
                                        "ParPy supports one level of dicts" % (name, key))
        keys[name] = found
    return keys


def flat_names(name, keys, taken):
    """The parameter names replacing dict parameter `name` read with `keys`: ``name__key``
    (``name__<n>`` for keys that are not identifier characters), never one of `taken`."""
    out = []
    for k, key in enumerate(keys):
        flat = "%s__%s" % (name, key if key.isidentifier() else k)
        while flat in taken or flat in out:
            flat += "_"
        out.append(flat)
    return out


def flatten_args(params, args, keys):
    """The positional arguments with each dict argument replaced by its values, in the order
    of the rewritten parameters."""
    out = []
    for name, arg in zip(params, args):
        if name in keys:
            out.extend(arg[k] for k in keys[name])
        else:
            out.append(arg)
    return out


def _all_names(def_node):
    names = set(_params(def_node))
    for n in ast.walk(def_node):
        if isinstance(n, ast.Name):
            names.add(n.id)
    return names


def dict_edits(fn, keys):
    """The edits flattening the dict parameters in `keys` ({name: [keys]}) of the function
    node `fn`, as (line, start column, end column, text) in `fn`'s coordinates (rewrite.py
    applies them)."""
    taken = _all_names(fn)
    edits = []
    for a in fn.args.posonlyargs + fn.args.args:
        if a.arg in keys:
            names = flat_names(a.arg, keys[a.arg], taken)
            edits.append((a.lineno, a.col_offset, a.end_col_offset, ", ".join(names)))
            for (_, sub), key in _subscripts(fn, a.arg):
                flat = names[keys[a.arg].index(key)]
                flat = flat.ljust(sub.end_col_offset - sub.col_offset)
                edits.append((sub.lineno, sub.col_offset, sub.end_col_offset, flat))
    return edits


def _subscripts(fn, name):
    use = dict_uses(fn, name)
    return [(u, _key_of(u[0])) for u in use.uses]
