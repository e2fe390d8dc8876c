# Kernels behind smelt's array operators and array functions (smelt/_ops.py). Ordinary kernel
# functions: the engine specialises each one on the argument types of the call, and CPython runs
# them as they are for backend='python'.
from smelt.purepy import *  # noqa: F401,F403  (the kernel language's names in CPython)

# Comparisons store 0/1 into uint8 arrays shown as bool.


def lt(i, a, b, out):
    out[i] = 1 if a[i] < b[i] else 0


def le(i, a, b, out):
    out[i] = 1 if a[i] <= b[i] else 0


def gt(i, a, b, out):
    out[i] = 1 if a[i] > b[i] else 0


def ge(i, a, b, out):
    out[i] = 1 if a[i] >= b[i] else 0


def eq(i, a, b, out):
    out[i] = 1 if a[i] == b[i] else 0


def ne(i, a, b, out):
    out[i] = 1 if a[i] != b[i] else 0


def lt_s(i, a, s, out):
    out[i] = 1 if a[i] < s else 0


def le_s(i, a, s, out):
    out[i] = 1 if a[i] <= s else 0


def gt_s(i, a, s, out):
    out[i] = 1 if a[i] > s else 0


def ge_s(i, a, s, out):
    out[i] = 1 if a[i] >= s else 0


def eq_s(i, a, s, out):
    out[i] = 1 if a[i] == s else 0


def ne_s(i, a, s, out):
    out[i] = 1 if a[i] != s else 0


def add(i, a, b, out):
    out[i] = a[i] + b[i]


def sub(i, a, b, out):
    out[i] = a[i] - b[i]


def mul(i, a, b, out):
    out[i] = a[i] * b[i]


def div(i, a, b, out):
    out[i] = a[i] / b[i]


def add_s(i, a, s, out):
    out[i] = a[i] + s


def sub_s(i, a, s, out):
    out[i] = a[i] - s


def mul_s(i, a, s, out):
    out[i] = a[i] * s


def div_s(i, a, s, out):
    out[i] = a[i] / s


def rsub_s(i, a, s, out):
    out[i] = s - a[i]


def rdiv_s(i, a, s, out):
    out[i] = s / a[i]


def copy(i, src, dst):
    dst[i] = src[i]


def dot_map(i, a, b):
    return a[i] * b[i]


def cumsum_in(i, ary):
    return ary[i]


def cumsum_out(i, item, out):
    out[i] = item


def fill_s(i, out, v):
    out[i] = v


def diff1(i, a, out):
    out[i] = a[i + 1] - a[i]


def trapz_map(i, x, y, n1):
    # (x[i+1] - x[i]) * (y[i] + y[i+1]) in double, whatever the arrays' types; 0 past n1.
    d = 0.0
    s = 0.0
    if i < n1:
        d = x[i + 1]
        d = d - x[i]
        s = y[i]
        s = s + y[i + 1]
    return d * s


def nonzero_map(i, c):
    return 1 if c[i] != 0 else 0


def select_in(i, condition):
    return 1 if condition[i] != 0 else 0


def select_out(i, item, condition, ary, out):
    if condition[i] != 0:
        out[item - 1] = ary[i]


def mark(i, indices, flags):
    flags[indices[i]] = 1


def keep_in(i, flags):
    return 1 - flags[i]


def keep_out(i, item, flags, src, out):
    if flags[i] == 0:
        out[item - 1] = src[i]
