# Loop-parallel functions (ParPy's model) over 2-D arrays (x[i, j], slices of rows and columns),
# for tests/primitives/loop_function_test.cpp.
import smelt.parpy as parpy
from math import exp


def row_sums_2d(x, out, N):
    parpy.label('N')
    for i in range(N):
        parpy.label('M')
        out[i] = parpy.sum(x[i, :])


def add_2d(x, y, out):
    parpy.label('N')
    parpy.label('M')
    out[:, :] = x[:, :] + 2.0 * y[:, :]


def col_max(x, out):
    parpy.label('M')
    out[:] = parpy.max(x[:, :], axis=0)


def matmul_2d(a, b, c, N, K, M):
    parpy.label('N')
    for i in range(N):
        parpy.label('M')
        for j in range(M):
            s = 0.0
            for k in range(K):
                s += a[i, k] * b[k, j]
            c[i, j] = s


def row_softmax_2d(x, out, N, M):
    parpy.label('N')
    for i in range(N):
        parpy.label('M')
        m = parpy.max(x[i, :])
        s = 0.0
        for j in range(M):
            s += exp(x[i, j] - m)
        parpy.label('M')
        for j in range(M):
            out[i, j] = exp(x[i, j] - m) / s
