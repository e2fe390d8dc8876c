# Kernels for the primitive tests (tests/primitives/*_test.cpp). Ordinary Python: each function
# can also be run by CPython on NumPy arrays.
from math import sin


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
