# Kernels with mistakes for tests/python/test_errors.py. Valid Python (CPython imports the file);
# the engine rejects each function. A marker comment names each expected error's line.
from smelt import annotate, declare


def retyped(i, x):
    y = 1
    y = 2.5 + x[i]  # ERROR retyped
    x[i] = y


def unknown_call(i, x):
    x[i] = no_such_function(x[i])  # ERROR unknown_call  # noqa: F821


def walrus(i, x):
    x[i] = (t := 3)  # ERROR walrus


@annotate(i='int', x='doublep')
def annotated(i, x):
    x[i] = 1


def caller(i, x):
    x[i] = helper_bad(x[i])


def helper_bad(v):
    return v + [1][0]  # ERROR helper_bad


@annotate(out='intp')
def fill_pair(v, out):
    out[0] = v
    out[1] = 2 * v


def passes_a_matrix(i, x):
    tmp = declare('matrix(2)')
    fill_pair(1, tmp)  # ERROR passes_a_matrix
    x[i] = tmp[0] + tmp[1]
