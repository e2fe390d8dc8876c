#!/usr/bin/env python3
"""The semantics oracle: runs a kernel the way Elementwise does, in CPython on NumPy arrays.

    oracle.py CASE.py FUNCTION N DIR

DIR holds arg0.npy, arg1.npy, ... : one file per kernel parameter after the index, in order;
a 0-d array is a scalar argument. Each file's dtype must be the parameter's declared type (an
array of int32 for 'intp', a 0-d float64 for 'double', ...). The oracle runs
`for i in range(N): FUNCTION(i, *args)` with `i` of the index parameter's declared type, then
writes every argument back as out0.npy, out1.npy, ... (arrays as the kernel left them).

Exit status: 0 done; 1 the kernel raised (traceback on stderr, with the work item); 2 bad use or
inputs that do not match the declared types; 77 NumPy is missing (the caller skips).

The kernel runs through `smelt._language.language`, which gives every operation the type the
engine gives it (weak literals, C's promotion, declared parameter and result types, typed
locals), so NumPy 1.x and 2.x compute the same values; NumPy's own promotion rules (value-based
in 1.x, NEP 50 in 2.x) never decide a type. Floating-point and overflow warnings are silenced:
the engine has no such warnings.
"""

import importlib.util
import inspect
import os
import sys
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "python")))


def load_case(path):
    """Imports a kernel file as a fresh module (its `from smelt import *` uses purepy)."""
    name = "smelt_case_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_args(func, args):
    """Raises ValueError unless `args` (NumPy arrays; 0-d for scalars) match the declared types
    of `func`'s parameters after the index."""
    from smelt import purepy

    params = list(inspect.signature(func).parameters)[1:]
    if len(args) != len(params):
        raise ValueError("%s takes %d arguments after the index, %d given"
                         % (func.__name__, len(params), len(args)))
    types = purepy.declared_types(func)
    for name, a in zip(params, args):
        t = types.get(name)
        if t is None:
            continue  # typed at the call (JIT): any dtype
        kind = "array" if a.ndim else "scalar"
        if t.is_pointer != (a.ndim > 0) or t.dtype != a.dtype:
            raise ValueError("argument %r is declared %s but given a %s %s" % (name, t.name, a.dtype, kind))


def run_elementwise(func, n, args):
    """Calls func(i, *args) for i in range(n); 0-d arrays are passed as NumPy scalars. Returns
    the argument list as the kernel left it."""
    import numpy as np
    from smelt._language import language

    kernel = language(func)  # converts i to the index parameter's declared type
    values = [a[()] if a.ndim == 0 else a for a in args]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for i in range(n):
            try:
                kernel(i, *values)
            except Exception as exc:
                raise RuntimeError("%s(i=%d) raised %s: %s" % (func.__name__, i, type(exc).__name__, exc)) from exc
    return values


def main(argv):
    if len(argv) != 5:
        print("usage: oracle.py CASE.py FUNCTION N DIR", file=sys.stderr)
        return 2
    try:
        import numpy as np
    except ImportError:
        print("NumPy is not installed for %s" % sys.executable, file=sys.stderr)
        return 77
    case, func_name, n, folder = argv[1], argv[2], int(argv[3]), argv[4]
    try:
        func = getattr(load_case(case), func_name)
        args = []
        while os.path.exists(os.path.join(folder, "arg%d.npy" % len(args))):
            args.append(np.load(os.path.join(folder, "arg%d.npy" % len(args))))
        check_args(func, args)
    except Exception:
        traceback.print_exc()
        return 2
    try:
        values = run_elementwise(func, n, args)
    except RuntimeError:
        traceback.print_exc()
        return 1
    for k, v in enumerate(values):
        np.save(os.path.join(folder, "out%d.npy" % k), np.asarray(v))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
