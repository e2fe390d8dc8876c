"""The kernel language's typing of numbers, for CPython (``language(func)``, which the semantics
oracle, backend='python' and pytocl's CPython runs use; it builds on purepy's names).

A kernel run as plain Python computes with NumPy's promotion rules, which are not the language's
and which changed in NumPy 2 (NEP 50): ``c * 1000`` for an int8 ``c`` raises OverflowError there,
``u // -2`` for a uint32 ``u`` too, and an int32 argument passed to a ``long`` parameter stays
int32. ``language(func)`` returns a copy of ``func`` compiled from its source with a few
rewrites, so that every operation gets the type the engine gives it (engine/lower/), whatever
the NumPy version; NumPy then only ever computes on two operands of one dtype, where all its
versions agree:

- ``a OP b``, comparisons and unary ``- + ~`` call ``_bin``/``_cmp``/``_unary``, which apply the
  engine's rules: a Python ``int``/``float`` (a literal or module constant) is *weak* and takes
  the other operand's type when it fits (``fit_literal``), otherwise the operands follow C's
  promotion (``promote``), and ``/`` of integers is double;
- a function's parameters are converted to their declared types on entry (undeclared ones keep
  the argument's type; a Python number becomes ``long``/``double``), ``return`` converts to the
  declared result type, and falling off the end of a function that returns values gives zero;
- a local keeps the type of its first assignment (a lone literal is ``long``/``double``), later
  assignments convert to it; ``for v in range(...)`` gives ``v`` the engine's loop type;
- ``x[j] = v`` wraps a literal into the element type; ``x[j] op= v`` evaluates ``j`` once;
- ``min``, ``max``, ``abs``, ``int``, ``float`` and calls of other kernel functions go through
  ``_call`` (callees are translated too); ``declare``, ``cast`` and the atomics are called as
  written (the atomics find their element from the caller's frame and source position, which
  the copy keeps: it is compiled with the original file name, lines and columns).

Two approximations, because CPython evaluates only the branch taken: in ``a if c else b`` a
literal branch takes the other branch's type only when that one is a literal too or is the
branch evaluated; a local's type is that of its first assignment *executed*, a function's
result (when not declared) the type of the value returned. Functions whose source cannot be
found run untranslated. The single-precision switch is not modelled (double stays double).
"""

import ast
import builtins
import inspect
import operator
import textwrap
import types
import weakref

import numpy as np

from . import purepy

# ---------------------------------------------------------------------------------------------
# The engine's type rules (engine/ir/type.cpp promote, lower_expr.cpp fit_int_literal and
# common_numeric), on NumPy dtypes.

# Every NumPy scalar class of the language's types (np.longlong and np.int64 are distinct classes
# of one dtype on Linux) → its dtype.
_DT = {np.dtype(c).type: np.dtype(np.dtype(c).str) for c in "?bBhHiIlLqQfd"}
_BOOL, _I32, _I64, _U64, _F64 = (np.dtype(t) for t in (np.bool_, np.int32, np.int64, np.uint64,
                                                        np.float64))
_DEFAULT_FLOAT = _F64  # the single-precision switch is the engine's alone
_WEAK = (int, float)  # exact types: bool and NumPy scalars are typed


def _dtype_of(x):
    """The language type of a typed scalar (NumPy scalar or Python bool); None otherwise."""
    t = _DT.get(type(x))
    if t is None and type(x) is bool:
        return _BOOL
    return t


def _widen(t):
    # C's integer promotion: bool, 8- and 16-bit integers become int.
    return _I32 if t.kind == "b" or (t.kind in "iu" and t.itemsize < 4) else t


def promote(a, b):
    """The type of an operation on two typed operands (C's usual arithmetic conversions)."""
    a, b = _widen(a), _widen(b)
    if a.kind == "f" or b.kind == "f":
        return _F64 if _F64 in (a, b) else np.dtype(np.float32)
    if a.itemsize != b.itemsize:
        return a if a.itemsize > b.itemsize else b
    return b if a.kind == "i" else a  # equal width: unsigned wins


