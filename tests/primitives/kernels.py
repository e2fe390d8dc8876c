# Kernels for the primitive tests (tests/primitives/*_test.cpp). Ordinary Python: each function
# can also be run by CPython on NumPy arrays.
from math import sin, sqrt


@annotate(i='int', doublep='x, y, a, b')
def axpb(i, x, y, a, b):
    y[i] = a[i] * sin(x[i]) + b[i]


def scale_shift(i, x, y, a, b):
    y[i] = a * x[i] + b


@annotate(x='doublep', n='int')
def fill_index(i, x, n):
    x[i] = i + n


def kernel(i, x):
    x[i] = x[i] * 2


def sq(i, x):
    return x[i] * x[i]


def clamp01(v):
    return min(max(v, 0.0), 1.0)


def clamped(i, x):
    return clamp01(x[i])


def ident(i, x):
    return x[i]


def store_item(i, item, y):
    y[i] = item


def store_prev(i, prev_item, y):
    y[i] = prev_item


def store_all(i, item, prev_item, last_item, y, yp, last):
    y[i] = item
    yp[i] = prev_item
    last[i] = last_item


def in_place(i, item, x):
    x[i] = item


def seg_start(i, flags):
    return flags[i] != 0


def twice(i, x, k):
    return k * x[i]


def bad_types(i, x):
    y = 1
    y = 2.5 + x[i]
    return y


def scaled(i, x, k):
    return k * x[i]


def store_reversed(i, item, N, y):
    y[N - 1 - i] = item


def store_item_prev(i, item, prev_item, y, yp):
    y[i] = item
    yp[i] = prev_item


def copy_head(i, x, t, m):
    if i < m:
        x[i] = t[i]


def products(i, x, y):
    return x[i] * y[i]


def spin_while_positive(i, x, out):
    # No side effect in the loop and k unused after it: C++'s forward-progress rule would let
    # the compiler delete it (GCC does at -O2 unless -fno-finite-loops).
    k = x[i]
    while k > 0.0:
        k = k * 1.0
    out[i] = 1.0


@annotate(i='int', x='doublep', k='intp', l='longp', u='uintp')
def float_to_int(i, x, k, l, u):
    k[i] = int(x[i])
    l[i] = cast(x[i], 'long')
    u[i] = cast(x[i], 'uint')


def shifted(i, x, y):
    y[i] = x[i + 3]


@annotate(i='int', doublep='y, x', int='a, b')
def summed_index(i, y, x, a, b):
    y[i] = x[a + b + i]


@annotate(i='int', k='intp', out='doublep')
def local_lookup(i, k, out):
    m = declare('matrix(4)')
    for j in range(4):
        m[j] = j * 1.5
    out[i] = m[k[i]]


def reciprocal_root(i, x, y):
    y[i] = 1.0 / sqrt(x[i])


def row_total(x, i, m):
    s = 0.0
    for k in range(m):
        s += x[i * m + k]
    return s


def row_sums(i, x, y, m):
    y[i] = row_total(x, i, m)


def plus_first(i, y, x):
    y[i] = x[0] + i
