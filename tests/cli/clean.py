# Clean kernels: `smelt check` exits 0.
from math import sin


@annotate(i='int', doublep='x, y, a, b')
def axpb(i, x, y, a, b):
    y[i] = a[i] * sin(x[i]) + b[i]


def jit_only(i, x, c):
    x[i] = c * x[i]
