#!/usr/bin/env python3
"""Checks the CPython side of the semantics suite on its own (run by oracle_test.cpp):
smelt.purepy against hand-written expectations, and oracle.py end to end (its command line,
.npy in and out) on every case, with spot checks of some results against plain Python ints and
floats. Exit 0: all passed; 1: a check failed; 77: NumPy is missing."""

import glob
import math
import os
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "python")))

try:
    import numpy as np
except ImportError:
    print("NumPy is not installed for %s" % sys.executable)
    sys.exit(77)

import case_spec  # noqa: E402
import oracle  # noqa: E402
import smelt  # noqa: E402
from smelt import purepy  # noqa: E402
from smelt._language import language  # noqa: E402

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)


def same(a, b, what):
    ok = type(a) is type(b) and (a == b or (a != a and b != b))
    check(ok, "%s: expected %r (%s), got %r (%s)" % (what, b, type(b).__name__, a, type(a).__name__))


def near_float32(a, want, what, ulps=2):
    """`a` is a float32 within `ulps` of the float32 nearest to `want` (NumPy's float32 math
    may differ from the correctly rounded value by an ulp, and does between versions)."""
    ok = type(a) is np.float32
    if ok:
        w = np.float32(want)
        ok = abs(float(a) - float(w)) <= ulps * float(np.spacing(w))
    check(ok, "%s: expected a float32 within %d ulps of %r, got %r (%s)" % (what, ulps, want, a, type(a).__name__))


# --- purepy ------------------------------------------------------------------------------------


def check_types_and_annotate():
    check(smelt.int_.name == "int" and smelt.int_.dtype == np.int32, "int_")
    check(smelt.gdoublep.is_pointer and smelt.gdoublep.dtype == np.float64, "gdoublep")
    check(smelt.lfloatp.space == "local" and smelt.ulong.dtype == np.uint64, "lfloatp, ulong")
    check(not hasattr(smelt, "int") and not hasattr(smelt, "float"), "builtins int/float not shadowed")
    for bad in ("int32", "doublepp", "boolp"):
        try:
            purepy.type_of(bad)
            check(False, "type_of(%r) should fail" % bad)
        except ValueError:
            pass

    def f(i, n, x, y):
        return x[i] + y[i] + n

    g = smelt.annotate(int="i, n", doublep="x, y", return_="double")(f)
    check(g is f, "annotate returns the function itself")
    check(f.__annotations__ == {"i": smelt.int_, "n": smelt.int_, "x": smelt.doublep, "y": smelt.doublep,
                                "return": smelt.double}, "annotate(type='names') form: %r" % f.__annotations__)

    @smelt.annotate(i="int", x=smelt.gfloatp, return_=smelt.float_)
    def h(i, x):
        return x[i]

    check(h.__annotations__ == {"i": smelt.int_, "x": smelt.gfloatp, "return": smelt.float_},
          "annotate(name=type) form: %r" % h.__annotations__)

    @smelt.annotate
    def bare(i, x: "intp", s=0.0, v=[0.0], n=0):
        return 0

    t = purepy.declared_types(bare)
    check(t == {"i": smelt.long_, "x": smelt.intp},
          "bare @annotate with Python annotations (defaults declare nothing): %r" % t)
    t = purepy.default_types(bare)
    check(t == {"s": smelt.double, "v": smelt.doublep, "n": smelt.long_},
          "types the defaults suggest: %r" % t)
    for bad in (dict(z="int"), dict(double="x, q"), dict(i="matrix")):
        try:
            smelt.annotate(**bad)(lambda i, x: 0)
            check(False, "annotate(%r) should fail" % bad)
        except (TypeError, ValueError):
            pass
    check(smelt.jit(f) is f and smelt.elementwise(f) is f and smelt.jit()(f) is f, "jit/elementwise identity")


