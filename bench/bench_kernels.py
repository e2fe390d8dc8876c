# Kernels for bench/primitives_bench.cpp.
from math import sin


def axpb(i, x, y, a, b):
    y[i] = a * sin(x[i]) + b


def ident(i, x):
    return x[i]


def store_item(i, item, y):
    y[i] = item
