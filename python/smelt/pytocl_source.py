"""pytocl kernels → the text smelt's engine compiles (the source rewrite behind smelt.pytocl).

A pytocl kernel reads its work item through OpenCL's functions (``get_global_id(d)``,
``get_local_id(d)``, ``get_group_id(d)``, ``get_global_size(d)``, ``get_local_size(d)``,
``get_num_groups(d)``) and waits at barriers through pytocl's
``cl_call("barrier", cl_inline("CLK_LOCAL_MEM_FENCE"))``. The engine's primitives give a
function its work item as values instead: the index of an Elementwise, the builtins
``GID_d LID_d LDIM_d GDIM_d`` of a low-level Kernel. So the kernels and every function of their
file they reach are rewritten, each on its own lines (``_source.program_for``'s ``rewrite_def``),
and a launcher per CLFuncDesc is appended after the file's text:

- each work-item call becomes a parameter, ``get_global_id(1)`` → ``_smelt_gid1``, padded with
  spaces to the call's length so the rest of the line keeps its columns (diagnostics point where
  the user wrote);
- every def that reads such a value, or calls a def that does, gets the values the program uses
  (one list for all defs) as extra parameters at the end of its list (at the start when it has
  default values), and passes them on in its calls to such defs;
- barriers become ``local_barrier()``; ``cl_call("exp", x)`` becomes ``exp(x)``;
- with pytocl's name-based types, the first assignment of each local is annotated
  (``value: float = ...``, ``i_row: int = ...``, ``b_ok: bool = ...``);
- the launcher computes the values, from the flat index of an Elementwise over the whole global
  range (dimension 0 varying fastest, as OpenCL numbers work items), or from the work-group
  builtins of a Kernel, and calls the kernel with its arguments and the values.

Lines that get parameters or annotations inserted are longer than the user's, so a diagnostic
after the insertion on such a line has its column shifted by the insertion's length.
"""

import ast
import collections

from . import errors
from ._source import reached_defs

__all__ = ["WORK_ITEM_FUNCS", "Rewrite", "value_name", "pytocl_type_of"]

#: pytocl's (OpenCL's) work-item functions → the short name of the value they give.
WORK_ITEM_FUNCS = collections.OrderedDict([
    ("get_global_id", "gid"), ("get_local_id", "lid"), ("get_group_id", "grp"),
    ("get_global_size", "gsz"), ("get_local_size", "lsz"), ("get_num_groups", "ngr")])

BARRIER_FLAGS = ("CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE")

_Edit = collections.namedtuple("_Edit", "line start end text")  # 1-based line, 0-based chars


def value_name(kind, dim):
    """The parameter carrying a work-item value: ('gid', 1) → '_smelt_gid1'."""
    return "_smelt_%s%d" % (kind, dim)


def pytocl_type_of(name):
    """pytocl's type for a local by its name: i, j, k and i_* int, b_* bool, others float."""
    if name in ("i", "j", "k") or name.startswith("i_"):
        return "int"
    if name.startswith("b_"):
        return "bool"
    return "float"


def _char_col(lines, lineno, byte_col):
    """The 0-based character column of the AST's 0-based UTF-8 byte column."""
    return len(lines[lineno - 1].encode("utf-8")[:byte_col].decode("utf-8", "replace"))


def _located(filename, lines, node, message):
    line = lines[node.lineno - 1].rstrip("\n") if node.lineno <= len(lines) else ""
    col = _char_col(lines, node.lineno, node.col_offset) + 1
    rendered = "%s:%d:%d: error: %s\n%s\n%s^" % (filename, node.lineno, col, message, line,
                                                 " " * (col - 1))
    return errors.CompileError([errors.Diagnostic(filename, node.lineno, col, message, line,
                                                  rendered)])