def check_declare_and_cast():
    same(smelt.declare("int"), np.int32(0), "declare('int')")
    same(smelt.declare("double"), np.float64(0), "declare('double')")
    same(smelt.declare("uchar"), np.uint8(0), "declare('uchar')")
    a, b = smelt.declare("float", 2)
    same(a, np.float32(0), "declare('float', 2)[0]")
    m = smelt.declare("matrix(3)")
    check(m.dtype == np.float64 and m.shape == (3,) and not m.any(), "matrix(3)")
    m = smelt.declare("matrix((2, 2), 'int')")
    check(m.dtype == np.int32 and m.shape == (2, 2), "matrix((2, 2), 'int')")
    m = smelt.declare('LOCAL_MEM matrix(4)')
    check(m.shape == (4,), "LOCAL_MEM matrix(4)")
    u, v = smelt.declare("matrix(2)", 2)
    u[0] = 1
    check(v[0] == 0, "declare(..., 2) gives independent matrices")
    ROWS = 3  # noqa: F841 -- a module constant is looked up in the caller's globals
    globals()["SELFTEST_ROWS"] = 3
    m = smelt.declare("matrix((SELFTEST_ROWS, 2), 'short')")
    check(m.shape == (3, 2) and m.dtype == np.int16, "matrix extent from a module constant")
    same(smelt.cast(-2.7, "int"), np.int32(-2), "cast truncates toward zero")
    same(smelt.cast(300, "char"), np.int8(44), "cast wraps")
    same(smelt.cast(np.int32(-1), "uint"), np.uint32(4294967295), "cast to unsigned wraps")
    same(smelt.cast(2**64 + 5, "long"), np.int64(5), "cast of a huge Python int wraps")
    same(smelt.cast(3, "float"), np.float32(3), "cast to float")
    same(smelt.int_(2**32 + 1), np.int32(1), "int_() converts with wrapping")


def check_math():
    same(smelt.floor(-2.5), np.float64(-3.0), "floor returns a float")
    same(smelt.ceil(np.float32(-2.5)), np.float32(-2.0), "ceil keeps float32")
    same(smelt.trunc(np.int32(-7)), np.float64(-7.0), "trunc of an int is double")
    same(smelt.sqrt(np.int8(4)), np.float64(2.0), "int8 argument is computed in double, not float16")
    near_float32(smelt.atan2(np.float32(1), 2.0), math.atan2(1, 2), "atan2(float, literal) stays float")
    same(smelt.pow(np.float32(2), np.float64(3)), np.float64(8), "pow(float, double) is double")
    same(smelt.pow(2, 3), np.float64(8), "pow of ints is double")
    same(smelt.isnan(smelt.nan), np.bool_(True), "isnan(nan)")
    same(smelt.isinf(-smelt.INFINITY), np.bool_(True), "isinf(-INFINITY)")
    same(smelt.erf(np.float32(0.5)), np.float32(math.erf(0.5)), "erf keeps float32")
    same(smelt.log(-1.0), np.float64(np.nan), "log of a negative is NaN, not an exception")
    check(smelt.M_PI == math.pi and smelt.e == math.e, "constants")


def check_atomics():
    x = np.array([5, 7, 9], dtype=np.int32)
    j = 1
    same(smelt.atomic_inc(x[j]), np.int32(7), "atomic_inc returns the old value")
    same(smelt.atomic_dec(x[j + 1]), np.int32(9), "atomic_dec returns the old value")
    same(smelt.atomic_add(x[0], -3), np.int32(5), "atomic_add returns the old value")
    check(x.tolist() == [2, 8, 8], "atomics update the array: %r" % x.tolist())
    u = np.zeros(1, dtype=np.uint32)
    smelt.atomic_dec(u[0])
    check(u[0] == 4294967295, "atomic_dec wraps at the element width")
    d = np.zeros(2)
    old = smelt.atomic_add(d[1], 2.5) + smelt.atomic_add(
        d[1], 1.0)
    check(old == 2.5 and d[1] == 3.5, "two atomics on one line, one spanning two lines")
    try:
        y = 3
        smelt.atomic_inc(y)
        check(False, "atomic_inc of a plain value should fail")
    except TypeError:
        pass


def check_work_items():
    check((smelt.LID_0, smelt.GID_2, smelt.LDIM_1, smelt.GDIM_0) == (0, 0, 1, 1), "work-item names")
    check(smelt.local_barrier() is None, "local_barrier")


BIG = 3000000000  # a module constant: an untyped literal in kernels


