"""The primitives run by CPython on NumPy arrays (backend='python'): the same functions, one index
at a time, in index order. Slow, but it is the meaning the engine's backends must agree with, so
tests use it as their oracle. Functions run through `_language.language`, which gives every
operation the language's types whatever the NumPy version (see smelt/_language.py)."""

import inspect

import numpy as np

from . import purepy
from ._language import language, language_lambda

_NAMESPACE = {k: getattr(purepy, k) for k in purepy.__all__}
_NAMESPACE.update(min=min, max=max, abs=abs, int=int, float=float)


def _is_array(arg):
    """A smelt Array (smelt.array, a layer above: the primitives that call this module take its
    Arrays without importing it, so Arrays are known here by what they do, pull and push)."""
    return hasattr(type(arg), "pull") and hasattr(type(arg), "push")


def host(arg):
    """A NumPy view of an argument (pulled from the device first), or the argument itself."""
    if _is_array(arg):
        arg.pull()
        return arg.data if arg._shape is None else arg.data.reshape(arg._shape)
    return arg


def push_back(args):
    for a in args:
        if _is_array(a):
            a.push()


def _length(args, what):
    for a in args:
        if isinstance(a, np.ndarray):
            return len(a)
    raise TypeError("%s is given no array, so the item count is unknown" % what)


def elementwise(func, args, n=None):
    func = language(func)
    views = [host(a) for a in args]
    n = _length(views, func.__name__) if n is None else n
    with np.errstate(all="ignore"):  # integer kernels wrap, as compiled ones do
        for i in range(n):
            func(i, *views)
    push_back(args)


def binary(expr):
    """A Python function of (a, b) for a reduce/scan expression such as 'min(a, b)'."""
    return language_lambda(("a", "b"), expr, _NAMESPACE)


def constant(expr, dtype):
    return purepy._convert(eval(expr, dict(_NAMESPACE)), dtype)


def reduction(map_func, reduce_expr, neutral, dtype, args):
    combine = binary(reduce_expr)
    map_func = language(map_func) if map_func is not None else None
    views = [host(a) for a in args]
    if map_func is None:
        values = views[0]
        n = len(values)
        item = lambda i: values[i]
    else:
        n = _length(views, map_func.__name__)
        item = lambda i: map_func(i, *views)
    if n == 0:
        return constant(neutral, dtype)
    with np.errstate(all="ignore"):
        acc = purepy._convert(item(0), dtype)
        for i in range(1, n):
            acc = purepy._convert(combine(acc, purepy._convert(item(i), dtype)), dtype)
    return acc


_SCAN_NAMES = ("i", "item", "prev_item", "last_item", "N")


def _caller(func):
    func = language(func)
    params = list(inspect.signature(func).parameters)
    return lambda values: func(*[values[p] for p in params])


def scan(input_func, output_func, segment_func, scan_expr, neutral, dtype, named):
    combine = binary(scan_expr)
    views = {k: host(v) for k, v in named.items()}
    inp = _caller(input_func)
    out = _caller(output_func)
    seg = _caller(segment_func) if segment_func is not None else None
    first = list(inspect.signature(input_func).parameters)
    n = None
    for p in first:
        if isinstance(views.get(p), np.ndarray):
            n = len(views[p])
            break
    if n is None:
        raise TypeError("the scan's input function is given no array, so the item count is unknown")
    zero = constant(neutral, dtype)
    values = dict(views, N=n)
    items, prevs = [], []
    acc = zero
    with np.errstate(all="ignore"):
        for i in range(n):
            values["i"] = i
            x = purepy._convert(inp(values), dtype)
            start = i == 0 or (seg is not None and bool(seg(values)))
            prev = zero if start else acc
            acc = x if start else purepy._convert(combine(acc, x), dtype)
            prevs.append(prev)
            items.append(acc)
    last = items[-1] if n else zero
    for i in range(n):
        values.update(i=i, item=items[i], prev_item=prevs[i], last_item=last)
        out(values)
    push_back(named.values())