def _fits(v, t):
    bits = 8 * t.itemsize
    if t.kind == "u":
        return 0 <= v < (1 << bits)
    return -(1 << (bits - 1)) <= v < (1 << (bits - 1))


def fit_literal(t, v):
    """The type of an integer literal `v` meeting an operand of integer type `t`: `t` promoted
    when it holds `v`, else long (ulong stays ulong)."""
    p = promote(t, t)
    if _fits(v, p):
        return p
    return p if p == _U64 else _I64


def common_type(a, b):
    """The type both operands of a binary operation are converted to; None when both are
    weak (Python computes on literals as the engine's constant folding does)."""
    ta, tb = _dtype_of(a), _dtype_of(b)
    if ta is not None and tb is not None:
        return promote(ta, tb)
    if ta is None and tb is None:
        return None
    t, w = (ta, b) if ta is not None else (tb, a)
    if t.kind == "f":
        return t
    if type(w) is float:
        return _DEFAULT_FLOAT
    return fit_literal(t, w)


def _wrap(v, t):
    """A Python int as the value type `t` holds after C's wrapping conversion."""
    bits = 8 * t.itemsize
    v &= (1 << bits) - 1
    if t.kind == "i" and v >> (bits - 1):
        v -= 1 << bits
    return v


def to_type(x, t):
    """`x` (weak or typed) converted to the scalar type `t` as the engine converts."""
    tx = type(x)
    if tx is t.type:
        return x
    if tx is int and t.kind in "iu":
        return t.type(_wrap(x, t))
    if isinstance(x, np.generic) and t.kind != "b":
        return x.astype(t)
    return purepy._convert(x, t)


def _typed(x):
    """A value as the engine would type it on its own: a lone literal is long or double."""
    tx = type(x)
    if tx is int:
        return np.int64(_wrap(x, _I64))
    if tx is float:
        return np.float64(x)
    if tx is bool:
        return np.bool_(x)
    return x


def _is_number(x):
    return type(x) in _WEAK or _dtype_of(x) is not None


# ---------------------------------------------------------------------------------------------
# Run-time helpers called by translated code.

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
          "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift}
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
            "==": operator.eq, "!=": operator.ne}
_BITWISE = frozenset("& | ^".split())
# Same-type operands these ops need no conversion for (no C promotion, no division change).
_FAST = frozenset(c for c, t in _DT.items() if t.kind == "f" or (t.kind in "iu" and t.itemsize >= 4))


def _bin(op, a, b):
    f = _ARITH[op]
    ta = type(a)
    if ta is type(b) and ta in _FAST and (op != "/" or _DT[ta].kind == "f"):
        return f(a, b)
    if not (_is_number(a) and _is_number(b)):
        return f(a, b)  # not a language value (full-Python code): Python's meaning
    if op in _BITWISE and _dtype_of(a) == _BOOL and _dtype_of(b) == _BOOL:
        return f(np.bool_(a), np.bool_(b))
    t = common_type(a, b)
    if t is None:
        return f(a, b)  # two literals: Python's arithmetic is the engine's constant folding
    if op == "/" and t.kind != "f":
        t = _DEFAULT_FLOAT
    return f(to_type(a, t), to_type(b, t))


def _cmp(op, a, b):
    f = _COMPARE[op]
    if type(a) is type(b) or not (_is_number(a) and _is_number(b)):
        return f(a, b)
    if _dtype_of(a) == _BOOL and _dtype_of(b) == _BOOL:
        return f(a, b)
    t = common_type(a, b)
    return f(a, b) if t is None else f(to_type(a, t), to_type(b, t))


def _unary(op, x):
    if _dtype_of(x) == _BOOL:
        x = np.int32(x)  # -True is -1 as an int, not NumPy's error or logical not
    if op == "-":
        return -x
    return +x if op == "+" else ~x