def check_language():
    """smelt._language.language gives each operation the engine's type (engine/lower/), under
    NumPy 1.x and 2.x alike; the expectations are written from the language's rules by hand."""
    L = language
    c8, h16, u32, f32 = np.int8(100), np.int16(-5), np.uint32(7), np.float32(1.25)

    def weak(c, h, u, f):
        return c * 1000, h + 3000000000, u // -2, u % -3, u > -1, max(u, -5), f * 2.0 + 1.5, f / 4
    got = L(weak)(c8, h16, u32, f32)
    for g, want, what in zip(got, (np.int32(100000), np.int64(2999999995), np.int64(-4), np.int64(-2),
                                   np.bool_(True), np.int64(7), np.float32(4.0), np.float32(0.3125)),
                             ("char * 1000 is int", "short + 3000000000 is long", "uint // -2 is long",
                              "uint % -3 is long", "uint > -1 compares as long", "max(uint, -5) is long",
                              "float * 2.0 + 1.5 stays float", "float / 4 stays float")):
        same(g, want, "language: " + what)

    def promotion(c, a, u, i):
        return c + c, a < u, u + 1, i * 1.5, i / 2, BIG + a
    got = L(promotion)(c8, np.int32(-1), np.uint32(4294967295), np.int32(3))
    for g, want, what in zip(got, (np.int32(200), np.bool_(False), np.uint32(0), np.float64(4.5), np.float64(1.5),
                                   np.int64(2999999999)),
                             ("char + char is int (no 8-bit wrap)", "int < uint compares unsigned (C)",
                              "uint + 1 wraps at 32 bits", "int * 1.5 is double", "int / 2 is double",
                              "a module constant too wide for int makes long")):
        same(g, want, "language: " + what)

    @smelt.annotate(n="long", return_="long")
    def lfact(n):
        if n <= 1:
            return 1
        return n * lfact(n - 1)
    same(L(lfact)(np.int32(20)), np.int64(2432902008176640000), "language: a long parameter converts an int argument")

    @smelt.annotate(a="int", return_="int")
    def falls_off(a):
        if a < 0:
            return a
    same(L(falls_off)(np.int64(5)), np.int32(0), "language: falling off the end returns zero")

    def locals_and_loops(a, u):
        s = 0
        for k in range(3):
            s += a
        last = 0
        for v in range(u, 0, -1):
            last = v
        w = smelt.declare("int")
        w = 2**33 + 5
        z: float
        z += 0.1
        return s, last, w, 1 if a else 0, z
    got = L(locals_and_loops)(np.int32(2**30), np.uint32(3))
    for g, want, what in zip(got, (np.int64(3 * 2**30), np.int64(1), np.int32(5), np.int64(1), np.float32(0.1)),
                             ("a local first assigned 0 is long", "range(uint, 0, -1) counts in long",
                              "a local keeps its declared type (wraps)", "1 if c else 0 is long",
                              "'z: float' alone is a float32 zero")):
        same(g, want, "language: " + what)

    def conversions(c, flag, x, out):
        out[0] = c * 1000
        out[1] = 300
        out[2] = -1 - c
        out[3] += 1
        return int(2.7), int(flag), -flag, ~flag, flag & flag, float(c)
    out = np.array([0, 0, 0, 127], dtype=np.int8)
    got = L(conversions)(c8, np.bool_(True), 0.5, out)
    check(out.tolist() == [-96, 44, -101, -128], "language: stores wrap into the element type: %r" % out.tolist())
    for g, want, what in zip(got, (np.int32(2), np.int32(1), np.int32(-1), np.int32(-2), np.bool_(True),
                                   np.float64(100)),
                             ("int(2.7) is int", "int(bool) is int", "-bool is int", "~bool is int",
                              "bool & bool is bool", "float(char) is double")):
        same(g, want, "language: " + what)

    calls = []

    def middle(x):
        calls.append(x)
        return x

    def chained(a):
        return 0 < middle(a) < 10
    same(L(chained)(np.int32(5)), np.bool_(True), "language: chained comparison")
    check(calls == [5], "language: the middle operand of a chained comparison is evaluated once")
    check(L(L(chained)) is L(chained), "language of a translated function is itself")
    no_source = eval("lambda x: x + 1")
    check(L(no_source) is no_source, "language: a function without source runs as it is")


# --- oracle.py end to end ----------------------------------------------------------------------


