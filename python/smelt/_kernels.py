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