def _truth(x):
    """`and`/`or` give a bool in the language, not one of their operands."""
    return x if type(x) in (bool, np.bool_) else bool(x)


def _branch(value, other):
    """The chosen value of `a if c else b`, typed with `other`: the other branch's literal
    value, or _TYPED when it is not a literal (its type is unknown without evaluating it)."""
    if type(value) in _WEAK:
        if other is _TYPED:
            return _typed(value)
        if type(other) in _WEAK:
            both_int = type(value) is int and type(other) is int
            return _typed(value) if both_int else np.float64(value)
    elif other is not _TYPED and _dtype_of(value) not in (None, _BOOL):
        return to_type(value, common_type(value, other))
    return value


_TYPED = object()


def _minmax(take, args):
    # The engine folds left to right: acc = b if b < acc else acc (min), in the common type.
    acc = args[0]
    for b in args[1:]:
        t = common_type(acc, b) if _is_number(acc) and _is_number(b) else None
        x, y = (acc, b) if t is None else (to_type(acc, t), to_type(b, t))
        acc = y if take(y, x) else x
    return acc


def _abs(x):
    if _dtype_of(x) == _BOOL:
        x = np.int32(x)
    return abs(x)


def _int(x):
    return purepy._convert(x, _I32) if _is_number(x) else int(x)


def _float(x):
    return purepy._convert(x, _DEFAULT_FLOAT) if _is_number(x) else float(x)


_BUILTIN_CALLS = {builtins.min: lambda *a: _minmax(operator.lt, a) if len(a) > 1 else min(*a),
                  builtins.max: lambda *a: _minmax(operator.gt, a) if len(a) > 1 else max(*a),
                  builtins.abs: _abs, builtins.int: _int, builtins.float: _float}


def _call(f, *args):
    special = _BUILTIN_CALLS.get(f) if type(f) in (types.BuiltinFunctionType, type) else None
    if special is not None:
        return special(*args)
    if type(f) is types.FunctionType and not f.__globals__.get("__name__", "").startswith("smelt."):
        f = language(f)  # a kernel function; smelt's own (purepy's math, ...) are not kernels
    return f(*args)


def _param(local_types, name, type_name, value):
    if type_name is not None:
        t = purepy.type_of(type_name)
        if not t.is_pointer and _is_number(value):
            value = to_type(value, t.dtype)
    else:
        value = _typed(value)
    local_types[name] = _dtype_of(value)
    return value


def _let(local_types, name, value):
    t = local_types.get(name, _UNSEEN)
    if t is _UNSEEN:
        value = _typed(value)
        local_types[name] = _dtype_of(value)
        return value
    return value if t is None or not _is_number(value) else to_type(value, t)


_UNSEEN = object()


def _let_many(local_types, names, values):
    values = tuple(values)
    return tuple(_let(local_types, n, v) for n, v in zip(names, values))


def _let_as(local_types, name, type_name, value):
    local_types[name] = purepy.type_of(type_name).dtype
    return _let(local_types, name, value)


def _store(array, value):
    """The value of `array[j] = value`, converted to the element type as the engine converts
    (integers wrap, floats truncate); NumPy 2 raises OverflowError instead for an integer,
    Python's or NumPy's, that the element type cannot hold."""
    if isinstance(array, np.ndarray) and _is_number(value):
        return to_type(value, array.dtype)
    return value


def _aug_store(array, index, value):
    array[index] = _store(array, value)


def _range(local_types, name, *args):
    t = local_types.get(name)
    if t is None:
        if not all(_is_number(a) for a in args):
            return range(*args)  # not a language loop
        typed = [_dtype_of(a) for a in args if type(a) not in _WEAK]
        st = None
        for a in typed:
            st = promote(st, a) if st is not None else promote(a, a)
        if st is not None:
            for a in args:
                if type(a) is int:
                    st = promote(st, fit_literal(st, a))
        t = st if st is not None else _I64
        local_types[name] = t
    return map(t.type, range(*[int(to_type(a, t)) for a in args]))