def _is_str(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


class _DefInfo:
    """What one def does with work items: its edits (without the parameter insertions), the
    work-item values it reads, whether it waits at a barrier, its calls to other reached defs,
    the parameters it stores into."""

    def __init__(self, name, node, first):
        self.name, self.node, self.first = name, node, first
        self.edits = []
        self.uses = set()  # (kind, dim)
        self.barrier = False
        self.calls = []  # ast.Call nodes calling a reached def
        self.stored = {}  # parameter name -> first node storing into it
        self.type_edits = []  # pytocl's name-based types alone


class Rewrite:
    """The rewrite of the kernels `funcs` (and the defs of their file they reach).

    ``rewrite_def`` is the {def name: callable(lines) -> lines} for ``program_for``;
    ``needs_values(name)`` says whether a def takes the work-item parameters, ``values`` lists
    them ((kind, dim) pairs, in parameter order); ``barrier(name)`` says whether a def waits at a
    barrier, itself or in a function it calls; ``launcher(...)`` is the text of a launcher."""

    def __init__(self, funcs, pytocl_types=False):
        self.filename, self.lines, defs = reached_defs(funcs)
        self._pytocl_types = pytocl_types
        self._infos = collections.OrderedDict()
        names = set(name for name, _, _ in defs)
        for name, node, first in defs:
            self._infos[name] = self._scan(name, node, first, names)
        self._propagate()
        self.values = sorted(set().union(*[i.uses for i in self._infos.values()]),
                             key=lambda kd: (list(WORK_ITEM_FUNCS.values()).index(kd[0]), kd[1]))
        self.rewrite_def = {}
        for name, info in self._infos.items():
            edits = list(info.edits)
            if self.values:
                edits += self._value_insertions(info)
            if edits:
                self.rewrite_def[name] = self._apply(edits, info.first)

    # --- analysis ---------------------------------------------------------------------------

    def _scan(self, name, node, first, reached):
        info = _DefInfo(name, node, first)
        lines, skip = self.lines, set()
        params = set(a.arg for a in node.args.args + node.args.posonlyargs + node.args.kwonlyargs)
        for sub in ast.walk(node):
            if sub in skip or sub is node:
                continue
            if isinstance(sub, (ast.Assign, ast.AugAssign)):
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                for t in targets:
                    if (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
                            and t.value.id in params):
                        info.stored.setdefault(t.value.id, t)
            if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)):
                continue
            fname = sub.func.id
            if fname in WORK_ITEM_FUNCS:
                dim = sub.args[0].value if len(sub.args) == 1 and isinstance(sub.args[0], ast.Constant) else None
                if sub.keywords or not isinstance(dim, int) or isinstance(dim, bool) or not 0 <= dim <= 2:
                    raise _located(self.filename, lines, sub,
                                   "%s takes one literal dimension, 0, 1 or 2 (smelt passes the "
                                   "work item's values as parameters)" % fname)
                kind = WORK_ITEM_FUNCS[fname]
                info.uses.add((kind, dim))
                info.edits.append(self._replace(sub, value_name(kind, dim)))
                skip.update(ast.walk(sub))
            elif fname == "barrier" or (fname == "cl_call" and sub.args and _is_str(sub.args[0])
                                        and sub.args[0].value == "barrier"):
                flags = sub.args[1:] if fname == "cl_call" else sub.args
                if not self._barrier_flags(flags):
                    raise _located(self.filename, lines, sub,
                                   "a barrier takes CLK_LOCAL_MEM_FENCE or CLK_GLOBAL_MEM_FENCE "
                                   "(or cl_inline of one of them)")
                info.barrier = True
                info.edits.append(self._replace(sub, "local_barrier()"))
                skip.update(ast.walk(sub))
            elif fname == "local_barrier":
                info.barrier = True
            elif fname == "cl_call":
                if not sub.args or not _is_str(sub.args[0]) or not sub.args[0].value.isidentifier():
                    raise _located(self.filename, lines, sub,
                                   "cl_call needs the name of the function to call as a string "
                                   "literal first")
                callee = sub.args[0].value
                if len(sub.args) == 1:
                    info.edits.append(self._replace(sub, callee + "()"))
                else:
                    info.edits.append(self._replace_prefix(sub, sub.args[1], callee + "("))
                skip.add(sub.args[0])
            elif fname == "cl_inline":
                raise _located(self.filename, lines, sub,
                               "cl_inline inserts OpenCL C text, which smelt does not compile (it "
                               "generates C++, OpenCL and CUDA from the Python); only a barrier's "
                               "cl_inline('CLK_LOCAL_MEM_FENCE') is understood")
            elif fname in reached and fname != name:
                info.calls.append(sub)
        if self._pytocl_types:
            info.type_edits = self._type_annotations(node, params)
            info.edits += info.type_edits
        return info

    @staticmethod
    def _barrier_flags(flags):
        if len(flags) != 1:
            return False
        f = flags[0]
        if isinstance(f, ast.Name):
            return f.id in BARRIER_FLAGS
        return (isinstance(f, ast.Call) and isinstance(f.func, ast.Name) and f.func.id == "cl_inline"
                and len(f.args) == 1 and _is_str(f.args[0]) and f.args[0].value in BARRIER_FLAGS)

    def _propagate(self):
        """A def calling a def that reads work-item values (or waits at a barrier) does too."""
        changed = True
        while changed:
            changed = False
            for info in self._infos.values():
                for call in info.calls:
                    callee = self._infos[call.func.id]
                    if callee.uses - info.uses:
                        info.uses |= callee.uses
                        changed = True
                    if callee.barrier and not info.barrier:
                        info.barrier = changed = True

    def needs_values(self, name):
        return bool(self.values) and bool(self._infos[name].uses)

    def barrier(self, name):
        return self._infos[name].barrier

    def stored_params(self, name):
        """{parameter name: first ast node storing into its elements} of a def."""
        return self._infos[name].stored

    def located(self, node, message):
        return _located(self.filename, self.lines, node, message)

    # --- edits ------------------------------------------------------------------------------

    def _span(self, node):
        if node.lineno != node.end_lineno:
            raise _located(self.filename, self.lines, node,
                           "smelt.pytocl rewrites this call and needs it on one line")
        return (_char_col(self.lines, node.lineno, node.col_offset),
                _char_col(self.lines, node.lineno, node.end_col_offset))

    def _replace(self, node, text):
        start, end = self._span(node)
        return _Edit(node.lineno, start, end, text.ljust(end - start))

    def _replace_prefix(self, call, first_arg, text):
        """`cl_call("exp", x)` → `exp(   x)`: the text from the call's start to its second
        argument replaced, padded."""
        start = _char_col(self.lines, call.lineno, call.col_offset)
        if first_arg.lineno != call.lineno:
            raise _located(self.filename, self.lines, call,
                           "smelt.pytocl rewrites this call and needs it on one line")
        end = _char_col(self.lines, first_arg.lineno, first_arg.col_offset)
        return _Edit(call.lineno, start, end, text.ljust(end - start))

    def _type_annotations(self, node, params):
        """pytocl's name-based local types: `name: T` at each local's first plain assignment
        (not for loop variables, which pytocl makes int whatever their name), and the values
        assigned to int locals converted as C converts them, `i_half: int = int(x / 2)`."""
        loop_vars = set(n.target.id for n in ast.walk(node)
                        if isinstance(n, ast.For) and isinstance(n.target, ast.Name))
        annotated = set(n.target.id for n in ast.walk(node)
                        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name))
        seen, edits = set(params) | loop_vars | annotated, []
        assigns = sorted((n for n in ast.walk(node)
                          if isinstance(n, ast.Assign) and len(n.targets) == 1
                          and isinstance(n.targets[0], ast.Name)),
                         key=lambda n: (n.lineno, n.col_offset))
        for a in assigns:
            t = a.targets[0]
            if t.id in params or t.id in loop_vars or t.id in annotated:
                continue
            if pytocl_type_of(t.id) == "int":
                v = a.value
                start = _char_col(self.lines, v.lineno, v.col_offset)
                end = _char_col(self.lines, v.end_lineno, v.end_col_offset)
                edits += [_Edit(v.lineno, start, start, "int("), _Edit(v.end_lineno, end, end, ")")]
            if t.id in seen:
                continue
            seen.add(t.id)
            end = _char_col(self.lines, t.end_lineno, t.end_col_offset)
            edits.append(_Edit(t.end_lineno, end, end, ": " + pytocl_type_of(t.id)))
        return edits

    def typed_text(self):
        """The file's text with only the name-based types applied to the reached defs (each
        at its lines, dedented; everything else blank): what backend 'python' runs with
        pytocl_types."""
        out = ["\n"] * len(self.lines)
        for info in self._infos.values():
            node = info.node
            for ln in range(info.first, node.end_lineno + 1):
                line = self.lines[ln - 1]
                indent = node.col_offset
                out[ln - 1] = line[indent:] if line[:indent].strip() == "" else line.lstrip()
            if info.type_edits:
                span = out[info.first - 1:node.end_lineno]
                out[info.first - 1:node.end_lineno] = self._apply(info.type_edits, info.first)(span)
        return "".join(out)

    def _value_text(self):
        return ", ".join(value_name(k, d) for k, d in self.values)

    def values_first(self, name):
        """Whether a def takes the work-item values first (it has default values) or last."""
        a = self._infos[name].node.args
        return bool(a.defaults or a.vararg or a.kwonlyargs or a.kwarg or a.posonlyargs)

    def _value_insertions(self, info):
        edits = []
        if self.needs_values(info.name):
            edits.append(self._param_insertion(info))
        for call in info.calls:
            if self.needs_values(call.func.id):
                edits.append(self._call_insertion(call, self.values_first(call.func.id)))
        return edits

    def _param_insertion(self, info):
        node, lines, text = info.node, self.lines, self._value_text()
        args = node.args.args
        if args and not self.values_first(info.name):
            last = args[-1]
            end = _char_col(lines, last.end_lineno, last.end_col_offset)
            return _Edit(last.end_lineno, end, end, ", " + text)
        line = lines[node.lineno - 1]
        start = _char_col(lines, node.lineno, node.col_offset)
        paren = line.index("(", line.index(node.name, start) + len(node.name)) + 1
        return _Edit(node.lineno, paren, paren, text + (", " if args else ""))

    def _call_insertion(self, call, first):
        lines, text = self.lines, self._value_text()
        has_args = bool(call.args or call.keywords)
        if first or not has_args:
            line = lines[call.func.end_lineno - 1]
            paren = line.index("(", _char_col(lines, call.func.end_lineno, call.func.end_col_offset)) + 1
            return _Edit(call.func.end_lineno, paren, paren, text + (", " if has_args else ""))
        end = _char_col(lines, call.end_lineno, call.end_col_offset) - 1  # the ')'
        before = lines[call.end_lineno - 1][:end].rstrip()
        sep = " " if before.endswith(",") else ", "
        return _Edit(call.end_lineno, end, end, sep + text)

    def _apply(self, edits, first):
        """The rewrite_def callable of a def starting (with its decorators) at line `first`."""
        original = self.lines
        by_line = collections.defaultdict(list)
        for e in edits:
            by_line[e.line].append(e)

        def rewrite(span):
            # `span` holds the def's lines, dedented when the def is nested: an edit's column
            # moves left by what the dedent removed from its line.
            out = list(span)
            for ln, line_edits in by_line.items():
                k = ln - first
                if not 0 <= k < len(out):
                    raise errors.InternalError("pytocl rewrite outside its def (line %d)" % ln)
                text = out[k]
                shift = len(original[ln - 1]) - len(text)
                for e in sorted(line_edits, key=lambda e: e.start, reverse=True):
                    text = text[:e.start - shift] + e.text + text[e.end - shift:]
                out[k] = text
            return out

        return rewrite

    # --- launchers --------------------------------------------------------------------------

    def launcher(self, name, func_name, nargs, global_size, local_size, kernel):
        """The text of a function `name` running `func_name` on one work item: with
        ``kernel=False`` an Elementwise function of the flat index over the global range
        ``global_size`` (3 numbers) in groups of ``local_size``; with ``kernel=True`` a
        low-level Kernel function (the engine launches it with those sizes)."""
        params = ["_smelt_a%d" % k for k in range(nargs)]
        body = []
        values = []
        if self.needs_values(func_name):
            g, l = global_size, local_size
            gids = set(d for kind, d in self.values if kind in ("gid", "lid", "grp"))
            for d in sorted(gids):
                if kernel:
                    expr = "GID_%d * LDIM_%d + LID_%d" % (d, d, d)
                elif d == 0:
                    expr = "_smelt_i %% %d" % g[0]
                elif d == 1:
                    expr = "_smelt_i // %d %% %d" % (g[0], g[1])
                else:
                    expr = "_smelt_i // %d" % (g[0] * g[1])
                body.append("    %s = %s" % (value_name("gid", d), expr))
            for kind, d in self.values:
                gid = value_name("gid", d)
                if kernel:
                    expr = {"gid": gid, "lid": "LID_%d" % d, "grp": "GID_%d" % d,
                            "gsz": "GDIM_%d * LDIM_%d" % (d, d), "lsz": "LDIM_%d" % d,
                            "ngr": "GDIM_%d" % d}[kind]
                else:
                    expr = {"gid": gid, "lid": "%s %% %d" % (gid, l[d]),
                            "grp": "%s // %d" % (gid, l[d]), "gsz": str(g[d]), "lsz": str(l[d]),
                            "ngr": str(g[d] // l[d])}[kind]
                values.append(expr)
        call_args = (values + params) if self.values_first(func_name) else (params + values)
        body.append("    %s(%s)" % (func_name, ", ".join(call_args)))
        head = "def %s(%s):" % (name, ", ".join(([] if kernel else ["_smelt_i"]) + params))
        return "\n".join([head] + body) + "\n"