def run_case(path):
    """Runs oracle.py's command line on inputs made from the case spec; returns (spec, inputs,
    outputs)."""
    spec = case_spec.parse(path)
    rng = np.random.default_rng(12345)
    inputs = [case_spec.generate(a, spec.n, rng) for a in spec.args]
    with tempfile.TemporaryDirectory() as d:
        for k, a in enumerate(inputs):
            np.save(os.path.join(d, "arg%d.npy" % k), a)
        p = subprocess.run([sys.executable, os.path.join(HERE, "oracle.py"), path, spec.kernel, str(spec.n), d],
                           capture_output=True, text=True)
        if p.returncode != 0:
            FAILURES.append("oracle.py %s exited %d:\n%s" % (os.path.basename(path), p.returncode, p.stderr))
            return spec, inputs, None
        outputs = [np.load(os.path.join(d, "out%d.npy" % k)) for k in range(len(inputs))]
    for a, i, o in zip(spec.args, inputs, outputs):
        check(i.dtype == o.dtype and i.shape == o.shape, "%s: %s changed dtype or shape" % (path, a.name))
    return spec, inputs, outputs


def by_name(spec, arrays):
    return {a.name: v for a, v in zip(spec.args, arrays)}


def py_floordiv_mod_int(ins, outs):
    a, b, q = ins["a"].tolist(), ins["b"].tolist(), outs["q"].tolist()
    for i in range(len(a)):
        want = [a[i] // b[i], a[i] % b[i], a[i] // 7, a[i] % 7, a[i] // -7, a[i] % -7, -a[i] // b[i], 0]
        check(q[10 * i:10 * i + 8] == want, "floordiv_mod_int i=%d: %r != %r" % (i, q[10 * i:10 * i + 8], want))
        check(q[10 * i + 8] == -400 + 20 - 2, "floordiv_mod_int folded constants")


def py_floordiv_mod_float(ins, outs):
    x, y, out = ins["x"].tolist(), ins["y"].tolist(), outs["out"].tolist()
    for i in range(len(x)):
        want = [x[i] // y[i], x[i] % y[i], x[i] // 2.5, x[i] % -2.5]
        check(out[9 * i:9 * i + 4] == want, "floordiv_mod_float i=%d: %r != %r" % (i, out[9 * i:9 * i + 4], want))
        check(out[9 * i + 6] == math.copysign(1.0, x[i] % y[i]), "sign of a float remainder, i=%d" % i)


def py_short_circuit(ins, outs):
    a, hits = ins["a"].tolist(), outs["hits"].tolist()
    for i in range(len(a)):
        want = [int(a[i] > 0), int(a[i] <= 0), 0 if a[i] >= 0 else 1, int(a[i] != 0 and a[i] > 2), None,
                int(a[i] > 2)]
        got = hits[6 * i:6 * i + 6]
        got[4] = None  # depends on x
        check(got == want, "short_circuit hits i=%d: %r != %r" % (i, got, want))


def py_atomics(ins, outs):
    a = ins["a"].astype(np.int64)
    check(outs["hist"][:8].tolist() == np.bincount(a % 8, minlength=8).tolist(), "atomics histogram")
    check(int(outs["total"][0]) == 5 + int(a.sum()), "atomics sum")
    check(outs["down"].tolist() == [950] * 4, "atomics decrement")
    check(outs["hist"][8:].tolist() == [1] * len(a), "atomics on owned slots")


def py_recursion(ins, outs):
    out = outs["out"].tolist()
    a, b = ins["a"].tolist(), ins["b"].tolist()

    def gcd(p, q):
        return p if q == 0 else gcd(q, p % q)

    for i in range(len(a)):
        check(out[3 * i] == math.factorial(i % 21) and out[3 * i + 1] == gcd(a[i], b[i]), "recursion i=%d" % i)


SPOT_CHECKS = {"floordiv_mod_int": py_floordiv_mod_int, "floordiv_mod_float": py_floordiv_mod_float,
               "short_circuit": py_short_circuit, "atomics": py_atomics, "recursion": py_recursion}


def main():
    warnings.simplefilter("ignore")
    check_types_and_annotate()
    check_declare_and_cast()
    check_math()
    check_atomics()
    check_work_items()
    check_language()
    cases = sorted(glob.glob(os.path.join(HERE, "cases", "*.py")))
    check(len(cases) >= 14, "at least 14 cases")
    for path in cases:
        spec, inputs, outputs = run_case(path)
        name = os.path.splitext(os.path.basename(path))[0]
        if outputs is not None and name in SPOT_CHECKS:
            SPOT_CHECKS[name](by_name(spec, inputs), by_name(spec, outputs))
    for f in FAILURES:
        print("FAILED:", f)
    print("%d cases, %d failures" % (len(cases), len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