def _ret(type_name, value):
    if type_name is not None and _is_number(value):
        return to_type(value, purepy.type_of(type_name).dtype)
    return _typed(value)


def _fall_off(type_name):
    """A kernel function whose control falls off its end after returning values elsewhere
    returns zero (of the declared type; long when not declared)."""
    return _ret(type_name, 0)


_RUNTIME = types.SimpleNamespace(bin=_bin, cmp=_cmp, unary=_unary, truth=_truth, branch=_branch,
                                 TYPED=_TYPED, call=_call, param=_param, let=_let,
                                 let_many=_let_many, let_as=_let_as, store=_store,
                                 aug_store=_aug_store, range=_range, ret=_ret, fall_off=_fall_off)

# ---------------------------------------------------------------------------------------------
# The rewrite

_RT = "_smelt_rt_"  # the one free variable translated code adds (the helpers above)
_LOCALS = "_smelt_locals_"  # per call: local name → its type
_DIRECT = frozenset(("declare", "cast", "atomic_inc", "atomic_dec", "atomic_add", "local_barrier",
                     "range"))
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
        ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
        ast.LShift: "<<", ast.RShift: ">>"}
_CMPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}


def _literal(node):
    """The value of a number literal (or a negated one), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _literal(node.operand)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.Constant) and type(node.value) in _WEAK:
        return node.value
    return None


class _Rewriter(ast.NodeTransformer):
    def __init__(self, types_by_param, result):
        self.types = types_by_param
        self.result = result
        self.temps = 0
        self.seen_def = False

    def rt(self, name, args, like):
        call = ast.Call(ast.Attribute(ast.Name(_RT, ast.Load()), name, ast.Load()), args, [])
        return ast.copy_location(call, like)

    def temp(self):
        self.temps += 1
        return "_smelt_t%d_" % self.temps

    @staticmethod
    def const(value, like):
        return ast.copy_location(ast.Constant(value), like)

    def locals_ref(self, like):
        return ast.copy_location(ast.Name(_LOCALS, ast.Load()), like)

    # Expressions

    def visit_BinOp(self, node):
        self.generic_visit(node)
        op = _OPS.get(type(node.op))
        if op is None:
            return node
        return self.rt("bin", [self.const(op, node), node.left, node.right], node)

    def visit_UnaryOp(self, node):
        if _literal(node) is not None:
            return node  # -2 is a literal of its own
        self.generic_visit(node)
        op = _UNARY.get(type(node.op))
        return node if op is None else self.rt("unary", [self.const(op, node), node.operand], node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        node.values = [self.rt("truth", [v], v) for v in node.values]
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if not all(type(o) in _CMPS for o in node.ops):
            return node
        parts, left = [], node.left
        for k, (op, right) in enumerate(zip(node.ops, node.comparators)):
            if k + 1 < len(node.ops):  # a middle operand is evaluated once
                name = self.temp()
                right = ast.copy_location(ast.NamedExpr(ast.Name(name, ast.Store()), right), right)
                parts.append(self.rt("cmp", [self.const(_CMPS[type(op)], node), left, right], node))
                left = ast.copy_location(ast.Name(name, ast.Load()), right)
            else:
                parts.append(self.rt("cmp", [self.const(_CMPS[type(op)], node), left, right], node))
        if len(parts) == 1:
            return parts[0]
        return ast.copy_location(ast.BoolOp(ast.And(), parts), node)

    def visit_IfExp(self, node):
        lit_body, lit_else = _literal(node.body), _literal(node.orelse)
        self.generic_visit(node)

        def info(v, like):
            if v is None:
                return ast.copy_location(ast.Attribute(ast.Name(_RT, ast.Load()), "TYPED", ast.Load()), like)
            return self.const(v, like)

        node.body = self.rt("branch", [node.body, info(lit_else, node.orelse)], node.body)
        node.orelse = self.rt("branch", [node.orelse, info(lit_body, node.body)], node.orelse)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        if not isinstance(node.func, ast.Name) or node.func.id in _DIRECT or node.keywords:
            return node
        return self.rt("call", [node.func] + node.args, node)

    # Statements

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) != 1:
            return node
        target = node.targets[0]
        if isinstance(target, ast.Name):
            node.value = self.rt("let", [self.locals_ref(node), self.const(target.id, target), node.value],
                                 node.value)
        elif isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
            names = self.const(tuple(e.id for e in target.elts), target)
            node.value = self.rt("let_many", [self.locals_ref(node), names, node.value], node.value)
        elif isinstance(target, ast.Subscript):
            array = ast.copy_location(ast.Name(target.value.id, ast.Load()), target) \
                if isinstance(target.value, ast.Name) else None
            if array is not None:
                node.value = self.rt("store", [array, node.value], node.value)
        return node

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):
            return node
        ann = node.annotation
        spelling = ann.value if isinstance(ann, ast.Constant) else ast.unparse(ann)
        try:
            purepy.type_of(spelling)
        except ValueError:
            return node
        # `x: float` alone is zero in the language (CPython would leave x unbound).
        init = node.value if node.value is not None else self.const(0, node)
        value = self.rt("let_as", [self.locals_ref(node), self.const(node.target.id, node.target),
                                   self.const(spelling, ann), init], init)
        return ast.copy_location(ast.Assign([node.target], value), node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        op = _OPS.get(type(node.op))
        target = node.target
        if op is None:
            return node
        if isinstance(target, ast.Name):
            current = ast.copy_location(ast.Name(target.id, ast.Load()), target)
            value = self.rt("bin", [self.const(op, node), current, node.value], node)
            value = self.rt("let", [self.locals_ref(node), self.const(target.id, target), value], node)
            return ast.copy_location(ast.Assign([ast.Name(target.id, ast.Store())], value), node)
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            # x[j] op= v: j once, then load, then v, as Python (and the engine) do.
            name = self.temp()
            index = ast.copy_location(ast.NamedExpr(ast.Name(name, ast.Store()), target.slice), target.slice)
            array = lambda: ast.copy_location(ast.Name(target.value.id, ast.Load()), target.value)
            load = ast.copy_location(ast.Subscript(array(), ast.Name(name, ast.Load()), ast.Load()), target)
            value = self.rt("bin", [self.const(op, node), load, node.value], node)
            call = self.rt("aug_store", [array(), index, value], node)
            return ast.copy_location(ast.Expr(call), node)
        return node

    def visit_For(self, node):
        self.generic_visit(node)
        it = node.iter
        if (isinstance(node.target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and not it.keywords):
            name = self.const(node.target.id, node.target)
            node.iter = self.rt("range", [self.locals_ref(it), name] + it.args, it)
        return node

    def visit_Return(self, node):
        self.generic_visit(node)
        if node.value is not None:
            node.value = self.rt("ret", [self.const(self.result, node), node.value], node.value)
        return node

    def visit_FunctionDef(self, node):
        # Only the function being translated: nested definitions are left as they are.
        if self.seen_def:
            return node
        self.seen_def = True
        node.decorator_list = []
        node.body = [self.visit(s) for s in node.body]
        node.body = [x for s in node.body for x in (s if isinstance(s, list) else [s])]
        prologue = [ast.Assign([ast.Name(_LOCALS, ast.Store())], ast.Dict([], []))]
        for a in node.args.posonlyargs + node.args.args:
            value = self.rt("param", [ast.Name(_LOCALS, ast.Load()), ast.Constant(a.arg),
                                      ast.Constant(self.types.get(a.arg)), ast.Name(a.arg, ast.Load())], node)
            prologue.append(ast.Assign([ast.Name(a.arg, ast.Store())], value))
        for s in prologue:
            ast.copy_location(s, node.body[0])
        body = prologue + node.body
        if any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(node)):
            last = node.body[-1]
            fall = ast.Return(self.rt("fall_off", [self.const(self.result, last)], last))
            body.append(ast.copy_location(fall, last))
        node.body = body
        return node


def _shift_columns(tree, by):
    for n in ast.walk(tree):
        for attr in ("col_offset", "end_col_offset"):
            if getattr(n, attr, None) is not None:
                setattr(n, attr, getattr(n, attr) + by)


def _translate(func):
    lines, first = inspect.getsourcelines(func)
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    indent = len(lines[0]) - len(lines[0].lstrip()) if dedented != text else 0
    tree = ast.parse(dedented)
    fn = tree.body[0]
    if not isinstance(fn, ast.FunctionDef) or fn.name != func.__code__.co_name:
        raise ValueError("not a plain function definition")
    declared = purepy.declared_types(func)
    names = {k: t.name for k, t in declared.items() if k != "return"}
    result = declared["return"].name if "return" in declared else None
    fn = _Rewriter(names, result).visit(fn)
    fn.name = "_smelt_fn_"  # so that the function's own name stays a global (recursion)
    _shift_columns(fn, indent)
    ast.increment_lineno(fn, first - 1)
    # Compiled inside an outer function so that the helpers and the original closure variables
    # are free variables of the copy.
    free = list(func.__code__.co_freevars)
    outer = ast.FunctionDef(
        name="_smelt_outer_", args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                                 kw_defaults=[], kwarg=None, defaults=[]),
        body=[ast.Assign([ast.Name(n, ast.Store()) for n in [_RT] + free], ast.Constant(None)), fn,
              ast.Return(ast.Name(fn.name, ast.Load()))],
        decorator_list=[], returns=None, type_comment=None)
    module = ast.Module([outer], type_ignores=[])
    ast.fix_missing_locations(module)
    code = compile(module, func.__code__.co_filename, "exec")
    outer_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in outer_code.co_consts if isinstance(c, types.CodeType) and c.co_name == fn.name)
    names = {"co_name": func.__code__.co_name}
    if hasattr(inner, "co_qualname"):
        names["co_qualname"] = func.__code__.co_qualname
    inner = inner.replace(**names)
    cells = dict(zip(func.__code__.co_freevars, func.__closure__ or ()))
    cells[_RT] = types.CellType(_RUNTIME)
    closure = tuple(cells[n] for n in inner.co_freevars)
    out = types.FunctionType(inner, func.__globals__, func.__name__, func.__defaults__, closure)
    out.__kwdefaults__ = func.__kwdefaults__
    out.__qualname__ = func.__qualname__
    out.__module__ = func.__module__
    out.__doc__ = func.__doc__
    out.__annotations__ = dict(getattr(func, "__annotations__", {}))
    out.__smelt_language__ = out  # no __wrapped__: the cache's value must not hold its key
    return out


_CACHE = weakref.WeakKeyDictionary()


def language(func):
    """`func` computing with the kernel language's types (see the module docstring); cached.
    A function without findable source, or one that is not a plain ``def``, is returned as
    it is."""
    if getattr(func, "__smelt_language__", None) is func or type(func) is not types.FunctionType:
        return func
    out = _CACHE.get(func, _UNSEEN)
    if out is _UNSEEN:
        try:
            out = _translate(func)
        except (OSError, TypeError, ValueError, SyntaxError, IndexError):
            out = None  # not func itself: the cache's value must not hold its key
        _CACHE[func] = out
    return func if out is None else out


def language_lambda(params, expr, namespace):
    """A function of `params` (names) computing the expression text `expr` (a reduce or scan
    expression such as 'a + b') with the language's types; names resolve in `namespace`."""
    tree = ast.parse("lambda %s: (%s)" % (", ".join(params), expr), mode="eval")
    tree = _Rewriter({}, None).visit(tree)
    ast.fix_missing_locations(tree)
    return eval(compile(tree, "<%s>" % expr, "eval"), dict(namespace, **{_RT: _RUNTIME}))
