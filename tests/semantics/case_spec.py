"""The input description at the top of a semantics case (tests/semantics/cases/*.py).

    # smelt-test: kernel=k n=101
    # smelt-arg: NAME DTYPE GENERATOR [GENERATOR ARGS...] [nonzero] [size=M|Kn] [rtol=X]

One `smelt-arg` line per kernel parameter after `i`, in order. DTYPE is a NumPy name (int8 ...
float64). Generators: `ints LO HI` (uniform, inclusive), `floats LO HI`, `grid LO HI STEP`
(random multiples of STEP), `values V...` (cycled; inf, -inf, nan allowed), `zeros`, `fill V`,
`iota` (0, 1, 2, ...), `scalar V` (a scalar argument; `n` is the element count). `nonzero`
replaces zeros by 1; `size` gives the array length (`3n` = 3 * n; default n); `rtol` overrides
the float comparison tolerance for that argument.

The C++ runner (tests/semantics/case_spec.h) reads the same lines and generates its own
inputs; this module is the Python twin used by oracle_selftest.py.
"""

import re

import numpy as np

DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")


class ArgSpec:
    def __init__(self, name, dtype, gen, params, nonzero, size, rtol):
        self.name, self.dtype, self.gen, self.params = name, dtype, gen, params
        self.nonzero, self.size, self.rtol = nonzero, size, rtol

    def length(self, n):
        """The array length for n work items (None for a scalar)."""
        if self.gen == "scalar":
            return None
        if self.size is None:
            return n
        if self.size.endswith("n"):
            return int(self.size[:-1] or 1) * n
        return int(self.size)


class CaseSpec:
    def __init__(self, kernel, n, args):
        self.kernel, self.n, self.args = kernel, n, args


def parse(path):
    kernel, n, args = None, None, []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            m = re.match(r"#\s*smelt-(test|arg):(.*)$", line.strip())
            if not m:
                continue
            words = m.group(2).split()
            where = "%s:%d" % (path, lineno)
            if m.group(1) == "test":
                for w in words:
                    key, _, value = w.partition("=")
                    if key == "kernel":
                        kernel = value
                    elif key == "n":
                        n = int(value)
                    elif key == "rejected_on":
                        pass  # the engine's concern (semantics_test.cpp); CPython runs it
                    else:
                        raise ValueError("%s: unknown smelt-test key %r" % (where, key))
                continue
            if len(words) < 3 or words[1] not in DTYPES:
                raise ValueError("%s: expected 'NAME DTYPE GENERATOR ...'" % where)
            name, dtype, gen = words[:3]
            params, nonzero, size, rtol = [], False, None, None
            for w in words[3:]:
                if w == "nonzero":
                    nonzero = True
                elif w.startswith("size="):
                    size = w[5:]
                elif w.startswith("rtol="):
                    rtol = float(w[5:])
                else:
                    params.append(w)
            want = {"ints": 2, "floats": 2, "grid": 3, "zeros": 0, "iota": 0, "fill": 1, "scalar": 1}
            if gen == "values":
                if not params:
                    raise ValueError("%s: 'values' needs at least one value" % where)
            elif want.get(gen) != len(params):
                raise ValueError("%s: generator %r takes %s values" % (where, gen, want.get(gen, "no")))
            args.append(ArgSpec(name, dtype, gen, params, nonzero, size, rtol))
    if kernel is None or n is None:
        raise ValueError("%s: no '# smelt-test: kernel=NAME n=N' line" % path)
    return CaseSpec(kernel, n, args)


def _number(text, n):
    return n if text == "n" else float(text)


def generate(arg, n, rng):
    """Inputs for one argument: a NumPy array, or a 0-d array for a scalar."""
    dt = np.dtype(arg.dtype)
    if arg.gen == "scalar":
        return np.array(_number(arg.params[0], n)).astype(dt)
    m = arg.length(n)
    p = arg.params
    if arg.gen == "ints":
        v = rng.integers(int(p[0]), int(p[1]), size=m, endpoint=True)
    elif arg.gen == "floats":
        v = rng.uniform(float(p[0]), float(p[1]), size=m)
    elif arg.gen == "grid":
        lo, hi, step = (float(x) for x in p)
        v = rng.integers(int(np.ceil(lo / step)), int(np.floor(hi / step)), size=m, endpoint=True) * step
    elif arg.gen == "values":
        vals = [float(x) for x in p]
        v = np.array([vals[k % len(vals)] for k in range(m)])
    elif arg.gen == "zeros":
        v = np.zeros(m)
    elif arg.gen == "fill":
        v = np.full(m, float(p[0]))
    else:  # iota
        v = np.arange(m)
    if arg.nonzero:
        v = np.where(v == 0, 1, v)
    return np.asarray(v).astype(dt)
